"""One rule per idiom: its stable id (`idiom/gemm`), name and descriptions."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HELP_DOC", "Rule", "rule_for"]

HELP_DOC = "docs/ci.md"


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    short: str
    full: str

    @property
    def help(self) -> str:
        return (
            f"{self.full} `idiom accelerate` replaces such a loop with a guarded call (BLAS "
            "or a generated OpenCL kernel), the original loop kept as the fallback; each "
            "message says by what, or why not. The estimated benefit in each "
            "message is measured: whole-program speedups of the corpus programs built "
            f"around this idiom (ci/benefit.json, generated from docs/results/ by "
            f"benchmarks/check_benefit.py). See {HELP_DOC}."
        )


_KNOWN = {
    "GEMM": (
        "GemmLoop",
        "Hand-written matrix-matrix product (GEMM).",
        "A loop nest computing C = alpha*A*B + beta*C.",
    ),
    "GEMV": (
        "GemvLoop",
        "Hand-written matrix-vector product (GEMV).",
        "A loop nest computing y = alpha*A*x + beta*y.",
    ),
    "GER": (
        "GerLoop",
        "Hand-written rank-1 or rank-2 update (GER).",
        "A loop nest computing A = A + alpha*x*y^T (+ alpha2*u*v^T).",
    ),
    "SYRK": (
        "SyrkLoop",
        "Hand-written symmetric rank-k update (SYRK).",
        "A loop nest computing one triangle of C = alpha*A*A^T + beta*C, maybe divided and "
        "mirrored into the other (a covariance matrix).",
    ),
    "SYR2K": (
        "Syr2kLoop",
        "Hand-written symmetric rank-2k update (SYR2K).",
        "A loop nest computing one triangle of C = alpha*(A*B^T + B*A^T) + beta*C.",
    ),
    "TRMM": (
        "TrmmLoop",
        "Hand-written in-place triangular matrix product (TRMM).",
        "A loop nest computing B = alpha*T*B in place, T triangular.",
    ),
    "SYMM": (
        "SymmLoop",
        "Hand-written symmetric matrix product (SYMM).",
        "A loop nest computing C = alpha*A*B + beta*C, A symmetric and read from one triangle.",
    ),
    "TRSV": (
        "TrsvLoop",
        "Hand-written triangular solve (TRSV).",
        "A loop nest solving T*x = b by forward or backward substitution, T triangular.",
    ),
    "Reduction": (
        "ReductionLoop",
        "Hand-written reduction.",
        "A loop folding an array into one value with an associative operator.",
    ),
    "Histogram": (
        "HistogramLoop",
        "Hand-written histogram.",
        "A loop incrementing bins chosen by the data.",
    ),
    "Scan": (
        "ScanLoop",
        "Hand-written prefix sum (scan).",
        "A loop storing the running fold of an array at every step: a prefix sum.",
    ),
    "Stencil": (
        "StencilLoop",
        "Hand-written stencil.",
        "A loop nest computing each point from its neighbours in another array.",
    ),
    "SpMV_CSR": (
        "SpmvCsrLoop",
        "Hand-written sparse matrix-vector product (CSR).",
        "A loop nest multiplying a compressed-sparse-row matrix by a vector.",
    ),
    "SpMV_JDS": (
        "SpmvJdsLoop",
        "Hand-written sparse matrix-vector product (JDS).",
        "A loop nest multiplying a jagged-diagonal matrix by a vector.",
    ),
    "SpMV_ELL": (
        "SpmvEllLoop",
        "Hand-written sparse matrix-vector product (ELLPACK).",
        "A loop nest multiplying a matrix stored with a fixed number of entries per row "
        "(ELLPACK) by a vector.",
    ),
    "SpMV_COO": (
        "SpmvCooLoop",
        "Hand-written sparse matrix-vector product (COO).",
        "A loop adding each coordinate-format entry's product with the vector into its row.",
    ),
    "Map": (
        "ElementWiseLoop",
        "Hand-written element-wise operation on arrays (map).",
        "A loop nest computing each element of one or more arrays from the elements of "
        "others at the same iteration (y = a x + y, two vectors updated in one loop).",
    ),
}


def rule_for(idiom: str) -> Rule:
    """The rule of an idiom of the shipped library, or a generic one for a user's own."""
    rule_id = "idiom/" + idiom.lower().replace("_", "-")
    if idiom in _KNOWN:
        name, short, full = _KNOWN[idiom]
        return Rule(rule_id, name, short, full)
    return Rule(
        rule_id,
        "".join(part.capitalize() for part in idiom.split("_")) + "Loop",
        f"Instance of the idiom {idiom}.",
        f"A region matching the IDL specification {idiom}.",
    )
