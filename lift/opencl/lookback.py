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

On NVIDIA GPUs (where the runtime defines WARP_DEVICE when it builds: `build_options`)
the look-back is done by the first warp alone, with the warp instructions OpenCL 1.2 lacks
written in PTX (`WARP_HELPERS`): each round a ballot finds the nearest prefix and the
nearest word not yet written in the window of 32, and a butterfly of shuffles folds the
words before them, with no barrier of the work-group. A hand-written one-pass scan ran at
73-77% of an H200's copy bandwidth so against 49% with the window folded by item 0
between barriers (docs/results/scan_one_pass_warp_variants_parts_h200_2026-11-30.json).
"""

from __future__ import annotations

from dataclasses import dataclass

from lift.errors import LiftError

__all__ = [
    "AGGREGATE",
    "COMMUTATIVE",
    "PREFIX",
    "WARP_DEVICE",
    "WARP_HELPERS",
    "StatusWords",
    "build_options",
    "status_words",
]

AGGREGATE = 1
PREFIX = 2
# Defined in the build of a kernel for an NVIDIA GPU (warps of 32, inline PTX) by the
# runtime (idiom_opencl.c) and by `build_options`; their compiler defines nothing that says so.
WARP_DEVICE = "IDIOM_NVIDIA_WARPS"
# The folds a warp may combine in any order (a butterfly of shuffles).
COMMUTATIVE = frozenset({"+", "*", "max", "min", "&", "|", "^"})
WARP_HELPERS = f"""#if defined({WARP_DEVICE})
inline uint idiom_ballot(int p) {{
  uint r;
  asm volatile("{{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }}"
               : "=r"(r) : "r"(p));
  return r;
}}
inline int idiom_shfl_xor_int(int v, int m) {{
  int r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(m));
  return r;
}}
inline uint idiom_shfl_xor_uint(uint v, int m) {{
  return as_uint(idiom_shfl_xor_int(as_int(v), m));
}}
inline long idiom_shfl_xor_long(long v, int m) {{
  int2 h = as_int2(v);
  h.x = idiom_shfl_xor_int(h.x, m);
  h.y = idiom_shfl_xor_int(h.y, m);
  return as_long(h);
}}
inline ulong idiom_shfl_xor_ulong(ulong v, int m) {{
  return as_ulong(idiom_shfl_xor_long(as_long(v), m));
}}
inline int idiom_lowest(uint x) {{ return 31 - clz(x & (0u - x)); }}
#endif
"""


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


def build_options(vendor: str, is_gpu: bool) -> str:
    """The options a generated kernel is built with on a device of `vendor`: WARP_DEVICE
    defined on an NVIDIA GPU, as the runtime does."""
    return f"-D{WARP_DEVICE}=1" if is_gpu and "NVIDIA" in vendor else ""


def status_words(buffer: str, kind: str) -> StatusWords:
    """The status words of a scan of `kind` (a C integer type of 32 or 64 bits)."""
    words = {"int": 1, "uint": 1, "long": 2, "ulong": 2}.get(kind)
    if words is None:
        raise LiftError(f"scan-workgroups folds 32- or 64-bit integers, not {kind}")
    return StatusWords(buffer, kind, words)
