"""A launch keeps the host's and the device's agreement on an input's partial pages
(idiom_resident.c's edges, which no page protection watches) across launches that write
nowhere on them, and sends edges that do go up again from a copy of the runtime's own
(`idiom__stage`): either way it returns before its kernel runs.
corpus/stencil_3d7_heat.c sweeps two cubes from malloc, swapped every step: each sweep
reads the cube the last one wrote, whose written interior lies on whole pages."""

from __future__ import annotations

import collections
import json
from pathlib import Path

from tests.mappers.differential import build_pair, same_outputs

CORPUS = Path(__file__).resolve().parents[3] / "corpus"


def test_sweeps_reading_the_last_sweeps_output_return_before_their_kernels(
    tmp_path: Path,
) -> None:
    pair = build_pair(CORPUS / "stencil_3d7_heat.c", tmp_path)
    stats = tmp_path / "stats.jsonl"
    env = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_STATS": str(stats)}
    same_outputs(pair, ["40", "40"], env)
    launches = [json.loads(line) for line in stats.read_text().splitlines()]
    sweeps = [r for r in launches if r["entry"] == "cl_run" and r["kernel"] == "idiom_stencil"]
    assert len(sweeps) == 40
    # The first two take the cubes to the device; the partial pages do not go up again.
    assert [r["upload_bytes"] for r in sweeps[2:]] == [0] * 38
    waits = collections.Counter(bool(r.get("asynchronous")) for r in sweeps)
    assert waits[True] >= 38, waits
