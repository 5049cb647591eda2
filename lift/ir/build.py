"""Constructors for the shapes matches become: nested maps and zips over grids."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lift.ir import expr as ir
from lift.ir.types import Array, Size

__all__ = [
    "ScanPrograms",
    "blocked_scan",
    "chunked_scan",
    "fold_lanes",
    "map_nd",
    "tree_reduce",
    "zip_nd",
]


def map_nd(f: ir.Fun, grid: ir.Expr, depth: int) -> ir.Apply:
    """`f` on every element of a `depth`-dimensional array: (map (map ... f) grid)."""
    function = f
    for _ in range(depth - 1):
        function = ir.Map(function)
    return ir.Apply(ir.Map(function), (grid,))


def zip_nd(arrays: Sequence[ir.Expr], depth: int) -> ir.Expr:
    """Arrays of the same `depth`-dimensional shape zipped element by element: a grid of
    tuples. Below the outermost level, each level zips the rows its tuple holds."""
    if len(arrays) == 1:
        return arrays[0]
    zipped: ir.Expr = ir.Apply(ir.Zip(), tuple(arrays))
    if depth == 1:
        return zipped
    row = ir.Param(f"row{depth}")
    inner = zip_nd([ir.Apply(ir.Get(k), (row,)) for k in range(len(arrays))], depth - 1)
    return ir.Apply(ir.Map(ir.Lambda((row,), inner)), (zipped,))


def fold_lanes(ops: Sequence[str], keep_nan: Sequence[bool] = ()) -> ir.Lambda:
    """(lambda (a b) (tuple (op0 (get 0 a) (get 0 b)) ...)): the lanes folded pairwise.
    A lane marked in `keep_nan` (a floating-point min or max) gives a NaN operand where
    OpenCL's fmin would give the other one: a NaN met anywhere reaches the total."""
    a, b = ir.Param("a"), ir.Param("b")
    lanes = []
    for k, op in enumerate(ops):
        x, y = ir.Apply(ir.Get(k), (a,)), ir.Apply(ir.Get(k), (b,))
        lane: ir.Expr = ir.Apply(ir.Op(op), (x, y))
        if k < len(keep_nan) and keep_nan[k]:
            for value in (y, x):  # x tested first: outermost
                nan = ir.Apply(ir.Op("!="), (value, value))
                lane = ir.Apply(ir.Op("select"), (nan, value, lane))
        lanes.append(lane)
    return ir.Lambda((a, b), ir.Apply(ir.Op("tuple"), tuple(lanes)))


def tree_reduce(
    values: ir.Expr,
    fold: ir.Lambda,
    identity: ir.Expr,
    local: int,
    count: Size,
    *,
    per: Size | None = None,
    contiguous: bool = False,
) -> ir.Expr:
    """Lift's reduction in work-groups: the values padded with the identity to
    `wg * local * per`, in blocks of `local`; group g takes blocks g, g + wg, g + 2 wg, ...
    (`per` of them) and each of its work-items folds its place in each (neighbouring
    items read neighbouring values); the group folds the `local`
    results in local memory in log2(local) steps, each halving them: item i folds the
    values i and i + half (`(transpose (split half ys))`: neighbouring items read
    neighbouring values, no two of a step the same bank); one result per group. `per`
    is the size variable `per` unless given (a constant 1: one value an item, no loop).
    With `contiguous`, group g takes blocks g * per .. g * per + per - 1 instead: the
    `local * per` values a scan's block holds (`blocked_scan`)."""
    groups = Size.of("wg")
    per = Size.of("per") if per is None else per
    chunk, ys, c, v = (ir.Param(n) for n in ("chunk", "ys", "c", "v"))

    def fold_rows(rows: ir.Expr) -> ir.Expr:
        return ir.Apply(
            ir.Join(), (ir.Apply(ir.MapLocal(0, ir.ReduceSeq(fold, identity)), (rows,)),)
        )

    first = ir.ToLocal(ir.Lambda((c,), fold_rows(ir.Apply(ir.Transpose(), (c,)))))
    tree: ir.Expr = ir.Apply(first, (chunk,))
    half = local // 2
    while half >= 1:
        pairs = ir.Apply(ir.Transpose(), (ir.Apply(ir.Split(Size.of(half)), (ys,)),))
        tree = ir.Apply(ir.ToLocal(ir.Lambda((ys,), fold_rows(pairs))), (tree,))
        half //= 2
    result = ir.Apply(ir.ToGlobal(ir.MapLocal(0, ir.Lambda((v,), v))), (tree,))
    padding = groups * local * per - count
    padded = ir.Apply(ir.Pad(0, padding, identity), (values,))
    # Rounds of `local` values for each group in turn: group g's j-th block is block
    # j * wg + g, so that at any moment the groups read one contiguous stretch (a block
    # of blocks a group ran 0.91 times as fast on an H200: docs/lift.md).
    blocks = ir.Apply(ir.Split(Size.of(local)), (padded,))
    if contiguous:
        chunks = ir.Apply(ir.Split(per), (blocks,))
    else:
        chunks = ir.Apply(ir.Transpose(), (ir.Apply(ir.Split(groups), (blocks,)),))
    return ir.Apply(
        ir.Join(), (ir.Apply(ir.MapWorkgroup(0, ir.Lambda((chunk,), result)), (chunks,)),)
    )


