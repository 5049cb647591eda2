"""Kernels generated the Lift way.

The flow, one package per stage:

    lift.ir          a typed functional IR (map, zip, reduce, split, join, slide, pad,
                     transpose, gather, scatter, iterate, scan, strided views) with a
                     readable S-expression text form and a reference interpreter
    lift.rewriting   rewrite rules: algorithmic ones (fusion, split-join, partial
                     reductions, tiling) and lowering ones (map-global, map-local, ...,
                     to-local, vectors), each checked against the interpreter
    lift.exploration rewrite sequences and numeric parameters enumerated, pruned, timed
                     on the device, the best remembered per expression and device
    lift.opencl      OpenCL C from a lowered expression: data-layout primitives become
                     index arithmetic (views), compute primitives become loops

`mappers/targets/functional.py` turns an idiom's match into an expression.
"""

from lift.errors import LiftError

__all__ = ["LiftError"]
