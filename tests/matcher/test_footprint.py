"""What loads and stores touch: counter ranges proved from constants, and the overlaps of
accesses taken apart as base + index * element + offset (matcher.footprint)."""

from __future__ import annotations

from solver_testkit import compiled_c, function_of, ir_function

from matcher.footprint import Footprints, point_stride
from matcher.function_index import index_of
from matcher.integers import counter_range
from matcher.ir import Function, Value

LOOPS = """
void up(float *a) { for (int i = 0; i < 100; i += 4) a[i] = a[i + 200]; }
void up_le(float *a) { for (int i = 8; i <= 96; i += 8) a[i] = 1.0f; }
void down(float *a) { for (int i = 99; i >= 0; i--) a[i] = 2.0f; }
void down_unsigned(float *a) { for (unsigned i = 50; i > 0; i -= 5) a[i] = 3.0f; }
void not_equal(float *a) { for (long i = 3; i != 43; i += 4) a[i] = 0.0f; }
void variable(float *a, int n) { for (int i = 0; i < n; i++) a[i] = 0.0f; }
void wraps(float *a) {
    for (int i = 2147483000; i < 2147483647; i += 1000) a[i - 2147483000] = 0.0f;
}
"""

# Planes of 4 x 5 records of 3 floats: the first plane written from the next two, in place
# (an inflow boundary); the last plane from the one before; the first plane from itself
# shifted by one record (never apart); a sweep whose bound is not a constant.
PLANES = """
#define REC 3
#define PLANE (4 * 5 * REC)
void inflow(float *g) {
    for (int i = 0; i < PLANE; i += REC) {
        g[i + 0] = g[i + PLANE + 0] + g[i + 2 * PLANE + 1];
        g[i + 1] = g[i + PLANE + 2] - g[i + 2 * PLANE + 0];
    }
}
void outflow(float *g) {
    for (int i = 3 * PLANE; i < 4 * PLANE; i += REC)
        g[i + 2] = 2.0f * g[i - PLANE + 2] - g[i - 2 * PLANE + 2];
}
void shifted(float *g) {
    for (int i = 0; i < PLANE; i += REC)
        g[i] = g[i + REC + 1] + g[i + PLANE];
}
void unbounded(float *g, int n) {
    for (int i = 0; i < n; i += REC)
        g[i] = g[i + PLANE] + g[i + 1];
}
"""


def _counter(function: Function) -> Value:
    (phi,) = [v for v in function.instructions if v.opcode == "phi"]
    return phi


def test_counter_ranges_from_constants() -> None:
    module = compiled_c(LOOPS)
    ranges = {f.name: counter_range(f, _counter(f)) for f in module}
    assert ranges == {
        "up": (0, 96, 4),
        "up_le": (8, 96, 8),
        "down": (0, 99, -1),
        "down_unsigned": (5, 50, -5),
        "not_equal": (3, 39, 4),
        "variable": None,  # the bound is not a constant
        "wraps": None,  # the next value would pass the largest i32
    }
    assert point_stride(_counter(function_of(module, "up"))) == 4


def _accesses(function: Function) -> tuple[list[Value], list[Value]]:
    loads = [v for v in function.instructions if v.opcode == "load"]
    stores = [v for v in function.instructions if v.opcode == "store"]
    return loads, stores


def test_planes_written_from_other_planes_never_overlap() -> None:
    module = compiled_c(PLANES)
    for name in ("inflow", "outflow"):
        function = function_of(module, name)
        prints = index_of(function).footprints
        loads, stores = _accesses(function)
        assert loads and stores
        assert all(prints.never_overlap(a, b) for a in loads for b in stores), name
        assert all(prints.never_overlap(b, a) for a in loads for b in stores), name


def test_reads_of_the_plane_written_overlap() -> None:
    module = compiled_c(PLANES)
    shifted = function_of(module, "shifted")
    prints = Footprints(shifted)
    loads, (store,) = _accesses(shifted)
    # g[i + REC + 1] is field 1 of the next record: never written (field 0 only is).
    # g[i + PLANE] lies beyond the counter's range: never written either.
    assert [prints.never_overlap(load, store) for load in loads] == [True, True]
    unbounded = function_of(module, "unbounded")
    prints = Footprints(unbounded)
    loads, (store,) = _accesses(unbounded)
    # Without a constant bound the next plane may be written too; field 1 never is.
    offsets = [prints.of(load) for load in loads]
    assert [f.offset if f else None for f in offsets] == [4 * 60, 4]
    assert [prints.never_overlap(load, store) for load in loads] == [False, True]


