"""Types of the functional IR, and the symbolic sizes of arrays.

A size is a polynomial over size variables (`N`, `M`) with rational coefficients, kept
in a canonical form so that `N/4*4` and `N` compare equal: `split 4` of an array of `N`
gives `N/4` rows of 4, and `join` of that gives back `N`. Division is exact division:
an expression that splits `N` by 4 is valid only where 4 divides `N`, which the code
generator's caller checks at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from lift.errors import LiftError

__all__ = [
    "Array",
    "Scalar",
    "Size",
    "Tuple",
    "Type",
    "Vector",
    "element_of",
    "scalar",
]

_Monomial = tuple[str, ...]  # variable names, sorted, repeated for powers


@dataclass(frozen=True)
class Size:
    """A polynomial in size variables: terms map a monomial to its coefficient."""

    terms: tuple[tuple[_Monomial, Fraction], ...]

    @staticmethod
    def of(value: int | str | Size) -> Size:
        if isinstance(value, Size):
            return value
        if isinstance(value, int):
            return Size._make({(): Fraction(value)})
        return Size._make({(value,): Fraction(1)})

    @staticmethod
    def _make(terms: dict[_Monomial, Fraction]) -> Size:
        kept = tuple(sorted((m, c) for m, c in terms.items() if c != 0))
        return Size(kept)

    def __add__(self, other: int | str | Size) -> Size:
        terms = dict(self.terms)
        for monomial, coefficient in Size.of(other).terms:
            terms[monomial] = terms.get(monomial, Fraction(0)) + coefficient
        return Size._make(terms)

    def __sub__(self, other: int | str | Size) -> Size:
        return self + Size.of(other) * -1

    def __mul__(self, other: int | str | Size) -> Size:
        terms: dict[_Monomial, Fraction] = {}
        for m1, c1 in self.terms:
            for m2, c2 in Size.of(other).terms:
                monomial = tuple(sorted(m1 + m2))
                terms[monomial] = terms.get(monomial, Fraction(0)) + c1 * c2
        return Size._make(terms)

    def divide(self, divisor: int) -> Size:
        if divisor <= 0:
            raise LiftError(f"a size divided by {divisor}")
        return Size._make({m: c / divisor for m, c in self.terms})

    def divide_by(self, divisor: Size) -> Size | None:
        """`self / divisor` where it is exact as polynomials (`G*128*per` by `128*per`:
        `G`), the divisor a single term; None otherwise."""
        if (value := divisor.constant) is not None:
            return self.divide(value) if value > 0 else None
        if len(divisor.terms) != 1:
            return None
        monomial, coefficient = divisor.terms[0]
        terms: dict[_Monomial, Fraction] = {}
        for term, factor in self.terms:
            rest = list(term)
            for name in monomial:
                if name not in rest:
                    return None
                rest.remove(name)
            terms[tuple(rest)] = factor / coefficient
        return Size._make(terms)

    @property
    def constant(self) -> int | None:
        """The size's value where it has no variable and is whole, else None."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == () and self.terms[0][1].denominator == 1:
            return int(self.terms[0][1])
        return None

    @property
    def variables(self) -> set[str]:
        return {name for monomial, _ in self.terms for name in monomial}

    def evaluate(self, values: dict[str, int]) -> int:
        total = Fraction(0)
        for monomial, coefficient in self.terms:
            product = coefficient
            for name in monomial:
                if name not in values:
                    raise LiftError(f"no value for the size {name}")
                product *= values[name]
            total += product
        if total.denominator != 1:
            raise LiftError(f"the size {self} is not whole for {values}")
        return int(total)

    def c_expression(self, suffix: str = "L") -> str:
        """The size as C arithmetic, on longs (`suffix` L) or ints (no suffix), exact
        divisions last."""
        if (value := self.constant) is not None:
            return f"{value}{suffix}" if value >= 0 else f"({value}{suffix})"
        denominator = 1
        for _, coefficient in self.terms:
            denominator = (
                denominator * coefficient.denominator // _gcd(denominator, coefficient.denominator)
            )
        parts = []
        for monomial, coefficient in self.terms:
            scaled = coefficient * denominator
            factors = [f"{int(scaled)}{suffix}"] if scaled != 1 or not monomial else []
            parts.append("*".join(factors + list(monomial)))
        text = " + ".join(parts)
        return f"(({text}) / {denominator}{suffix})" if denominator != 1 else f"({text})"

    def __str__(self) -> str:
        if (value := self.constant) is not None:
            return str(value)
        parts = []
        for monomial, coefficient in self.terms:
            name = "*".join(monomial)
            if not monomial:
                parts.append(str(coefficient))
            elif coefficient == 1:
                parts.append(name)
            elif coefficient.denominator == 1:
                parts.append(f"{coefficient.numerator}*{name}")
            elif coefficient.numerator == 1:
                parts.append(f"{name}/{coefficient.denominator}")
            else:
                parts.append(f"{coefficient.numerator}*{name}/{coefficient.denominator}")
        text = "+".join(parts).replace("+-", "-")
        return text if len(parts) == 1 else f"({text})"


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@dataclass(frozen=True)
class Scalar:
    """`f32`, `f64`, `i8`, `i16`, `i32`, `i64` or `bool`."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Vector:
    """An OpenCL vector of `width` scalars (`float4`): what map-vec's function takes."""

    element: Scalar
    width: int

    def __str__(self) -> str:
        return f"(vec {self.element} {self.width})"


@dataclass(frozen=True)
class Tuple:
    """The element of a zipped array."""

    elements: tuple[Type, ...]

    def __str__(self) -> str:
        return f"(tuple {' '.join(str(t) for t in self.elements)})"


@dataclass(frozen=True)
class Array:
    element: Type
    length: Size

    def __str__(self) -> str:
        return f"(array {self.element} {self.length})"


Type = Scalar | Vector | Tuple | Array

SCALARS = ("f32", "f64", "i8", "i16", "i32", "i64", "bool")


def scalar(name: str) -> Scalar:
    if name not in SCALARS:
        raise LiftError(f"no scalar type {name!r} (one of {', '.join(SCALARS)})")
    return Scalar(name)


def element_of(kind: Type, what: str) -> Type:
    """The element type of an array type; `what` names the expression in the error."""
    if not isinstance(kind, Array):
        raise LiftError(f"{what} takes an array, not {kind}")
    return kind.element
