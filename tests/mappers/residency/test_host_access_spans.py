"""Loads and stores that each bring back only their own bytes (`idiom_host_access_at`),
grouped: in a block that no launch interrupts, those at constant offsets from one pointer
share one call before the first of them (mappers/residency/placement.py). NAS BT's 5x5
block products made 65 calls each otherwise, and every call looks the device copies up
once any exist: 29 s of BT class B under `auto` on a GPU."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.mappers.differential import build_pair, placed_ir, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "block_products.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}


@pytest.fixture(scope="module")
def placed() -> str:
    return placed_ir(PROGRAM)


def _body(text: str, name: str) -> str:
    match = re.search(rf"^define [^\n]*@{re.escape(name)}\(.*?^}}", text, re.S | re.M)
    assert match is not None, name
    return match.group(0)


def test_a_block_product_entered_with_device_copies_asks_once_per_pointer(placed: str) -> None:
    body = _body(placed, "block_sub")
    calls = re.findall(r"host_access_at(?:\.saved\")?\(ptr %(\w+), i64 (\d+)\)", body)
    # a and b are read at offsets 0..64, c read and written at 0..64: 72 bytes each.
    assert sorted(calls) == [("a", "72"), ("b", "72"), ("c", "72")]
    assert "idiom.fast.host_access()" not in body


def test_a_launch_inside_a_block_splits_its_spans(placed: str) -> None:
    body = _body(placed, "step_between")
    before, _, after = body.partition("@smooth(")
    assert after, body
    # b[0] and c[0] before the sweep; b[1], b[2] and c[1] after it, where the sweep's
    # results must come back first: nothing read after the launch joins a call before it.
    assert len(re.findall(r"host_access_at", before)) == 2
    # Each from the first byte it reads: c + 8 (8 bytes), b + 8 (16 bytes).
    sizes = re.findall(r"host_access_at(?:\.saved\")?\(ptr %[\w.]+, i64 (\d+)\)", after)
    assert sizes == ["8", "16"]


def test_outputs_with_launches_forced(tmp_path: Path) -> None:
    pair = build_pair(PROGRAM, tmp_path)
    assert pair[2].replaced >= 2
    stats = tmp_path / "stats.jsonl"
    # Without the safety net (page protection), which would otherwise bring back bytes a
    # misplaced host access left on the device: the placement alone must be right.
    for args in (["2000", "5"], ["10", "3"], ["0", "1"], ["37", "2"]):
        for net in ("0", "1"):
            env = {**ON_POCL, "IDIOM_STATS": str(stats), "IDIOM_SAFETY_NET": net}
            same_outputs(pair, args, env)
    rows = [json.loads(line) for line in stats.read_text().splitlines()]
    assert sum(1 for row in rows if row.get("kernel") == "idiom_stencil") >= 20
    # the block products brought the sweeps' results back before reading them
    assert any(row.get("entry") == "host_access" for row in rows)
