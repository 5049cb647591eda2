"""Where a one-pass scan's block may be scanned in place in local memory.

`scan-workgroups` hands `each` the block as loaded (`own`: a copy in local memory where
its `load` says) and its start. When `each` stages the block's prefixes out through
local memory, item i scanning its run of `own` into its run of a new buffer,

    (to-local (map-local d (lambda (q) (scan-seq f init (get 0 q))))
              (zip (split r own) ...))

every place of that buffer is written by the item that reads the same place of `own`,
after it reads it (a sequential scan reads an element before it stores its prefix), and
nothing reads `own` after: it is named nowhere else in `each`. The prefixes can then go
where the values were, which halves the block's local memory (more work-groups on a
compute unit, or longer runs): on the H200 the scan of 2^25 ints went from 79% to 82% of
the copy bandwidth in groups of 512 (docs/lift.md).
"""

from __future__ import annotations

import dataclasses

from lift.ir import expr as ir

__all__ = ["staged_in_place"]


def staged_in_place(each: ir.Fun) -> ir.Apply | None:
    """The to-local of `each` that may write into `each`'s first parameter (the loaded
    block), as described above; None where there is none."""
    if not isinstance(each, ir.Lambda) or not each.params:
        return None
    own = each.params[0]
    if _occurrences(each.body, own) != 1:
        return None
    return _find(each.body, own)


def _find(expression: object, own: ir.Param) -> ir.Apply | None:
    """The to-local application inside `expression` of the aligned form over `own`."""
    if isinstance(expression, ir.Apply) and _aligned(expression, own):
        return expression
    for child in _children(expression):
        found = _find(child, own)
        if found is not None:
            return found
    return None


def _aligned(stage: ir.Apply, own: ir.Param) -> bool:
    """Whether `stage` is `(to-local (map-local d (lambda (q) (scan-seq f init (get 0
    q)))) (zip (split r own) ...))`, the scan reading its chunk through `(get 0 q)` only."""
    match stage:
        case ir.Apply(
            ir.ToLocal(ir.MapLocal(_, ir.Lambda((q,), ir.Apply(ir.ScanSeq(f, init), (chunk,))))),
            (ir.Apply(ir.Zip(), (ir.Apply(ir.Split(), (split_of,)), *_)),),
        ):
            reads_chunk = chunk == ir.Apply(ir.Get(0), (q,))
            others = _occurrences(f, q) + _occurrences(init, q) == _occurrences(
                init, ir.Apply(ir.Get(1), (q,))
            )
            return split_of is own and reads_chunk and others
    return False


def _occurrences(expression: object, target: object) -> int:
    """How many times `target` (a parameter, or an expression compared by value) occurs
    in `expression`, its functions' bodies included."""
    if expression is target or (not isinstance(target, ir.Param) and expression == target):
        return 1
    return sum(_occurrences(child, target) for child in _children(expression))


def _children(node: object) -> list[object]:
    """The expressions and functions a node of the IR holds (its dataclass fields)."""
    if isinstance(node, tuple):
        return list(node)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return []
    return [getattr(node, f.name) for f in dataclasses.fields(node)]
