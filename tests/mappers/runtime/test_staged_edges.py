"""An input's bytes on its partial pages (idiom_resident.c's edges, which no page
protection watches) go to the device again before a launch that reads them; they are sent
from a copy of the runtime's own (`idiom__stage`), so that the launch still returns before
its kernel runs. corpus/stencil_3d7_heat.c sweeps two cubes from malloc, swapped every
step: each sweep reads the cube the last one wrote."""

from __future__ import annotations

import collections
import json
from pathlib import Path

from tests.mappers.differential import build_pair, same_outputs

CORPUS = Path(__file__).resolve().parents[3] / "corpus"


def test_sweeps_reading_uploaded_edges_return_before_their_kernels(tmp_path: Path) -> None:
    pair = build_pair(CORPUS / "stencil_3d7_heat.c", tmp_path)
    stats = tmp_path / "stats.jsonl"
    env = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_STATS": str(stats)}
    same_outputs(pair, ["40", "40"], env)
    launches = [json.loads(line) for line in stats.read_text().splitlines()]
    sweeps = [r for r in launches if r["entry"] == "cl_run" and r["kernel"] == "idiom_stencil"]
    assert len(sweeps) == 40
    # The edges go up with later sweeps too, yet those sweeps do not wait.
    assert sum(1 for r in sweeps[2:] if 0 < r["upload_bytes"] < 8192) >= 19
    waits = collections.Counter(bool(r.get("asynchronous")) for r in sweeps)
    assert waits[True] >= 38, waits
