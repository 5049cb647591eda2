"""The candidates of an expression: rewrite sequences, then numeric launch parameters.

A candidate is a sequence of rule applications (algorithmic rules first, at the outermost
computing map, up to `depth` of them; then the lowering that the structure asks for)
and an NDRange shape: the work-group size and the coarsening (how many elements of the
outermost mapped dimension each work-item computes; its loop strides, so any factor is
correct, and every other dimension has an item an element, so the kernels may be
generated `covered`). Candidates that do not type-check or cannot be generated are pruned
here; the search prunes those that do not fit the input (a vector width that does not
divide the length) or the device (a work-group too large).

The deterministic default (`default_candidate`) is what runs where no search is allowed:
every computing map on `map-global`, work-groups of 256 / 32x8 / 32x8x1 items, one element
per work-item: the shape of the kernels the tool translated before it generated them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.check import infer, infer_function
from lift.ir.streams import propose_carries
from lift.ir.text import show
from lift.ir.types import Array
from lift.opencl.generate import Kernel, Output, generate
from lift.rewriting.rules import Lanes, Rule, SplitJoin, Stream, Vectorise, fresh_param
from lift.rewriting.traverse import rewrites

__all__ = ["Candidate", "candidates", "default_candidate", "launch_shape", "lower", "lower_lanes"]

DEFAULT_LOCAL = {1: (256,), 2: (32, 8), 3: (32, 8, 1)}
_LOCAL_SHAPES: dict[int, list[tuple[int, ...]]] = {
    1: [(64,), (128,), (256,), (512,)],
    2: [(32, 8), (64, 4), (128, 2), (32, 4), (256, 1)],
    3: [(32, 8, 1), (64, 4, 1), (32, 4, 2), (128, 2, 1), (256, 1, 1), (32, 2, 4)],
}
_COARSENING = (1, 2, 4, 8)
# The elements of a streamed map's run: a run's first element reads every lane, the
# others only those that do not carry, so longer runs read less but run fewer items.
_STREAM_RUNS = (2, 4, 8, 16, 32, 48, 64, 96)
# (index type, covered): int where every size fits in 31 bits (the search checks). On the
# H200 a covered kernel was as fast or faster with int indices, but with long ones 1.75
# times as fast for a 7-point stencil and 1.6 times as slow for a 27-point one, as the
# device's compiler took the loops (docs/lift.md): long ones are searched both ways.
KERNEL_FORMS = (("long", True), ("long", False), ("int", True))
# A streamed program's forms: (index type, covered, reads through advancing pointers,
# partial sums). On the H200 the 27-point stencil's int kernel ran in 101 rather than 118
# us through pointers, 99-102 us keeping partial sums too, and a long one with loops 20%
# slower through pointers (not searched; docs/lift.md).
STREAMED_FORMS = (
    ("long", False, False, False),
    ("int", True, True, False),
    ("int", True, False, False),
    ("long", True, False, False),
    ("int", True, True, True),
)


@dataclass(frozen=True)
class Candidate:
    steps: tuple[str, ...]  # the rewrites applied, in order, as `rule(params)`
    program: ir.Lambda  # lowered
    kernel: Kernel
    local: tuple[int, ...]  # work-group shape, dimension 0 first
    coarsen: int  # elements of the outermost mapped dimension per work-item

    def describe(self) -> str:
        shape = "x".join(str(n) for n in self.local)
        steps = ", ".join(self.steps) or "none"
        return (
            f"rewrites: {steps}; work-group {shape}; {self.coarsen} per work-item; "
            f"{self.kernel.index} indices{', covered' if self.kernel.covered else ''}"
            f"{', through pointers' if self.kernel.stream_pointers else ''}"
            f"{', partial sums' if self.kernel.partial_sums else ''}"
        )


def _computes(f: ir.Fun) -> bool:
    """`f` computes something (a map of it is a loop, not a view)."""
    match f:
        case ir.Lambda(_, body):
            return _computes_expression(body)
        case ir.Op():
            return True
    inner = getattr(f, "f", None)
    return isinstance(f, ir.Reduce | ir.MapVec) or (inner is not None and _computes(inner))


def _computes_expression(expression: ir.Expr) -> bool:
    match expression:
        case ir.Apply(fun, args):
            return _computes(fun) or any(_computes_expression(a) for a in args)
    return False


def lower(program: ir.Lambda) -> tuple[ir.Lambda, tuple[str, ...]]:
    """Every computing map and reduce lowered by the structure around it: nested
    outermost maps on `map-global` (the outermost on the highest dimension), a
    `(join (map (map f) (split n x)))` on `map-workgroup` and `map-local`, the maps and
    reduces inside a work-item's function sequential."""
    depth = _global_depth(program.body)
    if depth == 0 and not _spine_unlowered(program.body):
        return program, ()  # lowered already
    if depth == 0:
        raise LiftError(
            "no map produces the result: a reduction over the whole input is lowered by "
            "lift.ir.build.tree_reduce, not here"
        )
    steps: list[str] = []
    if depth == 4:  # a grid of records: its two innermost maps become one (OpenCL has 3)
        program = _join_innermost(program)
        steps.append("join-innermost")
        depth = 3
    body = _lower(program.body, min(depth, 3) - 1, steps)
    return ir.Lambda(program.params, body), tuple(steps)


