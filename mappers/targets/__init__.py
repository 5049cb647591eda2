"""What a match becomes: one module per target, each a mapper from an idiom's match to a `Plan`.

BLAS calls through the runtime: GEMM and GEMV (`blas`), GER (`ger`), SYMM (`symm`), SYRK and
SYR2K (`syrk`), TRMM (`trmm`), TRSV (`trsv`), in-place products of a batch of rows (`batched`).
OpenCL kernels translated from the matched IR (`kernels`): stencils (`stencil`), reductions
(`reduction`), histograms (`histogram`), sparse matrix-vector products in CSR and ELL
(`sparse`) and in jagged diagonal storage (`jds`).
"""