@dataclass(frozen=True)
class ScanPrograms:
    """A scan on the device in three programs, run in order: `totals` folds each chunk
    (`chunked_scan`: `per` values a work-item, `m` chunks; `blocked_scan`: a block a
    work-group, `wg` blocks; the last padded with the identity; with the sum of the
    magnitudes too, a tuple, for a floating-point sum); `starts` scans the totals from
    the scan's start `z` in one work-item (where each chunk starts); `chunks` scans each
    chunk from its start into the output, written up to the `count` real values."""

    totals: ir.Lambda
    starts: ir.Lambda
    chunks: ir.Lambda
    # The same scan in one program (`blocked_scan` without magnitudes): each block's
    # start learnt on the device from the totals the blocks before it publish
    # (`scan-workgroups`), its parameters the chunks' then `z`.
    chained: ir.Lambda | None = None


def chunked_scan(
    params: Sequence[ir.Param],
    values: ir.Expr,
    fold: ir.Lambda,
    identity: ir.Literal,
    count: Size,
    *,
    inclusive: bool,
    magnitudes: bool = False,
    written: Sequence[ir.Param] = (),
) -> ScanPrograms:
    """The three programs of (scan fold z values), `values` an array of `count` scalars
    computed from `params`. Size variables: `m` the chunks, `per` their length. With
    `magnitudes` (a floating-point sum), each chunk's total comes with the sum of its
    values' magnitudes, a tuple: the caller checks that no order of the additions can
    overflow. `written` are parameters the values do not read that the chunks' program
    writes (the output, when not scanned in place)."""
    kind = identity.type
    per, chunks_count = Size.of("per"), Size.of("m")
    padding = chunks_count * per - count
    split = ir.Apply(ir.Split(per), (ir.Apply(ir.Pad(0, padding, identity), (values,)),))
    chunk_fold, folded = fold, split
    chunk_identity: ir.Expr = identity
    if magnitudes:
        v = ir.Param("v")
        both = ir.Lambda((v,), ir.Apply(ir.Op("tuple"), (v, ir.Apply(ir.Op("abs"), (v,)))))
        chunk_fold = fold_lanes(["+", "+"])
        chunk_identity = ir.Apply(ir.Op("tuple"), (identity, identity))
        lanes = ir.Apply(ir.Map(both), (values,))
        padded_lanes = ir.Apply(ir.Pad(0, padding, chunk_identity), (lanes,))
        folded = ir.Apply(ir.Split(per), (padded_lanes,))
    c, p = ir.Param("c"), ir.Param("p")
    fold_chunk = ir.Lambda((c,), ir.Apply(ir.ReduceSeq(chunk_fold, chunk_identity), (c,)))
    totals_body = ir.Apply(ir.Join(), (ir.Apply(ir.MapGlobal(0, fold_chunk), (folded,)),))
    totals = ir.Param("t", Array(kind, chunks_count))
    start = ir.Param("z", kind)
    starts_body = ir.Apply(ir.ScanSeq(fold, start), (totals,))
    scan_seq = ir.InclusiveScanSeq if inclusive else ir.ScanSeq
    each = ir.Lambda(
        (p,), ir.Apply(scan_seq(fold, ir.Apply(ir.Get(1), (p,))), (ir.Apply(ir.Get(0), (p,)),))
    )
    pairs = ir.Apply(ir.Zip(), (split, totals))
    chunks_body = ir.Apply(ir.Join(), (ir.Apply(ir.MapGlobal(0, each), (pairs,)),))
    return ScanPrograms(
        ir.Lambda(tuple(params), totals_body),
        ir.Lambda((totals, start), starts_body),
        ir.Lambda((*params, *written, totals), chunks_body),
    )


