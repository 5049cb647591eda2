"""Math calls that a device may not round as the C library does.

OpenCL C allows its math built-ins some error (exp, log, sin and cos 3-4 ulp, pow 16), and
glibc's functions are within about one ulp without being correctly rounded either: the two
differ in the last bits of some results (PoCL's `exp` and glibc's differ on ordinary
doubles; Rodinia's srad, `J[k] = (float)exp(I[k])`, printed one value of 65,536 a digit
apart with every floating-point order kept). A loop calling one of them, run as a kernel,
computes what the loop computes within OpenCL's bounds, not to the bit. Like a reordered
sum, it is replaced only where reassociation is allowed (the report names the calls), and
`--no-reassociate` keeps such loops as compiled. The exact operations are not listed:
fabs, floor, ceil, trunc, fmin, fmax, and sqrt (correctly rounded in double, and in float
with the option the runtime asks every device that can for).
"""

from __future__ import annotations

from collections.abc import Iterable

from matcher.ir import Block

__all__ = ["differently_rounded_calls", "math_function"]

_ROUNDED_DIFFERENTLY = frozenset(
    {
        "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
        "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
        "atanh", "pow", "cbrt", "hypot", "erf", "erfc", "tgamma", "lgamma",
    }
)  # fmt: skip


def math_function(callee: str | None) -> str | None:
    """The C library function that `callee` computes (`expf`, `exp` and `llvm.exp.f64`
    are all `exp`) where a device's built-in may round it differently, else None."""
    if callee is None:
        return None
    if callee.startswith("llvm."):
        name = callee.split(".")[1]
    elif callee in _ROUNDED_DIFFERENTLY:
        name = callee
    else:  # the float and long double forms: expf, expl (erff is erf's)
        name = callee[:-1] if callee.endswith(("f", "l")) else callee
    return name if name in _ROUNDED_DIFFERENTLY else None


def differently_rounded_calls(blocks: Iterable[Block]) -> tuple[str, ...]:
    """The functions of `math_function` that the blocks call, sorted, each once."""
    names = {
        name
        for block in blocks
        for instruction in block.instructions
        if instruction.opcode == "call" and (name := math_function(instruction.callee))
    }
    return tuple(sorted(names))
