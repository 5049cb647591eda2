"""The C runtime that accelerated programs link against (C sources, shipped as package data).

`mappers.runtime.build` compiles it; `idiom_runtime.h` is its ABI.
"""