def blocked_scan(
    params: Sequence[ir.Param],
    values: ir.Expr,
    fold: ir.Lambda,
    identity: ir.Literal,
    count: Size,
    *,
    local: int,
    inclusive: bool,
    magnitudes: bool = False,
    written: Sequence[ir.Param] = (),
    per: int = 1,
    staging: tuple[bool, bool] = (True, True),
) -> ScanPrograms:
    """The programs of (scan fold z values) in blocks of `local * per` values, one
    work-group a block (`local` a power of two): `totals` folds each block in local
    memory (`tree_reduce`, `per` values a work-item, its block's own, `wg` the blocks);
    `starts` scans the `wg` totals from `z` (the host's, as for `chunked_scan`); `chunks`
    copies each block into local memory, where each work-item folds its run of `per`
    neighbouring values (`per` > 1), the runs' totals (or the values themselves) are
    scanned in log2(local) steps (Hillis and Steele: step d adds to each value the one
    d before it, into a new buffer), each run is scanned in turn from its start, and the
    block is written out, each prefix folded with the block's start. Every load and
    store of global memory coalesces; with `staging` (in, out) not both true, runs of
    `per` > 1 are read from global memory or written to it in place of local memory
    (neighbouring items then read and write `per` values apart). Arguments as
    `chunked_scan`'s; a floating-point sum is reordered."""
    kind = identity.type
    blocks = Size.of("wg")
    totals_values, total_fold = values, fold
    total_identity: ir.Expr = identity
    if magnitudes:
        v = ir.Param("v")
        both = ir.Lambda((v,), ir.Apply(ir.Op("tuple"), (v, ir.Apply(ir.Op("abs"), (v,)))))
        totals_values = ir.Apply(ir.Map(both), (values,))
        total_fold = fold_lanes(["+", "+"])
        total_identity = ir.Apply(ir.Op("tuple"), (identity, identity))
    totals_body = tree_reduce(
        totals_values, total_fold, total_identity, local, count, per=Size.of(per),
        contiguous=True,
    )  # fmt: skip
    totals = ir.Param("t", Array(kind, blocks))
    start = ir.Param("z", kind)
    starts_body = ir.Apply(ir.ScanSeq(fold, start), (totals,))
    padded = ir.Apply(ir.Pad(0, blocks * (local * per) - count, identity), (values,))
    split = ir.Apply(ir.Split(Size.of(local * per)), (padded,))
    pairs = ir.Apply(ir.Zip(), (split, totals))
    block = ir.Param("block")
    shape = _ScanShape(fold, identity, local, per, inclusive, staging)
    written_out = shape.scanned(ir.Apply(ir.Get(0), (block,)), ir.Apply(ir.Get(1), (block,)))
    chunks_body = ir.Apply(
        ir.Join(), (ir.Apply(ir.MapWorkgroup(0, ir.Lambda((block,), written_out)), (pairs,)),)
    )
    chained = None
    if not magnitudes:
        load, prepare, total, each = shape.chained()
        pattern = ir.ScanWorkgroups(0, fold, start, load, prepare, total, each)
        chained_blocks = ir.Apply(pattern, (split,))
        chained_body = ir.Apply(ir.Join(), (chained_blocks,))
        chained = ir.Lambda((*params, *written, start), chained_body)
    return ScanPrograms(
        ir.Lambda(tuple(params), totals_body),
        ir.Lambda((totals, start), starts_body),
        ir.Lambda((*params, *written, totals), chunks_body),
        chained,
    )


