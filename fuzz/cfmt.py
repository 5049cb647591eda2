"""Small pieces of C text every shape writes: printing a value, a checksum of an array."""

from __future__ import annotations

from fuzz.ctypes_c import CType

__all__ = ["print_value"]


def print_value(label: str, expression: str, is_float: bool) -> str:
    """A printf of one value: `%#.10g` for floating point, `%ld` for integers."""
    if is_float:
        return f'printf("{label} %#.10g\\n", (double)({expression}));'
    return f'printf("{label} %ld\\n", (long)({expression}));'


def print_typed(label: str, expression: str, ctype: CType) -> str:
    return print_value(label, expression, ctype.is_float)
