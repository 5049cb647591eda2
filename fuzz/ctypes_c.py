"""C scalar types as the generator writes them: names, literals, printf/scanf formats and
the deterministic, well-conditioned values arrays are filled with."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DOUBLE",
    "FLOAT",
    "FLOATS",
    "INT",
    "INTEGERS",
    "LONG",
    "SHORT",
    "UCHAR",
    "UNSIGNED",
    "CType",
]


@dataclass(frozen=True)
class CType:
    """A C arithmetic type. Floating-point values are kept dyadic (k/8) and small, so that
    sums reordered by the tool are exact; integers are kept small, so that no signed
    arithmetic can overflow."""

    name: str
    is_float: bool
    scan: str  # scanf conversion for one element
    show: str  # printf conversion that round-trips one element through text

    def literal(self, value: float) -> str:
        """`value` written as a constant of this type."""
        if self.name == "float":
            return f"{float(value)!r}f"
        if self.name == "double":
            return repr(float(value))
        suffix = {"long": "L", "unsigned": "u", "unsigned char": ""}.get(self.name, "")
        return f"{int(value)}{suffix}"

    def small_value(self, index: str, salt: int, modulus: int = 8) -> str:
        """A value in [0, 1) (k/8) for floats, [0, modulus) for integers, from `index`."""
        core = f"(((long)({index}) * {3 + 2 * (salt % 5)} + {salt % 7}) % {modulus})"
        if self.is_float:
            return f"({self.name})({core}) * {self.literal(1.0 / 8.0)}"
        return f"({self.name}){core}"

    @property
    def sum_type(self) -> str:
        """The type a checksum of this type's elements is accumulated in."""
        return "double" if self.is_float else "long"


FLOAT = CType("float", True, "%f", "%.9g")
DOUBLE = CType("double", True, "%lf", "%.17g")
INT = CType("int", False, "%d", "%d")
LONG = CType("long", False, "%ld", "%ld")
UNSIGNED = CType("unsigned", False, "%u", "%u")
UCHAR = CType("unsigned char", False, "%hhu", "%hhu")
SHORT = CType("short", False, "%hd", "%hd")

FLOATS = (FLOAT, DOUBLE)
INTEGERS = (INT, LONG, UNSIGNED)
