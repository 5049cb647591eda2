"""Which replacements by OpenCL kernels run kernels the Lift compiler generated, and which
still run kernels translated from the IR (docs/lift.md).

    .venv/bin/python benchmarks/generated_census.py [FILES...] [--json FILE]

For each C/C++ file (default: every program of `corpus/`), the unit is rewritten as
`idiom accelerate` rewrites it, and each match replaced by an OpenCL kernel is counted as
generated or translated; the translated ones are listed with their lines and the reason
the rewriter gives. Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from idl.errors import IdiomError  # noqa: E402
from mappers.accelerate import rewritten_unit  # noqa: E402
from matcher.frontend import CompileOptions  # noqa: E402


def census(path: Path) -> list[dict[str, object]]:
    """One row per match of `path` replaced by an OpenCL kernel."""
    _, _, report = rewritten_unit(path, CompileOptions(), (), reassociate=True)
    rows: list[dict[str, object]] = []
    for outcome in report.outcomes:
        if outcome.replaced and "OpenCL" in (outcome.detail or ""):
            instance = outcome.instance
            rows.append(
                {
                    "file": _shown(path),
                    "idiom": instance.idiom,
                    "function": instance.function,
                    "lines": [instance.first_line, instance.last_line],
                    "generated": outcome.generated is not None,
                    "detail": outcome.detail,
                }
            )
    return rows


def _shown(path: Path) -> str:
    """The path from the project's root where it is inside it, else as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, help="write every row here")
    args = parser.parse_args()
    files = args.files or sorted(
        p for p in (ROOT / "corpus").iterdir() if p.suffix in (".c", ".cpp")
    )
    rows: list[dict[str, object]] = []
    for path in files:
        try:
            rows += census(path)
        except IdiomError as error:
            print(f"{path}: {error}", file=sys.stderr)
    generated = sum(1 for row in rows if row["generated"])
    print(
        f"{len(files)} files, {len(rows)} matches replaced by OpenCL kernels, {generated} generated"
    )
    for row in rows:
        if not row["generated"]:
            first, last = row["lines"]  # type: ignore[misc]
            print(f"  translated: {row['file']}:{first}-{last} {row['idiom']} in {row['function']}")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