@dataclass(frozen=True)
class _ScanShape:
    """How `blocked_scan` scans one block (its arguments of the same names)."""

    fold: ir.Lambda
    identity: ir.Literal
    local: int
    per: int
    inclusive: bool
    staging: tuple[bool, bool]

    def scanned(self, block: ir.Expr, begin: ir.Expr) -> ir.Expr:
        """`block` scanned from `begin`, written to global memory."""
        if self.per > 1:
            return _runs_scan(block, begin, fold=self.fold, identity=self.identity,
                              local=self.local, per=self.per, inclusive=self.inclusive,
                              staging=self.staging)  # fmt: skip
        scanned = _block_scan(block, self.fold, self.identity, self.local, self.inclusive)
        return self._folded_out(begin, scanned)

    def _folded_out(self, begin: ir.Expr, scanned: ir.Expr) -> ir.Expr:
        v = ir.Param("v")
        each = ir.Lambda((v,), ir.Apply(self.fold, (begin, v)))
        return ir.Apply(ir.ToGlobal(ir.MapLocal(0, each)), (scanned,))

    def chained(self) -> tuple[ir.Lambda, ir.Lambda, ir.Lambda, ir.Lambda]:
        """The `load`, `prepare`, `total` and `each` of the one-pass program: the block
        copied into local memory where `staging[0]` (neighbouring items copy neighbouring
        values; else read where it is, twice), the block's runs' totals (its values, one
        an item) scanned inclusively in local memory, the last of them the block's total,
        then each run scanned from the block's start folded with the runs before it."""
        own, prefixes, begin = ir.Param("own"), ir.Param("prefixes"), ir.Param("begin")
        local, fold, identity = self.local, self.fold, self.identity
        v = ir.Param("v")
        block = ir.Param("block")
        copied = ir.Apply(ir.ToLocal(ir.MapLocal(0, ir.Lambda((v,), v))), (block,))
        load = ir.Lambda((block,), copied if self.staging[0] and self.per > 1 else block)
        if self.per > 1:
            runs = ir.Apply(ir.Split(Size.of(self.per)), (own,))
            scanned = _block_scan(_runs_totals(runs, fold, identity), fold, identity, local,
                                  inclusive=True, in_local=True)  # fmt: skip
            before = _shifted(prefixes, 1, identity, local)
            out = _runs_from(runs, begin, before, fold=fold, inclusive=self.inclusive,
                             stage_out=self.staging[1])  # fmt: skip
        else:
            scanned = _block_scan(own, fold, identity, local, inclusive=True)
            kept = prefixes if self.inclusive else _shifted(prefixes, 1, identity, local)
            out = self._folded_out(begin, kept)
        last = ir.Apply(ir.Get(local - 1), (prefixes,))
        return (
            load,
            ir.Lambda((own,), scanned),
            ir.Lambda((prefixes,), last),
            ir.Lambda((own, prefixes, begin), out),
        )


def _runs_scan(
    block: ir.Expr,
    begin: ir.Expr,
    *,
    fold: ir.Lambda,
    identity: ir.Literal,
    local: int,
    per: int,
    inclusive: bool,
    staging: tuple[bool, bool],
) -> ir.Expr:
    """A block of `local * per` values scanned from `begin`, `per` neighbouring values
    a work-item, written to global memory: copied to local memory first where
    `staging[0]` (neighbouring items copy neighbouring values), each item's run folded,
    the runs' totals scanned exclusively (`_block_scan`), then each run scanned in turn
    from `begin` folded with the runs before it, into local memory then copied out
    where `staging[1]`, else straight out."""
    v, loaded = ir.Param("v"), ir.Param("loaded")
    stage_in, stage_out = staging
    runs = ir.Apply(ir.Split(Size.of(per)), (loaded,))
    before = _block_scan(_runs_totals(runs, fold, identity), fold, identity, local,
                         inclusive=False, in_local=True)  # fmt: skip
    out = _runs_from(runs, begin, before, fold=fold, inclusive=inclusive, stage_out=stage_out)
    if not stage_in:
        return ir.Apply(ir.Lambda((loaded,), out), (block,))
    # The block is read from global memory once: bound, in local memory, by a lambda.
    copied = ir.Apply(ir.ToLocal(ir.MapLocal(0, ir.Lambda((v,), v))), (block,))
    return ir.Apply(ir.Lambda((loaded,), out), (copied,))