def lower_lanes(program: ir.Lambda, lanes: int) -> tuple[ir.Lambda, tuple[str, ...]] | None:
    """A one-dimensional map whose function folds an array (a sparse row's entries)
    lowered on `map-lanes`, the fold shared by `lanes` work-items (`Lanes`), everything
    else inside an element's function sequential; None where `Lanes` does not apply."""
    if _global_depth(program.body) != 1:
        return None
    shared = Lanes(lanes).apply(program.body)
    if not isinstance(shared, ir.Apply) or not isinstance(shared.fun, ir.MapLanes):
        return None
    steps = [f"lanes({lanes})"]
    f = _lower_fun(shared.fun.f, -1, steps)
    args = tuple(_lower(a, -1, steps) for a in shared.args)
    lowered = ir.Apply(ir.MapLanes(0, lanes, f), args)
    return ir.Lambda(program.params, lowered), tuple(steps)


def _join_innermost(program: ir.Lambda) -> ir.Lambda:
    """(map (map (map (map f))) grid) -> (map (map (lambda (row) (split n3 (map f (join
    row))))) grid): a row of records mapped as one array of their components, so that
    neighbouring work-items take neighbouring components (the innermost, contiguous)."""
    match program.body:
        case ir.Apply(ir.Map(ir.Map(ir.Map(ir.Map(f)))), (grid,)):
            types = {p: p.type for p in program.params if p.type is not None}
            kind = infer(grid, types)
            lengths = []
            while isinstance(kind, Array):
                lengths.append(kind.length)
                kind = kind.element
            row = fresh_param("row", program)
            flat = ir.Apply(ir.Map(f), (ir.Apply(ir.Join(), (row,)),))
            joined = ir.Lambda((row,), ir.Apply(ir.Split(lengths[3]), (flat,)))
            return ir.Lambda(program.params, ir.Apply(ir.Map(ir.Map(joined)), (grid,)))
    return program


def _global_depth(expression: ir.Expr) -> int:
    match expression:
        case ir.Apply(ir.Join(), (ir.Apply(ir.Map(ir.Map()), (ir.Apply(ir.Split(), _),)),)):
            return 1  # work-groups over chunks: one dimension
        case ir.Apply(ir.Map(f), _):  # the maps that produce the result, a copy's too
            inner = f.body if isinstance(f, ir.Lambda) else None
            return 1 + (_global_depth(inner) if inner is not None else _fun_depth(f))
        case ir.Apply(ir.Join() | ir.JoinVec() | ir.Split(), (x,)):
            return _global_depth(x)
        case ir.Apply(ir.Permute(), (_, xs, _)):
            return _global_depth(xs)
    return 0


def _spine_unlowered(expression: ir.Expr) -> bool:
    """An algorithmic reduce produces the result (or what a join of it does)."""
    match expression:
        case ir.Apply(ir.Reduce(), _):
            return True
        case ir.Apply(ir.Join() | ir.JoinVec(), (x,)):
            return _spine_unlowered(x)
    return False


def _fun_depth(f: ir.Fun) -> int:
    return 1 + _fun_depth(f.f) if isinstance(f, ir.Map) else 0


