"""Where a rule applies inside an expression, and the expression rewritten there.

Positions are every sub-expression: the arguments of an application, the body of a
lambda, and the functions a pattern holds (a map's function, a reduce's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lift.ir import expr as ir
from lift.rewriting.rules import Rule, fresh_param

__all__ = ["apply_everywhere", "apply_first", "rewrites"]

_Rewrite = Callable[[ir.Expr], ir.Expr | None]


def rewrites(expression: ir.Expr, rule: Rule) -> Iterator[ir.Expr]:
    """The whole expression rewritten by `rule` at each position where it applies, outermost
    first."""
    return _at_every_position(expression, rule.apply)


def apply_first(expression: ir.Expr, rule: Rule) -> ir.Expr | None:
    return next(rewrites(expression, rule), None)


def apply_everywhere(expression: ir.Expr, rule: Rule, limit: int = 64) -> ir.Expr:
    """`rule` applied outermost-first until it applies nowhere (at most `limit` times)."""
    for _ in range(limit):
        rewritten = apply_first(expression, rule)
        if rewritten is None:
            return expression
        expression = rewritten
    return expression


def _at_every_position(expression: ir.Expr, rewrite: _Rewrite) -> Iterator[ir.Expr]:
    here = rewrite(expression)
    if here is not None:
        yield here
    match expression:
        case ir.Lambda(params, body):
            for inner in _at_every_position(body, rewrite):
                yield ir.Lambda(params, inner)
        case ir.Apply(fun, args):
            for inner_fun in _in_function(fun, rewrite):
                yield ir.Apply(inner_fun, args)
            for k, arg in enumerate(args):
                for inner in _at_every_position(arg, rewrite):
                    yield ir.Apply(fun, (*args[:k], inner, *args[k + 1 :]))


def _in_function(fun: ir.Fun, rewrite: _Rewrite) -> Iterator[ir.Fun]:
    if isinstance(fun, ir.Lambda):
        for inner in _at_every_position(fun.body, rewrite):
            yield ir.Lambda(fun.params, inner)
        return
    f = getattr(fun, "f", None)
    if f is None:
        return
    if isinstance(f, ir.Lambda):
        for body in _at_every_position(f.body, rewrite):
            yield ir.with_function(fun, ir.Lambda(f.params, body))
    else:
        # A pattern held as a function, e.g. (map (map g)): rewrite it applied to a
        # placeholder, then take the function back.
        probe = fresh_param("_probe", fun)
        for rewritten in _at_every_position(ir.Apply(f, (probe,)), rewrite):
            if _rewraps(fun, rewritten, probe):
                continue  # a memory annotation directly inside another says nothing new
            if isinstance(rewritten, ir.Apply) and rewritten.args == (probe,):
                yield ir.with_function(fun, rewritten.fun)
            else:
                yield ir.with_function(fun, ir.Lambda((probe,), rewritten))


_MEMORY = (ir.ToLocal, ir.ToPrivate, ir.ToGlobal)


def _rewraps(fun: ir.Fun, rewritten: ir.Expr, probe: ir.Param) -> bool:
    return (
        isinstance(fun, _MEMORY)
        and isinstance(rewritten, ir.Apply)
        and rewritten.args == (probe,)
        and isinstance(rewritten.fun, _MEMORY)
    )