def test_answers_remembered_per_pair_are_each_pairs_own() -> None:
    # One Footprints answers a search's repeated questions from memory; every pair, asked
    # in any order and again, gets the answer a fresh Footprints gives it alone.
    for name in ("shifted", "unbounded", "inflow"):
        function = function_of(compiled_c(PLANES), name)
        loads, stores = _accesses(function)
        accesses = loads + stores
        pairs = [(a, b) for a in accesses for b in accesses]
        alone = [Footprints(function).never_overlap(a, b) for a, b in pairs]
        shared = Footprints(function)
        for _ in range(2):
            assert [shared.never_overlap(a, b) for a, b in pairs] == alone, name
        assert True in alone and False in alone, name


def test_an_access_overlaps_itself_and_same_address() -> None:
    function = function_of(compiled_c(PLANES), "inflow")
    prints = Footprints(function)
    _, stores = _accesses(function)
    assert not prints.never_overlap(stores[0], stores[0])
    assert prints.same_address(stores[0], stores[0])
    assert not prints.same_address(stores[0], stores[1])
    assert prints.never_overlap(stores[0], stores[1])  # fields 0 and 1 of every record


# Cells of 8 doubles in a padded 3D grid indexed through a macro, as corpus
# stencil_lbm_duct.c: LLVM drops the flags of `y * 50 + 2500` when it reassociates, and
# only the counters' ranges show that nothing wraps. The plane z = 1 is written from
# planes 2 and 3 (apart), or from its own neighbours along x (not apart).
DUCT = """
#define CELL(x, y, z) ((((z) * 50 + (y)) * 50 + (x)) * 8)
void inlet(double *g) {
    for (int y = 1; y <= 48; y++)
        for (int x = 1; x <= 48; x++) {
            int c = CELL(x, y, 1);
            g[c + 3] = g[c + 20000 + 3] + g[c + 40000 + 1];
        }
}
void along_x(double *g) {
    for (int y = 1; y <= 48; y++)
        for (int x = 1; x <= 48; x++) {
            int c = CELL(x, y, 1);
            g[c + 3] = g[c + 8 + 3] + g[c + 20000];
        }
}
void strided(float *a, int n, int m) {
    for (int y = 0; y < n; y++)
        for (int x = 0; x < m; x++)
            a[y * 400 + x * 20] = 1.0f;
}
"""

# Hand-written IR: adds of a constant with `nuw` but no `nsw` under a sext are exact
# only where the counter's range keeps every partial sum a non-negative i32; elsewhere
# the add is the root (an opaque value: nothing is proved about it).
OFFSETS = """
define void @offsets(ptr %g) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %near = add nuw i32 %i, 100
  %near.x = sext i32 %near to i64
  %near.p = getelementptr inbounds float, ptr %g, i64 %near.x
  store float 1.0, ptr %near.p
  %far = add nuw i32 %i, 2147483000
  %far.x = sext i32 %far to i64
  %far.p = getelementptr inbounds float, ptr %g, i64 %far.x
  store float 2.0, ptr %far.p
  %back = add nsw i32 %i, -10
  %up = add nuw i32 %back, 20
  %up.x = sext i32 %up to i64
  %up.p = getelementptr inbounds float, ptr %g, i64 %up.x
  store float 3.0, ptr %up.p
  %next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %next, 1000
  br i1 %more, label %loop, label %done

done:
  ret void
}
"""


def test_planes_of_a_padded_grid_never_overlap() -> None:
    module = compiled_c(DUCT)
    inlet = function_of(module, "inlet")
    prints = Footprints(inlet)
    loads, (store,) = _accesses(inlet)
    assert len(loads) == 2
    assert all(prints.never_overlap(load, store) for load in loads)
    along_x = function_of(module, "along_x")
    prints = Footprints(along_x)
    loads, (store,) = _accesses(along_x)
    # g[c + 11] is field 3 of the next cell along x, which the sweep writes too.
    assert [prints.never_overlap(load, store) for load in loads] == [False, True]


def test_strides_through_exact_arithmetic() -> None:
    function = function_of(compiled_c(DUCT), "strided")
    (store,) = _accesses(function)[1]
    address = store.operands[1]
    # y * 400 + x * 20 with unknown bounds: the point moves by multiples of 20 floats.
    assert address.opcode == "getelementptr"
    assert point_stride(address.operands[1]) == 20


def test_constants_added_without_nsw_need_the_counters_range() -> None:
    function = ir_function(OFFSETS)
    prints = Footprints(function)
    near, far, up = _accesses(function)[1]
    found = prints.of(near)
    assert found is not None and found.casts == () and found.offset == 400
    # i + 2147483000 passes the largest i32; i - 10 is negative for the first ten trips.
    for store, name in ((far, "%far"), (up, "%up")):
        found = prints.of(store)
        assert found is not None and found.root is not None and found.root.name == name
        assert found.casts == ("sext",) and found.offset == 0
        assert not prints.never_overlap(near, store)