def _lower(expression: ir.Expr, dim: int, steps: list[str]) -> ir.Expr:
    """`dim` is the NDRange dimension of the next map out (-1: inside a work-item)."""
    match expression:
        case ir.Apply(
            ir.Join(), (ir.Apply(ir.Map(ir.Map(f)), (ir.Apply(ir.Split(), _) as chunks,)),)
        ) if dim == 0:
            steps.append("lower-map(workgroup 0, local 0)")
            inner_f = _lower_fun(f, -1, steps)
            groups = ir.Apply(ir.MapWorkgroup(0, ir.MapLocal(0, inner_f)), (chunks,))
            return ir.Apply(ir.Join(), (groups,))
        case ir.Apply(ir.Map(f), args) if dim >= 0 or _computes(f):
            lowered_f = _lower_fun(f, dim - 1 if dim >= 0 else -1, steps)
            if dim >= 0:
                steps.append(f"lower-map(global {dim})")
                return ir.Apply(
                    ir.MapGlobal(dim, lowered_f), tuple(_lower(a, -1, steps) for a in args)
                )
            steps.append("lower-map(seq)")
            return ir.Apply(ir.MapSeq(lowered_f), tuple(_lower(a, -1, steps) for a in args))
        case ir.Apply(ir.Permute(), (indices, xs, into)):
            # Each index is computed where its element is written: a map of them stays
            # fused, as a gather's does.
            return ir.Apply(ir.Permute(), (_fused(indices, steps), _lower(xs, dim, steps), into))
        case ir.Apply(ir.Gather(), (ir.Apply(ir.Map(), _) as indices, xs)) if dim < 0:
            # The indices are computed where each is read, once: a map of them stays fused.
            return ir.Apply(ir.Gather(), (_fused(indices, steps), _lower(xs, dim, steps)))
        case ir.Apply(ir.Reduce(f, init), args):
            steps.append("lower-reduce")
            return ir.Apply(
                ir.ReduceSeq(_lower_fun(f, -1, steps), init),
                tuple(_lower(a, -1, steps) for a in args),
            )
        case ir.Apply(fun, args):
            return ir.Apply(_lower_fun(fun, dim, steps), tuple(_lower(a, dim, steps) for a in args))
        case ir.Lambda(params, body):
            return ir.Lambda(params, _lower(body, dim, steps))
    return expression


def _fused(indices: ir.Expr, steps: list[str]) -> ir.Expr:
    """A gather's or permute's indices, each computed where it is read: a map of them
    stays a map (fused into its reader), its function and arguments lowered."""
    match indices:
        case ir.Apply(ir.Map(f), args):
            inner = tuple(_lower(a, -1, steps) for a in args)
            return ir.Apply(ir.Map(_lower_fun(f, -1, steps)), inner)
    return _lower(indices, -1, steps)


def _lower_fun(fun: ir.Fun, dim: int, steps: list[str]) -> ir.Fun:
    match fun:
        case ir.Lambda(params, body):
            return ir.Lambda(params, _lower(body, dim, steps))
        case ir.Map(f) if dim >= 0 or _computes(f):
            probe = fresh_param("_probe", fun)
            lowered = _lower(ir.Apply(fun, (probe,)), dim, steps)
            assert isinstance(lowered, ir.Apply)
            return lowered.fun
        case ir.Reduce(f, init):
            steps.append("lower-reduce")
            return ir.ReduceSeq(_lower_fun(f, -1, steps), init)
    inner = getattr(fun, "f", None)
    if inner is not None and not isinstance(fun, ir.Map):
        return ir.with_function(fun, _lower_fun(inner, dim, steps))
    return fun


def _variants(
    program: ir.Lambda, rules: Sequence[Rule], depth: int
) -> Iterator[tuple[tuple[str, ...], ir.Lambda]]:
    """The program rewritten by up to `depth` rules, each applied at the outermost position
    where it matches; every distinct result once."""
    seen = {show(program)}
    frontier: list[tuple[tuple[str, ...], ir.Lambda]] = [((), program)]
    yield (), program
    for _ in range(depth):
        next_frontier = []
        for steps, current in frontier:
            for rule in rules:
                rewritten = next(rewrites(current, rule), None)
                if not isinstance(rewritten, ir.Lambda) or show(rewritten) in seen:
                    continue
                seen.add(show(rewritten))
                label = f"{rule.name}({', '.join(str(v) for v in vars(rule).values())})"
                next_frontier.append(((*steps, label), rewritten))
                yield (*steps, label), rewritten
        frontier = next_frontier


ALGORITHMIC_CHOICES: tuple[Rule, ...] = (Vectorise(2), Vectorise(4), SplitJoin(256))


