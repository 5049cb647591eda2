"""The C text of a one-pass scan's status words (decoupled look-back, Merrill and Garland).

Each block of a `scan-workgroups` publishes its total, then its inclusive prefix, in
status words of 64 bits that every work-group reads: a flag in the high half (0 nothing
yet, 1 the block's total, 2 its prefix: the fold of the scan's start and every value up
to the block's end) and 32 bits of the value in the low half. A 32-bit value fits one
word; a 64-bit value takes two, one a half, each written with its own flag, and a reader
takes the pair only where both flags agree (each half is written once for each flag, so
two halves of one flag hold one value). A word is written with one 64-bit atomic
exchange and read with an atomic add of 0, so a reader never sees a flag without its
value, whatever the device orders between separate stores, and sees the latest write by
the letter of OpenCL 1.2 (a volatile load is not promised to; on an H200 the atomic
reads cost a hand-written scan 1%,
docs/results/scan_one_pass_hand_variants_atomic_reads_h200_2026-11-30.json, and the
generated one 1%, lift_kernels_scan_atomic_reads_h200_2026-11-30.json). The kernel also
relies on a work-group that has taken a block running on to publish it, which OpenCL
does not promise but GPUs and PoCL do (as every decoupled look-back does). The words and
the counter handing out blocks in order sit in one scratch buffer the runtime zeroes
before the launch (IDIOM_ARG_SCRATCH).
"""

from __future__ import annotations

from dataclasses import dataclass

from lift.errors import LiftError

__all__ = ["AGGREGATE", "PREFIX", "StatusWords", "status_words"]

AGGREGATE = 1
PREFIX = 2


@dataclass(frozen=True)
class StatusWords:
    """How a value of the C type `kind` is kept in `words` status words of `buffer`."""

    buffer: str
    kind: str
    words: int

    def publish(self, block: str, flag: int, value: str) -> list[str]:
        """The statements publishing `value` for `block` under `flag`."""
        base = f"{self.buffer} + ({block}) * {self.words}"
        high = f"((ulong){flag} << 32)"
        if self.words == 1:
            return [f"atom_xchg({base}, {high} | (ulong)(uint)({value}));"]
        bits = f"{self.buffer}_bits"
        return [
            f"const ulong {bits} = (ulong)({value});",
            f"atom_xchg({base}, {high} | ({bits} & 0xffffffffUL));",
            f"atom_xchg({base} + 1, {high} | ({bits} >> 32));",
        ]

    def read(self, block: str, flag: str, value: str) -> list[str]:
        """The statements setting the variables `flag` (0 where not ready) and `value`
        from `block`'s words, read once each."""
        at = f"{self.buffer} + ({block}) * {self.words}"
        if self.words == 1:
            return [
                f"const ulong {flag}_w = atom_add({at}, 0UL);",
                f"{flag} = (uint)({flag}_w >> 32);",
                f"{value} = ({self.kind})(uint){flag}_w;",
            ]
        return [
            f"const ulong {flag}_lo = atom_add({at}, 0UL);",
            f"const ulong {flag}_hi = atom_add({at} + 1, 0UL);",
            f"{flag} = ({flag}_lo >> 32) == ({flag}_hi >> 32) ? (uint)({flag}_lo >> 32) : 0u;",
            f"{value} = ({self.kind})(({flag}_hi << 32) | ({flag}_lo & 0xffffffffUL));",
        ]

    def counter(self, blocks: str) -> str:
        """The word after every block's: the next block to take, counted by atom_inc."""
        return f"{self.buffer} + ({blocks}) * {self.words}"


def status_words(buffer: str, kind: str) -> StatusWords:
    """The status words of a scan of `kind` (a C integer type of 32 or 64 bits)."""
    words = {"int": 1, "uint": 1, "long": 2, "ulong": 2}.get(kind)
    if words is None:
        raise LiftError(f"scan-workgroups folds 32- or 64-bit integers, not {kind}")
    return StatusWords(buffer, kind, words)
