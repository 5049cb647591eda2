"""Programs the generator found wrong before the residency fixes, kept as they were generated
(so that a later change of the generator cannot drop them). Each folder holds the files and a
README with the seed, shape, features, arguments and the difference seen then: all ten were
residency faults (functions entered with device copies taken to be entered without; one of
them crashed), found in the first 300 seeds. seed-500101 is an in-place triangular product
whose sum a GEMV replaced while dropping the scaling stored after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.differential import check
from fuzz.generator import Program

FOLDER = Path(__file__).parent / "regressions"
CASES = sorted(p for p in FOLDER.iterdir() if p.is_dir())


def _program(folder: Path) -> Program:
    notes = dict(
        line.split(" ", 1) for line in (folder / "README").read_text().splitlines() if " " in line
    )
    files = {p.name: p.read_text() for p in sorted(folder.iterdir()) if p.name != "README"}
    return Program(
        seed=int(folder.name.removeprefix("seed-")),
        shape=notes["seed"].split()[2] if "shape" in notes["seed"] else "",
        features=tuple(notes.get("features:", "").split()),
        files=files,
        args=tuple(notes["args:"].split()),
    )


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_a_program_found_wrong_before_prints_what_the_original_prints(
    folder: Path, tmp_path: Path
) -> None:
    outcome = check(_program(folder), tmp_path)
    assert outcome.status == "same", f"{folder.name}: {outcome.status}: {outcome.detail}"
