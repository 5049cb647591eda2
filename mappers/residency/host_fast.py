"""Host-access calls with their common case inline: nothing on a device, nothing to do.

A host access in a loop that launches (nm_spmv_transpose.c reads `x[i]`, `rp[i]` and
`rp[i+1]` in the row loop around a replaced histogram) runs once per iteration: 90
million calls that each find no device copy cost that program a fifth of its time. The
fast form reads the runtime's count of device copies (`idiom_device_entries`) and calls
only when it is not zero. Inlined, that test is a branch and a join, and a join just
above a loop hides the test guarding the loop's entry from LLVM's scalar evolution (see
mappers/rewrite/outline.py): blocks on the single-predecessor path from a loop's preheader up to
that test keep the plain call.

The fast forms' calls go through wrappers in LLVM's `preserve_allcc` (see
mappers/rewrite/outline.py), so the code around them keeps its registers: a host access in a
loop nest costs the nest no spilled values, and in a guard that declines it, no saving of
every register on every call.
"""

from __future__ import annotations

import re

from mappers.rewrite.irtext import ModuleText
from mappers.rewrite.outline import CONVENTION
from matcher.ir import Block, Function

__all__ = [
    "DEVICE_ENTRIES",
    "FAST_ACCESS",
    "FAST_ACCESS_AT",
    "declare_device_entries",
    "declare_fast_forms",
    "entry_test_path",
    "saved_form",
]

FAST_ACCESS = "idiom.fast.host_access"
FAST_ACCESS_AT = "idiom.fast.host_access_at"
DEVICE_ENTRIES = "idiom_device_entries"
_REWRITER_CHOICE = re.compile(r"%idiom\d+\.ran\d*")


def entry_test_path(function: Function) -> set[Block]:
    """The blocks between each loop and the test guarding its entry: the first conditional
    branch up the single-predecessor path from its preheader (the rewriter's own
    `ran` branch does not count; it tests whether a launch ran)."""
    path: set[Block] = set()
    for loop in function.loops.loops:
        block = loop.preheader
        while block is not None and block not in path:
            branch = block.terminator
            tested = branch.operands[0].name if branch.opcode == "br" and branch.operands else None
            if tested is not None and not _REWRITER_CHOICE.fullmatch(tested):
                break
            path.add(block)
            block = block.predecessors[0] if len(block.predecessors) == 1 else None
    return path


def declare_device_entries(module: ModuleText) -> None:
    """The runtime's count of device copies, read with `load atomic ... unordered`: only
    the thread that launches changes it, and an unordered load, unlike a monotonic one,
    may be merged with the next (three host accesses in a row test it once)."""
    module.declare(DEVICE_ENTRIES, f"@{DEVICE_ENTRIES} = external global i32")


def declare_fast_forms(module: ModuleText) -> None:
    """The two fast forms (always inlined) and the two wrappers they call, defined once
    per module. A wrapper tests the count itself, so a plain call of it (on a loop's entry
    path, where an inline test would add a join) costs a few instructions too."""
    declare_device_entries(module)
    for name, callee, parameters, arguments in (
        (FAST_ACCESS, "idiom_host_access", "", ""),
        (FAST_ACCESS_AT, "idiom_host_access_at", "ptr %p, i64 %n", "ptr %p, i64 %n"),
    ):
        saved = saved_form(name)
        module.add_definition(
            _tested(
                f"{CONVENTION} void @{saved}({parameters}) noinline", f"void @{callee}", arguments
            )
        )
        module.add_definition(
            _tested(
                f'void @"{name}"({parameters}) alwaysinline',
                f"{CONVENTION} void @{saved}",
                arguments,
            )
        )


def saved_form(fast_form: str) -> str:
    """The `preserve_allcc` wrapper of a fast form, as an operand name (`@` excluded)."""
    return f'"{fast_form}.saved"'


def _tested(signature: str, callee: str, arguments: str) -> list[str]:
    """A function that calls `callee` only when some copy is on a device."""
    return [
        f"define internal {signature} {{",
        f"  %count = load atomic i32, ptr @{DEVICE_ENTRIES} unordered, align 4",
        "  %none = icmp eq i32 %count, 0",
        "  br i1 %none, label %done, label %call",
        "call:",
        f"  call {callee}({arguments})",
        "  br label %done",
        "done:",
        "  ret void",
        "}",
    ]