def candidates(
    program: ir.Lambda,
    output: Output | None = None,
    depth: int = 1,
    sizes: Mapping[str, int] | None = None,
) -> Iterator[Candidate]:
    """Every candidate of `program`, the default first. With the sizes, a grid of strided
    views whose lanes are each other one element further on (`streams.propose_carries`)
    also gets its outermost map streamed, in runs of `_STREAM_RUNS` elements."""
    types = [p.type for p in program.params if p.type is not None]
    for steps, variant in _variants(program, ALGORITHMIC_CHOICES, depth):
        try:
            lowered, lowering = lower(variant)
            infer_function(lowered, types)
            kernels = _forms(lowered, output)
        except LiftError:
            continue  # pruned: the rewrite does not fit this program
        for kernel in kernels:
            yield from _shapes((*steps, *lowering), lowered, kernel, _COARSENING)
        streamed = _streamed(lowered, sizes)
        if streamed is None:
            continue
        rule, program_streamed = streamed
        label = f"{rule.name}({len(rule.carries)} pairs)"
        try:
            streamed_kernels = _forms(program_streamed, output, streamed=True)
        except LiftError:
            continue
        for kernel in streamed_kernels:
            yield from _shapes((*steps, *lowering, label), program_streamed, kernel, _STREAM_RUNS)


def _forms(program: ir.Lambda, output: Output | None, *, streamed: bool = False) -> list[Kernel]:
    """`program`'s kernel in each of `KERNEL_FORMS` (a streamed program's in
    `STREAMED_FORMS`), each source once (a kernel of one dimension is the same covered or
    not; a form whose runs cannot keep partial sums or read through pointers is the same
    as one without). Raises what `generate` raises."""
    kernels: dict[str, Kernel] = {}
    forms = STREAMED_FORMS if streamed else tuple((i, c, False, False) for i, c in KERNEL_FORMS)
    for index, covered, pointers, partial in forms:
        kernel = generate(program, output=output, index=index, covered=covered,
                          stream_pointers=pointers, partial_sums=partial)  # fmt: skip
        if (kernel.stream_pointers, kernel.partial_sums) == (pointers, partial):
            kernels.setdefault(kernel.source, kernel)
    return list(kernels.values())


def _shapes(
    steps: tuple[str, ...], program: ir.Lambda, kernel: Kernel, coarsening: Sequence[int]
) -> Iterator[Candidate]:
    dims = max(len(kernel.dimensions), 1)
    for local in _LOCAL_SHAPES.get(dims, [DEFAULT_LOCAL.get(dims, (256,))]):
        for coarsen in coarsening:
            yield Candidate(steps, program, kernel, local, coarsen)


def _streamed(
    lowered: ir.Lambda, sizes: Mapping[str, int] | None
) -> tuple[Stream, ir.Lambda] | None:
    """The lowered program with its outermost map streamed, where lanes carry."""
    if sizes is None or not isinstance(lowered.body, ir.Apply) or len(lowered.body.args) != 1:
        return None
    carries = propose_carries(lowered.body.args[0], sizes)
    rule = Stream(carries)
    body = rule.apply(lowered.body)
    return None if body is None else (rule, ir.Lambda(lowered.params, body))


def default_candidate(program: ir.Lambda, output: Output | None = None) -> Candidate:
    lowered, steps = lower(program)
    kernel = generate(lowered, output=output, covered=True)
    dims = max(len(kernel.dimensions), 1)
    return Candidate(steps, lowered, kernel, DEFAULT_LOCAL.get(dims, (256,)), 1)


def launch_shape(
    candidate: Candidate, sizes: dict[str, int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The NDRange (global, local) of `candidate` for these sizes."""
    dims = candidate.kernel.dimensions
    global_size = []
    for d, dimension in enumerate(dims):
        local = candidate.local[d] if d < len(candidate.local) else 1
        if dimension.groups is not None:
            groups = min(max(dimension.groups.evaluate(sizes), 1), 65536)
            global_size.append(groups * local)
            continue
        count = dimension.length.evaluate(sizes) if dimension.length is not None else 1
        if d == len(dims) - 1:
            count = -(-count // candidate.coarsen)
        global_size.append(max(-(-count // local), 1) * local)
    local_size = tuple(candidate.local[: len(dims)])
    return tuple(global_size), local_size