# Grids of records of 5 doubles in C's array types, as CFD codes write them: a global
# pointer to the grid (reloaded inside the nest), and a grid on the stack of the caller.
RECORDS = """
static double (*rhs)[8][8][5];
int bound;
void components(void) {
    for (int k = 1; k < bound; k++)
        for (int j = 1; j < 7; j++)
            for (int i = 1; i < 7; i++) {
                rhs[k][j][i][0] = rhs[k][j][i][0] + rhs[k][j][i][2];
                rhs[k][j][i][1] = rhs[k][j][i][1] * 2.0;
            }
}
void pairs(int n, double *u, const double *z) {
    for (int i = 0; i < n; i++) {
        u[2 * i] = u[2 * i] + z[i];
        u[2 * i + 1] = u[2 * i + 1] + 0.5 * (z[i] + z[i + 1]);
    }
}
void odd_rows(int n, int m, double *u) {
    for (int r = 0; r < n; r++)
        for (int i = 0; i < n; i++) {
            u[(2 * r + 1) * m + 2 * i] = 1.0;
            u[(2 * r + 1) * m + 2 * i + 1] = 2.0;
        }
}
void pitched_rows(int n, int m, double *u) {
    for (int r = 0; r < n; r++)
        for (int i = 0; i < n; i++) {
            u[r * m + 2 * i] = 1.0;
            u[r * m + 2 * i + 1] = 2.0;
        }
}
void odd_planes(int n, int m, double u[][m][m]) {
    for (int p = 0; p < n; p++)
        for (int r = 0; r < n; r++)
            for (int i = 0; i < n; i++) {
                u[2 * p + 1][2 * r][2 * i] = 1.0;
                u[2 * p + 1][2 * r][2 * i + 1] = 2.0;
            }
}
void neighbours(double g[8][8][5]) {
    for (int j = 1; j < 7; j++)
        for (int i = 1; i < 7; i++)
            g[j][i][0] = g[j][i - 1][1] + g[j - 1][i][0];
}
"""


def test_fields_of_records_never_overlap_whichever_records() -> None:
    components = function_of(compiled_c(RECORDS), "components")
    prints = Footprints(components)
    loads, stores = _accesses(components)
    record_loads = [load for load in loads if load.type == "double"]
    # rhs[k][j][i][0] and [1]: origin + 40 x + 0 and origin + 40 y + 8 for any x and y.
    assert prints.never_overlap(stores[0], stores[1])
    # Each read of the point's own fields has the address of one store and never
    # touches the other's field; field 2 is never written.
    for load in record_loads:
        same = [prints.same_address(load, store) for store in stores]
        apart = [prints.never_overlap(load, store) for store in stores]
        assert [s or a for s, a in zip(same, apart, strict=True)] == [True, True]
    assert sum(prints.same_address(load, stores[0]) for load in record_loads) == 1


def test_fields_read_from_neighbouring_records_may_be_written() -> None:
    neighbours = function_of(compiled_c(RECORDS), "neighbours")
    prints = Footprints(neighbours)
    loads, (store,) = _accesses(neighbours)
    # g[j][i-1][1] is another field: never written; g[j-1][i][0] is field 0 of a record
    # the nest writes.
    assert [prints.never_overlap(load, store) for load in loads] == [True, False]


def test_pairs_of_a_flat_array_never_overlap_unless_rows_shift_them() -> None:
    module = compiled_c(RECORDS)
    pairs = function_of(module, "pairs")
    prints = Footprints(pairs)
    _, stores = _accesses(pairs)
    # u[2i] and u[2i + 1]: origin + 16 x + 0 and origin + 16 y + 8.
    assert prints.never_overlap(stores[0], stores[1])
    # Rows (2r + 1) * m: two of them are 2 (r - r') m apart, an even number of elements
    # whatever m is, so the pairs stay pairs; so do the odd planes of a grid of
    # variable-length rows, u[2p + 1][2r][2i] (a chain of three indices).
    for name in ("odd_rows", "odd_planes"):
        function = function_of(module, name)
        _, stores = _accesses(function)
        assert Footprints(function).never_overlap(stores[0], stores[1]), name
    # Rows r * m: an odd m moves the pairs of the next row by one element.
    pitched = function_of(module, "pitched_rows")
    _, stores = _accesses(pitched)
    assert not Footprints(pitched).never_overlap(stores[0], stores[1])
