"""A unit's private globals that are only ever loaded and stored by name cannot be given to
a launch, so the host touches them while device copies exist without bringing anything back
(mappers/residency/host_effects.py). NAS BT's file-scope `tmp1` is the model: before, the
call that reported its address to the runtime made LLVM's GlobalsAA give up on it, and the
original code's loops reloaded it from memory at every store."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mappers.residency.host_effects import _host_only_accesses
from matcher.ir_builder import build_module
from tests.mappers.differential import build_pair, placed_ir, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "host_only_scalars.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}


@pytest.fixture(scope="module")
def placed() -> str:
    return placed_ir(PROGRAM)


def _targets(text: str) -> set[str]:
    """The globals whose bytes a host access brings back by address."""
    return set(re.findall(r"host_access_at(?:\.saved\")?\(ptr (@[\w.]+),", text))


def test_scalars_only_loaded_and_stored_by_name_get_no_host_access(placed: str) -> None:
    # The stores of weight and sweeps come between two launches: without the rule each
    # would be preceded by a host access of its address, as probe's are.
    assert "@probe" in _targets(placed)
    assert not {"@weight", "@sweeps"} & _targets(placed)


# Each global below is accessed by name in `f`; only `@plain` is mentioned nowhere else.
MENTIONS = """
@plain = internal global double 0.0
@stored = internal global double 0.0
@passed = internal global double 0.0
@offset = internal global [2 x double] zeroinitializer
@visible = global double 0.0
@slot = internal global ptr null

declare void @use(ptr)

define void @f() {
entry:
  store double 1.0, ptr @plain
  %a = load double, ptr @plain
  store double %a, ptr @stored
  store ptr @stored, ptr @slot
  store double %a, ptr @passed
  call void @use(ptr @passed)
  store double %a, ptr @offset
  store double %a, ptr getelementptr inbounds (i8, ptr @offset, i64 8)
  store double %a, ptr @visible
  ret void
}
"""


def test_only_a_private_global_mentioned_solely_as_an_address_is_host_only() -> None:
    module = build_module(MENTIONS, "mentions.ll")
    accesses = _host_only_accesses(module)
    addresses = {access.operands[0 if access.opcode == "load" else 1].name for access in accesses}
    # @slot is only stored to, by name; what it holds (@stored's address) makes @stored not.
    assert addresses == {"@plain", "@slot"}
    assert len(accesses) == 3


def test_outputs_with_launches_forced_between_host_writes(tmp_path: Path) -> None:
    pair = build_pair(PROGRAM, tmp_path)
    assert pair[2].replaced >= 2  # both sweeps of the time loop
    stats = tmp_path / "stats.jsonl"
    for args in (["1000", "7"], ["1000", "7", "0.5"], ["3", "2"], ["0", "1"]):
        for net in ("0", "1"):  # without the safety net too: the placement alone is right
            env = {**ON_POCL, "IDIOM_STATS": str(stats), "IDIOM_SAFETY_NET": net}
            same_outputs(pair, args, env)
    launches = [json.loads(line) for line in stats.read_text().splitlines()]
    assert sum(1 for row in launches if row.get("kernel") == "idiom_stencil") >= 14