def _runs_totals(runs: ir.Expr, fold: ir.Lambda, identity: ir.Literal) -> ir.Expr:
    """Each work-item's run folded (reduce-seq), the totals in local memory."""
    run = ir.Param("run")
    fold_run = ir.Lambda((run,), ir.Apply(ir.ReduceSeq(fold, identity), (run,)))
    return ir.Apply(ir.Join(), (ir.Apply(ir.ToLocal(ir.MapLocal(0, fold_run)), (runs,)),))


def _runs_from(
    runs: ir.Expr,
    begin: ir.Expr,
    before: ir.Expr,
    *,
    fold: ir.Lambda,
    inclusive: bool,
    stage_out: bool,
) -> ir.Expr:
    """Each run scanned (scan-seq) from `begin` folded with the fold of the runs before
    it (`before`, an item's each), into global memory, or into local memory first and
    then copied out where `stage_out`."""
    q, v = ir.Param("q"), ir.Param("v")
    scan_seq = ir.InclusiveScanSeq if inclusive else ir.ScanSeq
    start = ir.Apply(fold, (begin, ir.Apply(ir.Get(1), (q,))))
    each = ir.Lambda((q,), ir.Apply(scan_seq(fold, start), (ir.Apply(ir.Get(0), (q,)),)))
    pairs = ir.Apply(ir.Zip(), (runs, before))
    if stage_out:
        scanned = ir.Apply(ir.Join(), (ir.Apply(ir.ToLocal(ir.MapLocal(0, each)), (pairs,)),))
        return ir.Apply(ir.ToGlobal(ir.MapLocal(0, ir.Lambda((v,), v))), (scanned,))
    return ir.Apply(ir.Join(), (ir.Apply(ir.ToGlobal(ir.MapLocal(0, each)), (pairs,)),))


def _shifted(xs: ir.Expr, by: int, identity: ir.Literal, length: int) -> ir.Expr:
    """xs (of `length` values) moved `by` places later, the identity before:
    (get 0 (slide length 1 (pad by 0 identity xs)))."""
    padded = ir.Apply(ir.Pad(by, Size.of(0), identity), (xs,))
    return ir.Apply(ir.Get(0), (ir.Apply(ir.Slide(length, 1), (padded,)),))


def _block_scan(
    block: ir.Expr,
    fold: ir.Lambda,
    identity: ir.Literal,
    local: int,
    inclusive: bool,
    *,
    in_local: bool = False,
) -> ir.Expr:
    """A block of `local` values scanned in local memory: copied there (unless it is
    there already, `in_local`: the runs' totals), then each step d = 1, 2, 4, ... folds
    into every value the one d before it (the identity before the first), each step into
    a new buffer; shifted by one for an exclusive scan."""

    def shifted(xs: ir.Expr, by: int) -> ir.Expr:
        return _shifted(xs, by, identity, local)

    v, q = ir.Param("v"), ir.Param("q")
    copy = ir.ToLocal(ir.MapLocal(0, ir.Lambda((v,), v)))
    step = ir.ToLocal(
        ir.MapLocal(
            0,
            ir.Lambda((q,), ir.Apply(fold, (ir.Apply(ir.Get(1), (q,)), ir.Apply(ir.Get(0), (q,))))),
        )
    )
    current: ir.Expr = block if in_local else ir.Apply(copy, (block,))
    distance = 1
    while distance < local:
        xs = ir.Param(f"x{distance}")
        following = ir.Apply(step, (ir.Apply(ir.Zip(), (xs, shifted(xs, distance))),))
        current = ir.Apply(ir.Lambda((xs,), following), (current,))
        distance *= 2
    return current if inclusive else shifted(current, 1)
