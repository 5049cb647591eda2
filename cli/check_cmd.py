"""`idiom check PATH… | -p BUILD_DIR`: idioms as findings for CI (text, JSON, SARIF)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from ci.baseline import new_findings, read_baseline, write_baseline
from ci.compile_db import load_compile_db
from ci.findings import LEVELS, Finding, UnitResult, at_or_above
from ci.fingerprint import findings_of, read_source_lines
from ci.report import json_report, json_text, summary, text_report
from ci.result_cache import ResultCache
from ci.runner import check_units
from ci.sarif import sarif_log
from ci.units import Unit, units_from_paths
from cli.common import add_frontend_options
from idl.errors import IdiomError

__all__ = ["EXIT_ERROR", "EXIT_FINDINGS", "EXIT_OK", "register", "run"]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

EPILOG = """\
exit status:
  0  no finding at or above --fail-on (nor any error)
  1  findings at or above --fail-on (level note < warning < error)
  2  errors: a unit that does not compile (its clang message is reported, the other units
     are still checked and reported), a bad compilation database, baseline or option

levels: error when the programs built around the idiom ran 10x faster or more with its
replacement (median), warning from 1.5x, note otherwise and when it would not be replaced.
The figures are measured (ci/benefit.json, generated from docs/results/ by
benchmarks/check_benefit.py). Results are cached per unit (IDIOM_CACHE_DIR; --no-cache).
See docs/ci.md."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "check",
        help="report idioms as findings for CI (text, JSON, SARIF)",
        description="Report every idiom instance that idiom could replace, with what would "
        "replace it and the measured benefit, as findings a CI job understands.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="files, or folders searched recursively for C/C++ sources",
    )
    parser.add_argument(
        "-p",
        dest="build_dir",
        type=Path,
        metavar="BUILD_DIR",
        help="read compile_commands.json there: each unit with its own flags "
        "(PATHs then restrict the units checked)",
    )
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument(
        "-o",
        dest="output",
        type=Path,
        metavar="FILE",
        help="write the report there (default: standard output)",
    )
    parser.add_argument(
        "--fail-on",
        choices=LEVELS,
        default="warning",
        help="the lowest level that fails the check (default: warning)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="report only findings whose fingerprint is not in FILE",
    )
    parser.add_argument(
        "--write-baseline",
        type=Path,
        metavar="FILE",
        help="write every finding's fingerprint to FILE (the check passes unless a unit fails)",
    )
    parser.add_argument(
        "--source-root",
        type=Path,
        default=None,
        metavar="DIR",
        help="paths in reports are relative to it (default: the working folder)",
    )
    parser.add_argument("--jobs", type=int, default=None, metavar="N", help="parallel processes")
    parser.add_argument(
        "--no-cache",
        dest="cache",
        action="store_false",
        help="analyse every unit, neither reading nor writing the result cache",
    )
    parser.add_argument(
        "--idioms",
        action="append",
        default=[],
        metavar="DIR",
        help="an idiom library folder (default: the one shipped with idiom)",
    )
    add_frontend_options(
        parser, "compilation of PATHs (with -p, each unit has its own)", undefines=True
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        return _check(args)
    except IdiomError as error:  # exit 1 means findings here: errors are 2
        print(f"idiom: {error}", file=sys.stderr)
        return EXIT_ERROR


def _check(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise IdiomError("--jobs takes a positive number")
    source_root = (args.source_root or Path.cwd()).resolve()
    baseline = read_baseline(args.baseline) if args.baseline else None
    units = _units(args)
    idiom_dirs = tuple(str(d) for d in args.idioms)
    cache = ResultCache.for_run(args.cache, idiom_dirs)
    checked = check_units(units, idiom_dirs, jobs=args.jobs, cache=cache)
    results = list(checked.results)
    findings = findings_of(results, read_source_lines)
    if args.write_baseline:
        write_baseline(args.write_baseline, findings, source_root)
    shown = new_findings(findings, baseline) if baseline is not None else findings
    _emit(args, shown, results, source_root)
    for result in results:
        for problem in (result.error, *result.warnings):
            if problem:
                kind = "error" if problem == result.error else "warning"
                print(f"idiom: {kind}: {problem}", file=sys.stderr)
    note = summary(shown, results, len(findings) - len(shown))
    print(f"{note}; cache: {checked.hits} hit(s), {checked.misses} analysed", file=sys.stderr)
    return _exit_code(args, shown, results)


def _units(args: argparse.Namespace) -> list[Unit]:
    if args.build_dir is not None:
        units = load_compile_db(args.build_dir, args.paths)
    elif args.paths:
        missing = [str(p) for p in args.paths if not p.exists()]
        if missing:
            raise IdiomError(f"{', '.join(missing)}: no such file or folder")
        units = units_from_paths(args.paths, _flags(args))
    else:
        raise IdiomError("nothing to check: give files or folders, or -p BUILD_DIR")
    if not units:
        raise IdiomError("no C/C++ source found to check")
    return units


def _flags(args: argparse.Namespace) -> list[str]:
    flags = [f"-I{os.path.abspath(d)}" for d in args.include_dirs]
    flags += [f"-D{d}" for d in args.defines] + [f"-U{u}" for u in args.undefines]
    if args.std:
        flags.append(f"-std={args.std}")
    return flags + list(args.extra_flags)


def _emit(
    args: argparse.Namespace, findings: list[Finding], results: list[UnitResult], root: Path
) -> None:
    if args.format == "sarif":
        text = json.dumps(sarif_log(findings, results, root, _version()), indent=2) + "\n"
    elif args.format == "json":
        text = json_text(json_report(findings, results, root))
    else:
        text = text_report(findings, root)
    if args.output is None:
        sys.stdout.write(text)
        return
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=args.output.parent, prefix=".idiom-", delete=False
        ) as stream:
            stream.write(text)
        os.replace(stream.name, args.output)
    except OSError as error:
        raise IdiomError(f"{args.output}: cannot write the report: {error}") from error


def _exit_code(args: argparse.Namespace, findings: list[Finding], results: list[UnitResult]) -> int:
    if any(result.error for result in results):
        return EXIT_ERROR
    if args.write_baseline:
        return EXIT_OK
    failing = any(at_or_above(f.level, args.fail_on) for f in findings)
    return EXIT_FINDINGS if failing else EXIT_OK


def _version() -> str:
    try:
        return metadata.version("idiom")
    except metadata.PackageNotFoundError:
        return "0.0.0"
