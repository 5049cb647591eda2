"""Device copies stay few when a program launches once per row (NAS MG's pattern): the
runtime evicts all but its newest copies past a bound, so that a launch never walks
thousands of them (that made NAS MG class W take more than an hour with every launch
forced). Outputs equal the original's; the number of copies held after each launch is the
`device_entries` field of the runtime's IDIOM_STATS lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "row_launches.c"
FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}
BOUND = 512  # ENTRIES_MAX in mappers/runtime/idiom_resident.c


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    built = build_pair(PROGRAM, tmp_path_factory.mktemp("rows"))
    replaced = [o for u in built[2].units for o in u.outcomes if o.replaced]
    assert [o.instance.idiom for o in replaced] == ["Stencil"]
    return built


def test_row_launches_hold_a_bounded_number_of_copies(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    stats = tmp_path / "stats.jsonl"
    same_outputs(pair, ["1500", "130"], {**FORCED, "IDIOM_STATS": str(stats)})
    rows = [json.loads(line) for line in stats.read_text().splitlines()]
    launches = [row for row in rows if row["entry"] == "cl_run" and row["status"] == 0]
    assert len(launches) == 3000, "every row's call ran as a kernel"
    held = [row["device_entries"] for row in launches]
    assert max(held) > 256, "the rows' copies did pile up to the bound"
    assert max(held) <= BOUND + 4, f"at most the bound and one launch's copies: {max(held)}"


@pytest.mark.parametrize("shape", [["0", "130"], ["1", "3"], ["7", "5"], ["600", "131"]])
def test_outputs_equal_at_every_size(
    pair: tuple[Path, Path, Accelerated], shape: list[str]
) -> None:
    same_outputs(pair, shape, FORCED)
