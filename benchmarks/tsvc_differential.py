"""TSVC, the Test Suite for Vectorizing Compilers (UoB-HPC/TSVC_2), original against
accelerated: 151 small loops full of tricky dependencies (recurrences, reversed loops,
aliasing through pointers, conditional updates, early exits, index searches, packing),
every replacement forced.

TSVC is never part of the repository or of a test: fetch it next to the project (for
instance `UoB-HPC/TSVC_2`) and point this script at its folder (the one holding `src/`):

    .venv/bin/python benchmarks/tsvc_differential.py --tsvc PATH/TSVC_2 [--only s000 ...]
        [--repetitions 10] [--len-1d 32000] [--len-2d 256] [--tolerance 1e-6]
        [--mode forced-cpu|forced-gpu|...] [--json FILE] [--keep DIR [--build-only]]
        [--from DIR]

`--keep DIR --build-only` builds the binaries into DIR, and `--from DIR` runs them (on
another machine, without the compiler).

Its sources are copied into a private folder and each loop's repetitions (`nl`) capped at
`--repetitions` (at least 1), so that every replacement can be forced onto the CPU's
OpenCL device (`forced-cpu`: every threshold at 1) in a few minutes. The arrays keep
TSVC's lengths by default (`LEN_1D` 32000, `LEN_2D` 256): the tool leaves a map over a
constant number of fewer than 4096 points alone, so shorter arrays would change what is
replaced (`LEN_2D**2` must exceed `LEN_1D` by 63: s424 writes that far into
`flat_2d_array`). TSVC's `common.c` (initialisation, checksums) and `dummy.c` (the call
that keeps every result alive) are built with `clang-22 -O2`, each its own translation
unit, into a static library every build links; only `tsvc.c`, the loops, is built three
ways (`clang-22 -O2`; `idiom accelerate`; `idiom accelerate --no-reassociate`).

Two additions to the copy, to see more than TSVC's one float sum a loop: the checksum is
printed with 9 significant digits (TSVC's `%f` drops those of small sums), and after each
loop a unit of the library appends every global array (`a` to `e`, `x`, `aa`, `bb`, `cc`,
`tt`, `flat_2d_array`, `indx`) to a file, reading them on the host as code the tool never
saw would. Each loop is compared on its checksum line (`measure.compare.first_difference`)
and on its arrays, element by element: the exact build to the bit, the reassociating one
within a relative `--tolerance` (floating-point sums added in another order; `TOLERANCES`
allows more, with its reason, for four sums of 32000 floats whose original order drifts
further from the exact sum than the reordered one). TSVC leaves the arrays a loop does
not initialise as the loops before left them: arrays that differed after the loop before
and that neither build's loop changed are left out of a loop's comparison (`inherited`).

The calls into the runtime (`IDIOM_STATS`) are counted per loop, by their time against
that of each loop's record: those that ran and those the runtime declined. Each loop's
instances found and replaced are listed from `accelerate --report`; a replaced loop that
made no call kept its original code by a guard compiled into it (overlapping arrays, for
instance). Exit status 1 when any loop disagrees or a run fails.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.public_differential import add_kept_build_arguments
from benchmarks.real_differential import MODES
from measure.compare import first_difference

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
BUILDS = ("accelerated", "exact")  # compared with "original"
REPLACED = re.compile(r"(\d+) idiom instance\(s\) found, (\d+) replaced")
NESTS = re.compile(r"for \(int nl = 0; nl < (.+?); nl\+\+\)")
TABLE_LINE = re.compile(r"^\s*(\w+)\t\s*-?[0-9.]+\t(.*)$")
PRINT_LINE = 'printf("%10.3f\\t%f\\n", taken, result);'
HELPERS = {"test": "s31111", "s151s": "s151", "s152s": "s152"}  # a loop's own functions
# The reassociating build's tolerance where 1e-6 is not enough, and why. Each is a float
# sum or product of 32000 terms that the original adds in sequence, moving away from the
# exact result (a double-precision sum of the same floats) by more than the reordered
# version does: s312 (1.000001**32000) by 4.6e-4, the reordered 7e-6; s313 and vdotr
# (the sum of 1/i**2) by 1.08e-4, the reordered 1.5e-7; s3112 (its running sums) by up
# to 1.08e-4, the reordered 3e-7.
DRIFT = "a sum of 32000 floats: the original's own error is larger than the difference"
TOLERANCES: dict[str, tuple[float, str]] = {
    "s312": (1e-3, DRIFT),
    "s313": (2e-4, DRIFT),
    "vdotr": (2e-4, DRIFT),
    "s3112": (2e-4, DRIFT),
}
# The arrays of each loop's record, in order (Sizes.layout).
ARRAYS_1D = ("a", "b", "c", "d", "e", "x")
ARRAYS_2D = ("aa", "bb", "cc", "tt")

DUMP_UNIT = """/* After each TSVC loop (tsvc_differential.py): the loop's result, the seconds since
   the program's start (as the idiom runtime's IDIOM_STATS "at" counts them: the launches of a
   loop come before its record) and every global array, appended to $TSVC_DUMP. Built into
   the unaccelerated library. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "common.h"
#include "array_defs.h"

static double started;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

__attribute__((constructor)) static void note_start(void) { started = now(); }

void tsvc_dump(double result) {
    fflush(stdout);
    const char *path = getenv("TSVC_DUMP");
    if (path == NULL || *path == 0) return;
    FILE *f = fopen(path, "ab");
    if (f == NULL) return;
    double at = now() - started;
    fwrite(&result, sizeof result, 1, f);
    fwrite(&at, sizeof at, 1, f);
    real_t *ones[] = {a, b, c, d, e, x};
    for (int i = 0; i < 6; i++) fwrite(ones[i], sizeof(real_t), LEN_1D, f);
    real_t (*twos[])[LEN_2D] = {aa, bb, cc, tt};
    for (int i = 0; i < 4; i++) fwrite(twos[i], sizeof(real_t), LEN_2D * LEN_2D, f);
    fwrite(flat_2d_array, sizeof(real_t), LEN_2D * LEN_2D, f);
    fwrite(indx, sizeof(int), LEN_1D, f);
    fclose(f);
}
"""


@dataclass(frozen=True)
class Sizes:
    len_1d: int
    len_2d: int
    repetitions: int

    def layout(self) -> list[tuple[str, str, int]]:
        """A record's arrays after its two doubles: (name, numpy type, count)."""
        fields = [(name, "<f4", self.len_1d) for name in ARRAYS_1D]
        fields += [(name, "<f4", self.len_2d**2) for name in (*ARRAYS_2D, "flat_2d_array")]
        return [*fields, ("indx", "<i4", self.len_1d)]

    def record_bytes(self) -> int:
        return 16 + sum(np.dtype(kind).itemsize * count for _, kind, count in self.layout())


@dataclass
class Row:
    loop: str
    build: str
    agrees: bool
    checksum: str | None  # the first difference of its checksum line, or None
    arrays: str | None  # the first array element that differs, or None
    tolerance: float
    inherited: list[str] = field(default_factory=list)  # arrays that differed before it
    instances: list[str] = field(default_factory=list)  # "lines idiom: yes/no, by / why not"
    launches: dict[str, int] = field(default_factory=dict)  # entry or kernel -> ran
    declined: dict[str, int] = field(default_factory=dict)  # entry or kernel -> not done


@dataclass
class Run:
    exit_status: int
    table: dict[str, str]  # loop -> its checksum line (without its time)
    order: list[str]
    calls: list[tuple[float, str, int]]  # IDIOM_STATS: (at, kernel or entry, status)
    stderr: str


def prepare(tsvc: Path, folder: Path, sizes: Sizes) -> Path:
    """A copy of TSVC's sources in `folder/src`: repetitions capped, array lengths set, the
    checksum printed in full and followed by a record (`tsvc_dump.c`)."""
    if sizes.len_2d**2 < sizes.len_1d + 63 or sizes.len_1d % 40:
        raise SystemExit("need LEN_2D**2 >= LEN_1D + 63 and LEN_1D a multiple of 40")
    source = folder / "src"
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(tsvc / "src", source)
    header = (source / "common.h").read_text()
    for name, value in (("LEN_1D", sizes.len_1d), ("LEN_2D", sizes.len_2d)):
        header, count = re.subn(rf"#define {name} \d+", f"#define {name} {value}", header)
        if count != 1:
            raise SystemExit(f"common.h: no `#define {name}` to set")
    reps = (
        f"#define TSVC_REPS(n) ((n) < 1 ? 1 : (n) > {sizes.repetitions} ? "
        f"{sizes.repetitions} : (n))\nvoid tsvc_dump(double result);\n"
    )
    header = header.replace("#include <sys/time.h>", f"#include <sys/time.h>\n{reps}", 1)
    (source / "common.h").write_text(header)
    loops = (source / "tsvc.c").read_text()
    loops, nests = NESTS.subn(r"for (int nl = 0; nl < TSVC_REPS(\1); nl++)", loops)
    if PRINT_LINE not in loops or nests < 100:
        raise SystemExit("tsvc.c: not the expected TSVC_2 source (its timing loops, its table)")
    loops = loops.replace(
        PRINT_LINE, 'printf("%10.3f\\t%.9g\\n", taken, result);\n    tsvc_dump(result);'
    )
    (source / "tsvc.c").write_text(loops)
    (source / "tsvc_dump.c").write_text(DUMP_UNIT)
    return source


def build(source: Path, folder: Path) -> dict[str, list[str]]:
    """The library and the three binaries in `folder`; for each accelerated build, its
    count ("N of M replaced") and its report's rows (function, lines, idiom, replaced, why)."""
    flags = ["-O2", "-w", f"-I{source}"]
    objects = []
    for unit in ("common", "dummy", "tsvc_dump"):
        obj = folder / f"{unit}.o"
        subprocess.run(["clang-22", *flags, "-c", str(source / f"{unit}.c"), "-o", str(obj)],
                       check=True)  # fmt: skip
        objects.append(str(obj))
    library = folder / "libtsvc_common.a"
    library.unlink(missing_ok=True)
    subprocess.run(["ar", "rcs", str(library), *objects], check=True)
    loops = str(source / "tsvc.c")
    subprocess.run(["clang-22", *flags, loops, str(library), "-o", str(folder / "tsvc.original"),
                    "-lm"], check=True)  # fmt: skip
    idiom = [sys.executable, "-m", "cli.main", "accelerate", "--report"]
    idiom += [f"-X={f}" for f in flags]
    # `-l tsvc_common` is found through LIBRARY_PATH (clang passes it to the linker as -L).
    environment = {**os.environ, "LIBRARY_PATH": str(folder), "COLUMNS": "1000"}
    reports: dict[str, list[str]] = {}
    for name, extra in (("accelerated", []), ("exact", ["--no-reassociate"])):
        binary = folder / f"tsvc.{name}"
        done = subprocess.run([*idiom, *extra, "-l", "tsvc_common", "-o", str(binary), loops],
                              cwd=ROOT, env=environment, capture_output=True, text=True,
                              check=False)  # fmt: skip
        (folder / f"accelerate.{name}.log").write_text(done.stdout + done.stderr)
        if done.returncode != 0:
            raise SystemExit(f"accelerate ({name}) failed:\n{done.stdout}\n{done.stderr}")
        counts = REPLACED.search(" ".join(done.stdout.split()))
        rows = [_report_row(line) for line in done.stdout.splitlines()]
        reports[name] = [f"{counts[2]} of {counts[1]} replaced" if counts else "?"]
        reports[name] += [row for row in rows if row]
    return reports


def _report_row(line: str) -> str:
    """A row of `--report`'s table as "function|lines|idiom|yes/no|detail", else ""."""
    cells = [cell.strip() for cell in re.split(r"[│┃|]", line)]
    cells = [cell for cell in cells if cell != ""] if len(cells) > 2 else []
    if len(cells) == 6 and cells[0].endswith(".c") and cells[4] in ("yes", "no"):
        return "|".join(cells[1:])
    return ""


def run(binary: Path, env: dict[str, str], folder: Path) -> Run:
    """The binary's table and calls; its records go to `tsvc.<build>.dump`."""
    dump = folder / f"{binary.name}.dump"
    stats = folder / f"{binary.name}.stats"
    dump.unlink(missing_ok=True)
    stats.unlink(missing_ok=True)
    environment = {**os.environ, **env, "IDIOM_STATS": str(stats), "TSVC_DUMP": str(dump)}
    done = subprocess.run([str(binary)], env=environment, cwd=folder, capture_output=True,
                          text=True, check=False)  # fmt: skip
    table: dict[str, str] = {}
    order: list[str] = []
    for line in done.stdout.splitlines():
        match = TABLE_LINE.match(line)
        if match:
            table[match[1]] = f"{match[1]} {match[2]}"
            order.append(match[1])
    calls = []
    if stats.exists():
        for line in stats.read_text().splitlines():
            record = json.loads(line)
            if record.get("entry") != "host_access":  # a copy back, not a call
                what = str(record.get("kernel") or record.get("entry"))
                calls.append((float(record.get("at", 0.0)), what, int(record.get("status", -1))))
    return Run(done.returncode, table, order, calls, done.stderr)


def records(path: Path, sizes: Sizes) -> list[np.ndarray]:
    """The dump's records, mapped (not read) from the file."""
    if not path.exists() or path.stat().st_size < sizes.record_bytes():
        return []
    mapped = np.memmap(path, np.uint8, "r")
    size = sizes.record_bytes()
    return [mapped[at : at + size] for at in range(0, len(mapped) - size + 1, size)]


def arrays_of(record: np.ndarray, sizes: Sizes) -> dict[str, np.ndarray]:
    at, arrays = 16, {}
    for name, kind, count in sizes.layout():
        width = np.dtype(kind).itemsize * count
        arrays[name] = record[at : at + width].view(kind)
        at += width
    return arrays


def differing(left: np.ndarray, right: np.ndarray, tolerance: float) -> np.ndarray:
    """The indices where two arrays differ: to the bit without a tolerance (integers,
    NaNs and -0 included), else beyond `tolerance` relative (NaN equal to NaN)."""
    if left.dtype.kind == "i" or tolerance == 0:
        return np.flatnonzero(left.view("<i4") != right.view("<i4"))
    with np.errstate(invalid="ignore", over="ignore"):
        scale = np.maximum(np.abs(left), np.abs(right)).astype(np.float64)
        close = np.abs(left.astype(np.float64) - right) <= tolerance * scale
    return np.flatnonzero(~(close | (left == right) | (np.isnan(left) & np.isnan(right))))


def array_difference(
    expected: dict[str, np.ndarray],
    actual: dict[str, np.ndarray],
    before: tuple[dict[str, np.ndarray], dict[str, np.ndarray]] | None,
    sizes: Sizes,
    tolerance: float,
) -> tuple[str | None, list[str]]:
    """The first array element that differs (with the count of differing elements and the
    largest relative difference), or None; and the arrays left out as inherited: they
    differed after the loop before, and neither build's loop changed them."""
    inherited = []
    for name, left in expected.items():
        right = actual[name]
        wrong = differing(left, right, tolerance)
        if len(wrong) == 0:
            continue
        if before is not None:
            old_left, old_right = before[0][name], before[1][name]
            if (
                len(differing(old_left, old_right, tolerance))
                and not len(differing(old_left, left, 0.0))
                and not len(differing(old_right, right, 0.0))
            ):
                inherited.append(name)
                continue
        first = int(wrong[0])
        if name in ARRAYS_2D:
            where = f"[{first // sizes.len_2d}][{first % sizes.len_2d}]"
        else:
            where = f"[{first}]"
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            gaps = np.abs(left[wrong].astype(np.float64) - right[wrong])
            relative = gaps / np.maximum(np.abs(left[wrong]), np.abs(right[wrong]))
        largest = float(np.nanmax(relative)) if not np.isnan(relative).all() else math.nan
        return (
            f"{name}{where}: expected {left[first].item()!r}, got {right[first].item()!r} "
            f"({len(wrong)} of {len(left)} elements differ, largest relative {largest:.3g})",
            inherited,
        )
    return None, inherited


def instances_by_loop(report: list[str]) -> dict[str, list[str]]:
    """`--report`'s rows by function (the loop's name, or a helper such as s31111's
    `test`): "lines idiom: yes/no, by / why not"."""
    found: dict[str, list[str]] = {}
    for row in report[1:]:
        function, lines, idiom, replaced, detail = row.split("|", 4)
        found.setdefault(HELPERS.get(function, function), []).append(
            f"{lines} {idiom}: {replaced}, {detail}"
        )
    return found


def calls_by_loop(
    calls: list[tuple[float, str, int]], ends: list[float]
) -> list[list[tuple[str, int]]]:
    """Each loop's calls, by the time of its record: a call before a loop's record and
    after the record of the loop before is that loop's."""
    loops: list[list[tuple[str, int]]] = [[] for _ in range(len(ends) + 1)]
    for at, what, status in calls:
        loops[bisect.bisect_left(ends, at)].append((what, status))
    return loops


def evaluate(
    folder: Path, mode: str, sizes: Sizes, built: dict[str, list[str]], tolerance: float
) -> tuple[list[Row], dict[str, Run]]:
    """Every loop of each accelerated build against the original's."""
    runs = {"original": run(folder / "tsvc.original", {}, folder)}
    for name in BUILDS:
        runs[name] = run(folder / f"tsvc.{name}", MODES[mode], folder)
    expected = runs["original"]
    dumps = {name: records(folder / f"tsvc.{name}.dump", sizes) for name in runs}
    rows: list[Row] = []
    for name in BUILDS:
        found = instances_by_loop(built[name])
        produced = runs[name]
        ends = [float(r[8:16].view("<f8")[0]) for r in dumps[name]]
        by_loop = calls_by_loop(produced.calls, ends)
        before = None
        for number, loop in enumerate(expected.order):
            allowed = 0.0 if name == "exact" else TOLERANCES.get(loop, (tolerance, ""))[0]
            checksum = (
                first_difference(expected.table[loop], produced.table[loop], tolerance=allowed)
                if loop in produced.table
                else "no line: the run stopped before this loop"
            )
            arrays: str | None = "no record: the run stopped before this loop"
            inherited: list[str] = []
            if number < min(len(dumps["original"]), len(dumps[name])):
                now = (arrays_of(dumps["original"][number], sizes),
                       arrays_of(dumps[name][number], sizes))  # fmt: skip
                arrays, inherited = array_difference(*now, before, sizes, allowed)
                before = now
            calls = by_loop[number] if number < len(by_loop) else []
            ran = Counter(what for what, status in calls if status == 0)
            declined = Counter(what for what, status in calls if status != 0)
            rows.append(Row(loop, name, checksum is None and arrays is None, checksum, arrays,
                            allowed, inherited, found.get(loop, []), dict(ran),
                            dict(declined)))  # fmt: skip
        if len(by_loop) > len(expected.order) and by_loop[-1]:
            print(f"{name}: {len(by_loop[-1])} calls after the last record", flush=True)
    return rows, runs


def print_summary(rows: list[Row], runs: dict[str, Run], built: dict[str, list[str]]) -> None:
    print(f"TSVC loops run: {len(runs['original'].order)} (original exit "
          f"{runs['original'].exit_status})")  # fmt: skip
    for name in BUILDS:
        mine = [r for r in rows if r.build == name]
        replaced = [r for r in mine if any(": yes," in i for i in r.instances)]
        launched = [r for r in mine if r.launches]
        ran = sum(sum(r.launches.values()) for r in mine)
        declined = sum(sum(r.declined.values()) for r in mine)
        print(
            f"{name:11} exit {runs[name].exit_status}; {built[name][0]}; loops: "
            f"{sum(bool(r.instances) for r in mine)} with an instance, {len(replaced)} replaced, "
            f"{len(launched)} launched; calls: {ran} ran, {declined} declined; "
            f"{sum(not r.agrees for r in mine)} loops disagree",
            flush=True,
        )
        for row in replaced:
            print(f"    {row.loop:7} ran {row.launches or '-'} declined {row.declined or '-'}")
        quiet = [r.loop for r in replaced if not r.launches and not r.declined]
        print(f"    replaced, never called (their guard kept the original): {' '.join(quiet)}")
        if runs[name].stderr.strip():
            print("    stderr: " + runs[name].stderr.strip()[-1500:].replace("\n", "\n    "))
    for row in rows:
        if not row.agrees:
            print(f"DIFFERS {row.loop:7} {row.build:11} (tolerance {row.tolerance:g})")
            for what, text in (("checksum", row.checksum), ("arrays", row.arrays)):
                if text:
                    print(f"    {what}: {text[:300]}")
            if row.inherited:
                print(f"    inherited (left out): {' '.join(row.inherited)}")
            for instance in row.instances:
                print(f"    instance {instance[:200]}")
            print(f"    ran {row.launches or '-'} declined {row.declined or '-'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tsvc", type=Path, help="TSVC_2's folder (holding src/)")
    parser.add_argument("--mode", default="forced-cpu", choices=list(MODES))
    parser.add_argument("--only", nargs="+", help="loop names to report (all are run)")
    parser.add_argument("--len-1d", type=int, default=32000, help="LEN_1D (TSVC: 32000)")
    parser.add_argument("--len-2d", type=int, default=256, help="LEN_2D (TSVC: 256)")
    parser.add_argument("--repetitions", type=int, default=10, help="each loop's cap")
    parser.add_argument("--tolerance", type=float, default=1e-6,
                        help="relative, for the reassociating build")  # fmt: skip
    add_kept_build_arguments(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="idiom-tsvc-") as scratch:
        if args.built is not None:
            folder = args.built.resolve()
            saved = json.loads((folder / "built.json").read_text())
            sizes, built = Sizes(**saved["sizes"]), saved["reports"]
        else:
            if args.tsvc is None:
                parser.error("--tsvc PATH (or --from DIR) is needed")
            folder = (args.keep or Path(scratch)).resolve()
            folder.mkdir(parents=True, exist_ok=True)
            sizes = Sizes(args.len_1d, args.len_2d, args.repetitions)
            built = build(prepare(args.tsvc.resolve(), folder, sizes), folder)
            (folder / "built.json").write_text(
                json.dumps({"sizes": asdict(sizes), "reports": built}, indent=1)
            )
        if args.build_only:
            return
        rows, runs = evaluate(folder, args.mode, sizes, built, args.tolerance)
        if args.only:
            rows = [r for r in rows if r.loop in args.only]
        print_summary(rows, runs, built)
        failed = any(r.exit_status != 0 for r in runs.values())
        for name in runs:  # the dumps are large
            (folder / f"tsvc.{name}.dump").unlink(missing_ok=True)
    if args.json:
        args.json.write_text(json.dumps({"sizes": asdict(sizes), "replaced": built,
                                         "rows": [asdict(r) for r in rows]}, indent=1))  # fmt: skip
    sys.exit(0 if all(r.agrees for r in rows) and not failed else 1)


if __name__ == "__main__":
    main()
