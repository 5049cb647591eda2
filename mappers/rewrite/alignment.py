"""Large arrays defined in a rewritten unit aligned to a cache line.

The library kernels a replaced loop calls (OpenBLAS's, the OpenCL ones) stream whole rows
with vector loads. A static array is laid out wherever the linker puts it, 16-byte aligned:
a row of a `static double A[1200][1000]` then starts inside a cache line, every vector load
straddles two, and the same BLAS call runs a third slower than on the same array in a
program whose layout happened to differ. Raising the alignment of an array defined in the
unit changes no value and no address computation (a definition may be aligned more than
its type needs; uses assume at most what it had); only arrays of at least `_LARGE` bytes
are touched, so small ones keep their packing.
"""

from __future__ import annotations

import re

__all__ = ["align_large_arrays", "array_bytes"]

_LINE = 64
_LARGE = 4096
_SCALARS = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "float": 4, "double": 8, "ptr": 8}
# A global variable defined here with an array type and an alignment:
# `@A = internal global [300 x [250 x double]] zeroinitializer, align 16`
_DEFINITION = re.compile(
    r"^(@[-\w.$\"]+ = (?:[a-z_]+ )*(?:global|constant) )(\[[^=]*?\]) (.*), align (\d+)$"
)
_ARRAY = re.compile(r"^\[(\d+) x (.*)\]$")


def align_large_arrays(text: str) -> str:
    """`text` (a module's IR) with its large array definitions aligned to 64 bytes."""
    return "\n".join(_aligned(line) for line in text.split("\n"))


def _aligned(line: str) -> str:
    if not line.startswith("@") or " external " in line:
        return line
    match = _DEFINITION.match(line)
    if match is None:
        return line
    head, array, rest, alignment = match.groups()
    size = array_bytes(array)
    if size is None or size < _LARGE or int(alignment) >= _LINE:
        return line
    return f"{head}{array} {rest}, align {_LINE}"


def array_bytes(type_text: str) -> int | None:
    """Bytes of an array type of scalars (nested arrays included); None for anything else."""
    match = _ARRAY.match(type_text)
    if match is None:
        return _SCALARS.get(type_text)
    inner = array_bytes(match.group(2))
    return None if inner is None else int(match.group(1)) * inner
