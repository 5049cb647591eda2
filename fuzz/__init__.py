"""A random program generator for differential testing of `idiom accelerate`.

`fuzz.generator.generate(seed)` writes a complete C or C++ program around the idioms the
library matches (reductions, histograms, GEMM, GEMV, CSR and JDS products, stencils), in
the shapes it matches and shapes near them, with random sizes, aliasing, host accesses
between launches and file layouts; `fuzz.differential.check` builds it as the original and
accelerated, runs both with every replacement forced onto the OpenCL CPU device, and
compares what they print.
"""

from fuzz.generator import SHAPES, Program, generate

__all__ = ["SHAPES", "Program", "generate"]
