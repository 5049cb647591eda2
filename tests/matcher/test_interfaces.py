"""The interface of every exported idiom, read on corpus programs as a mapper reads it.

Each exported idiom documents, above its `Export`, the variables a mapper reads. These
tests detect corpus programs and check that those variables name the right values: the
loops' bounds, the arrays read and written, the accumulator and its operator, the bins,
the sparse formats' arrays, the stencil's output and its reads.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from matcher.detect import Instance, detect_module
from matcher.frontend import compile_to_ir
from matcher.integers import int_constant
from matcher.ir import Value
from matcher.ir_builder import build_module
from matcher.layout import outside_element
from matcher.pipeline import load_library

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
Solution = Mapping[str, Value | None]


@functools.cache
def detect(name: str) -> tuple[Instance, ...]:
    path = CORPUS / name
    module = build_module(compile_to_ir(path), str(path))
    return detect_module(module, load_library().exported_programs()).instances


def instance(name: str, idiom: str, function: str, line: int) -> Instance:
    (found,) = [
        i for i in detect(name) if i.idiom == idiom and i.function == function and i.line == line
    ]
    return found


def value(solution: Solution, key: str) -> Value:
    found = solution.get(key)
    assert found is not None, f"{{{key}}} is unused"
    return found


def names(solution: Solution, *keys: str) -> list[str]:
    return [value(solution, key).name for key in keys]


def line_of(solution: Solution, key: str) -> int | None:
    location = value(solution, key).location
    return location.line if location else None


def field_of(load: Value) -> tuple[str, int | float | None]:
    """The struct a value is loaded from, and the field's byte offset: (%s, 8) for s->f."""
    assert load.opcode == "load"
    address = load.operands[0]
    if address.opcode != "getelementptr":
        return address.name, 0
    return address.operands[0].name, address.operands[1].constant


def reads(solution: Solution, key: str = "array") -> list[str]:
    return sorted(
        v.name
        for k, v in solution.items()
        if v is not None and k.startswith("read[") and k.endswith(f"].{key}")
    )


def reduction_reads(solution: Solution) -> list[str]:
    """What the loads a Reduction checked (`read[k].value`) read: each address's
    getelementptrs followed to the pointer they start from (the idiom keeps no arrays:
    see OperandReads)."""
    return sorted(
        address_root(load).name
        for key, load in solution.items()
        if load is not None and key.startswith("read[") and key.endswith("].value")
    )


def address_root(load: Value) -> Value:
    """The pointer a load's getelementptrs start from."""
    address = load.operands[0]
    while address.opcode == "getelementptr":
        address = address.operands[0]
    return address


def operands_below(value: Value, depth: int) -> list[Value]:
    """`value` and what it is computed from, at most `depth` operations up."""
    found = [value]
    if depth > 0:
        for operand in value.operands:
            found += operands_below(operand, depth - 1)
    return found


def displaced(solution: Solution) -> list[Value]:
    """The stencil's reads whose address chain leaves, by a constant, the element or row
    it starts from (what `ChainOffset` asks of one read at least)."""
    found = []
    for key, load in sorted(solution.items()):
        if load is None or not (key.startswith("read[") and key.endswith("].value")):
            continue
        address = load.operands[0]
        while address.opcode == "getelementptr":
            if address.byte_offset is not None and outside_element(address, address.operands[0]):
                found.append(load)
                break
            address = address.operands[0]
    return found


# -- GEMM ---------------------------------------------------------------------------------


def test_gemm_alpha_beta_with_leading_dimensions() -> None:
    gemm = instance("gemm_alphabeta_macro.c", "GEMM", "dgemm_nn", 15)
    s = gemm.solution
    assert gemm.within is None
    assert names(s, "loop[0].iter_end", "loop[1].iter_end", "loop[2].iter_end") == [
        "%m",
        "%n",
        "%k",
    ]
    assert [value(s, f"loop[{k}].iter_begin").constant for k in range(3)] == [0, 0, 0]
    assert [value(s, f"loop[{k}].step").constant for k in range(3)] == [1, 1, 1]
    assert names(s, "a.array", "b.array", "c.array") == ["%a", "%b", "%c"]
    assert names(s, "alpha", "beta") == ["%alpha", "%beta"]
    c_old = value(s, "c_old")
    assert c_old.opcode == "load" and c_old.operands[0] is s["c.address"]
    assert value(s, "c.store").operands[1] is s["c.address"]
    assert value(s, "acc_init").constant == 0.0 and value(s, "update").opcode == "fadd"
    assert line_of(s, "a.value") == line_of(s, "b.value") == 19
    assert line_of(s, "c.store") == 20


def test_gemm_update_form_reads_factor_and_matrix() -> None:
    s = instance("gemm_ikj_flat_float.c", "GEMM", "sgemm_acc", 11).solution
    assert names(s, "loop[0].iter_end", "loop[1].iter_end", "loop[2].iter_end") == [
        "%m",
        "%p",
        "%n",
    ]
    assert names(s, "a.array", "b.array", "c.array") == ["%a", "%b", "%c"]
    assert value(s, "new_value").opcode == "fadd" and s["acc"] is None
    assert s["alpha"] is None
    assert value(s, "c_old").operands[0] is s["c.address"]


def test_gemm_bounds_and_data_in_struct_fields() -> None:
    # c->rows, c->cols, a->cols and a->v, b->v, c->v are loaded inside the nest: each
    # is a load from a field of the struct argument (offsets of struct dmat: 0 rows,
    # 4 cols, 8 ld, 16 v).
    s = instance("gemm_struct_bounds.c", "GEMM", "dmat_mul", 16).solution
    bounds = [field_of(value(s, f"loop[{k}].iter_end")) for k in range(3)]
    assert bounds == [("%c", 0), ("%c", 4), ("%a", 4)]
    arrays = [field_of(value(s, f"{x}.array")) for x in "abc"]
    assert arrays == [("%a", 16), ("%b", 16), ("%c", 16)]


# -- GEMV ---------------------------------------------------------------------------------


def test_gemv_alpha_beta() -> None:
    s = instance("gemv_alphabeta_macro.c", "GEMV", "dgemv_n", 12).solution
    assert names(s, "loop[0].iter_end", "loop[1].iter_end") == ["%m", "%n"]
    assert names(s, "a.array", "b.array", "c.array") == ["%a", "%x", "%y"]
    assert names(s, "alpha", "beta") == ["%alpha", "%beta"]
    assert value(s, "c_old").operands[0] is s["c.address"]
    assert line_of(s, "c.store") == 16


def test_gemv_inside_triangular_nest_has_the_row_bound() -> None:
    # syrk_lower: for fixed i the (j, k) nest is y[j] = A[j][:] . A[i][:] over j <= i.
    s = instance("nm_gemm_triangular.c", "GEMV", "syrk_lower", 24).solution
    bound = value(s, "loop[0].iter_end")  # j <= i: the enclosing loop's counter i
    assert bound.opcode == "phi" and bound is not s["loop[0].iterator"]
    assert value(s, "loop[0].comparison").operands[0] is s["loop[0].iterator"]
    assert names(s, "loop[1].iter_end") == ["%n"]
    assert {value(s, "a.array").name, value(s, "b.array").name} == {"%A"}
    assert names(s, "c.array") == ["%S"]


# -- Reduction ----------------------------------------------------------------------------


def test_reduction_select_maximum() -> None:
    s = instance("red_minmax.c", "Reduction", "max_abs_diff", 25).solution
    assert value(s, "update").opcode == "select"
    assert value(s, "compare").opcode == "fcmp"
    assert value(s, "acc").opcode == "phi" and value(s, "acc_init").constant == 0.0
    assert value(s, "operand").opcode == "call"  # fabs(x[i] - y[i])
    assert reduction_reads(s) == ["%x", "%y"]
    assert names(s, "iter_end") == ["%n"] and value(s, "step").constant == 1


def test_reduction_maximum_kept_in_a_global_and_replaced_under_a_test() -> None:
    # if (b > max_blocks) max_blocks = b; the loop also stores b into blocks[i]
    s = instance("red_global_extremum.c", "Reduction", "count_blocks", 12).solution
    assert names(s, "acc_address", "acc_array") == ["@max_blocks", "@max_blocks"]
    store, compare = value(s, "acc_store"), value(s, "compare")
    assert store.operands[0] is s["operand"] and store.operands[1] is s["acc_address"]
    assert compare.opcode == "icmp" and value(s, "test").operands[0] is compare
    assert value(s, "acc").opcode == "load" and line_of(s, "acc_store") == 16


def test_reduction_two_accumulators_counting_down() -> None:
    found = instance("red_minmax.c", "Reduction", "minmax", 11)
    assert len(found.solutions) == 2  # one solution per accumulator (mn and mx)
    callees = sorted(value(s, "update").callee or "" for s in found.solutions)
    assert callees == ["llvm.smax.i32", "llvm.smin.i32"]
    for s in found.solutions:
        assert value(s, "step").constant == -1 and value(s, "iter_end").constant == 0
        assert value(s, "iter_begin").opcode == "add"  # n - 1
        assert value(s, "acc_init").opcode == "load"  # a[n - 1]
        assert value(s, "operand").opcode == "load" and reduction_reads(s) == ["%a"]


def test_reduction_fmin_call_from_infinity() -> None:
    s = instance("red_minmax.c", "Reduction", "min_value", 36).solution
    update = value(s, "update")
    assert update.opcode == "call" and update.operands[1] is s["acc"]
    assert value(s, "acc_init").constant == float("inf")
    assert value(s, "operand").opcode == "load"


def test_reduction_reads_of_a_3d_array() -> None:
    # dsum += g0[k][k][k]: three getelementptrs, each indexed by k.
    found = [i for i in detect("stencil_3d27_global.c") if i.idiom == "Reduction"]
    (reduction,) = [i for i in found if i.function == "main" and i.line == 58]
    arrays = {name for s in reduction.solutions for name in reduction_reads(s)}
    assert arrays == {"@g0"}
    assert {value(s, "update").opcode for s in reduction.solutions} == {"fadd"}


# -- Histogram ----------------------------------------------------------------------------


def test_histogram_of_weights() -> None:
    s = instance("hist_weighted.c", "Histogram", "bin_weights", 9).solution
    assert names(s, "bins", "iter_end") == ["%h", "%n"]
    assert value(s, "bin_index").opcode == "sext"
    assert value(s, "new_count").opcode == "fadd"
    assert value(s, "old_count").operands[0] is s["bin_address"]
    assert value(s, "store").operands[1] is s["bin_address"]
    increment = value(s, "increment")  # w[i]
    assert increment.opcode == "load" and increment.operands[0].operands[0].name == "%w"


def test_spmv_coo_is_a_histogram_of_products() -> None:
    s = instance("hist_coo_spmv.c", "SpMV_COO", "coo_mv", 14).solution
    assert names(s, "bins", "iter_end", "x") == ["%y", "%nnz", "%x"]
    row = value(s, "bin_index").operands[0]  # t[k].row, sign-extended
    assert row.opcode == "load"
    assert value(s, "increment").opcode == "fmul"  # t[k].val * x[t[k].col]
    assert value(s, "coo_value").opcode == value(s, "column_read").opcode == "load"
    assert value(s, "gathered.value").operands[0].operands[0] is s["x"]


# -- SpMV ---------------------------------------------------------------------------------


def test_spmv_csr_in_a_struct() -> None:
    # The row offsets, column indices and values are pointer fields of *A, loaded again
    # on every row (offsets of CsrMatrix: 8 rowstart, 16 colind, 24 value).
    s = instance("csr_struct.c", "SpMV_CSR", "csr_apply", 17).solution
    fields = [field_of(value(s, key)) for key in ("row_ptr", "columns", "values")]
    assert fields == [("%A", 8), ("%A", 16), ("%A", 24)]
    assert names(s, "x", "y") == ["%x", "%y"]
    assert field_of(value(s, "row.iter_end")) == ("%A", 0)
    assert value(s, "entry.iter_begin").opcode == "load"  # rowstart[r]
    assert value(s, "entry.iter_end").opcode == "load"  # rowstart[r + 1]
    assert value(s, "final").opcode == "phi" and s["init_store"] is None
    assert value(s, "c.store").operands[0] is s["final"]


def test_spmv_csr_sum_kept_in_y() -> None:
    s = instance("csr_lcg_float.c", "SpMV_CSR", "spmv_csr_f", 16).solution
    assert names(s, "row_ptr", "columns", "values", "x", "y") == [
        "%rowptr",
        "%colidx",
        "%vals",
        "%x",
        "%y",
    ]
    init, store = value(s, "init_store"), value(s, "c.store")
    assert init.operands[1] is s["c.address"] is store.operands[1]
    assert init.operands[0] is s["acc_init"] and value(s, "acc_init").constant == 0.0
    assert store.operands[0] is s["update"] and s["final"] is None
    assert line_of(s, "init_store") == 17 and line_of(s, "c.store") == 19


def test_spmv_csr_one_based() -> None:
    # for (k = ia[i-1]; k < ia[i]; k++) t += a[k-1] * x[ja[k-1]-1]; y[i-1] = t;
    s = instance("csr_one_based.c", "SpMV_CSR", "amux", 12).solution
    assert names(s, "row_ptr", "values", "columns", "x", "y") == ["%ia", "%a", "%ja", "%x", "%y"]
    assert int_constant(value(s, "position_shift.shift_by")) == -1  # a[k - 1]
    assert int_constant(value(s, "first_row.shift_by")) == -1  # ia[i - 1]
    assert int_constant(value(s, "y_row.shift_by")) == -1  # y[i - 1]
    # x[ja[k-1] - 1]: LLVM folds the -1 into the address, 8 bytes back
    assert int_constant(value(s, "gathered.shift_bytes")) == -8


def test_spmv_csr_rows_in_tables() -> None:
    # v = A->vals_in_row[i]; c = A->inds_in_row[i]; m = A->nnz_in_row[i]; j < m: v[j] * x[c[j]]
    s = instance("csr_row_tables.c", "SpMV_CSR", "sparsemv", 21).solution
    tables = [
        value(s, key) for key in ("matrix.row_pointer.table", "column_load.row_pointer.table")
    ]
    assert [field_of(table) for table in tables] == [("%A", 16), ("%A", 24)]
    assert field_of(value(s, "lengths")) == ("%A", 8)
    assert value(s, "values").opcode == value(s, "columns").opcode == "load"
    assert value(s, "entry.iter_begin").constant == 0
    assert s["row_ptr"] is None


def test_spmv_ell_by_columns() -> None:
    # sum += val[j*n + i] * x[col[j*n + i]] for j < w
    s = instance("ell_columns_float.c", "SpMV_ELL", "ell_spmv_cols", 10).solution
    assert names(s, "values", "columns", "x", "y") == ["%val", "%col", "%x", "%y"]
    assert names(s, "entry.iter_end") == ["%w"]
    assert value(s, "position").opcode in ("add", "sext", "zext")  # j*n + i


def test_spmv_jds_permuted_rows() -> None:
    s = instance("jds_basic.c", "SpMV_JDS", "spmv_jds", 11).solution
    assert names(s, "perm", "jd_ptr", "values", "columns", "x", "y") == [
        "%perm",
        "%jd_ptr",
        "%data",
        "%idx",
        "%x",
        "%y",
    ]
    assert names(s, "row.iter_end") == ["%n"]
    nzcnt = value(s, "diagonal.iter_end")  # nzcnt[r]
    assert nzcnt.opcode == "load" and nzcnt.operands[0].operands[0].name == "%nzcnt"
    assert value(s, "update").opcode == "fadd"


def test_spmv_jds_in_a_struct() -> None:
    # struct jds: 8 perm, 16 nzcnt, 24 jd_ptr, 32 col, 40 val.
    s = instance("jds_struct.c", "SpMV_JDS", "jds_mul", 19).solution
    fields = [field_of(value(s, key)) for key in ("perm", "jd_ptr", "columns", "values")]
    assert fields == [("%A", 8), ("%A", 24), ("%A", 32), ("%A", 40)]
    assert names(s, "x", "y") == ["%x", "%y"]


# -- Stencil ------------------------------------------------------------------------------


def test_stencil_2d_on_global_arrays() -> None:
    stencil = instance("stencil_2d5_global.c", "Stencil", "jacobi5", 15)
    s = stencil.solution
    assert stencil.within is None
    assert names(s, "out.array") == ["%out"]
    assert reads(s) == ["%in", "%in", "%in", "%in", "@f"]
    assert value(s, "store").operands[1] is s["out.address"] and line_of(s, "store") == 17
    assert value(s, "loop[0].iter_begin").constant == value(s, "loop[1].iter_begin").constant == 1
    assert value(s, "inner.iterator") is s["loop[1].iterator"]
    # in[i-1][j], in[i+1][j] and in[i][j-1] are displaced by a constant in their chains;
    # in[i][j+1] by its index j+1.
    shifted = displaced(s)
    assert len(shifted) == 3 and all(v.opcode == "load" for v in shifted)
    assert value(s, "shifted_index[0]").operands[0].opcode == "add"


def test_stencil_3d_reads_all_27_points() -> None:
    s = instance("stencil_3d27_global.c", "Stencil", "smooth27", 15).solution
    assert names(s, "out.array") == ["%out"]
    assert reads(s) == ["%in"] * 27
    assert [value(s, f"loop[{k}].iter_end").name for k in range(3)] == ["%sub"] * 3


def test_stencil_pointer_to_pointer_rows() -> None:
    s = instance("stencil_2d5_int_rows.c", "Stencil", "smooth_img", 9).solution
    assert names(s, "out.array") == ["%dst"]
    assert reads(s) == ["%src"] * 5
    assert value(s, "stored").opcode == "sdiv"  # (...) / 8


def test_stencil_flattened_3d_with_index_macro() -> None:
    s = instance("stencil_3d7_heat.c", "Stencil", "heat7", 11).solution
    assert names(s, "out.array") == ["%out"] and reads(s) == ["%in"] * 7
    assert [value(s, f"loop[{k}].iter_end").opcode for k in range(3)] == ["add"] * 3


def test_stencil_over_records_is_displaced_by_whole_records() -> None:
    # c[i] = p[i-1].x - 2 p[i].x + p[i+1].x over 32-byte records: p[i-1] lies 32 bytes
    # before the record p + i, outside it; p[i+1] is at the index i+1.
    s = instance("nm_stencil_fields.c", "Stencil", "curvature", 60).solution
    assert names(s, "out.array") == ["%c"] and reads(s) == ["%p"] * 3
    shifted = displaced(s)
    assert [v.operands[0].byte_offset for v in shifted] == [-32]
    assert [v.operands[0].operands[0].pointee_size for v in shifted] == [32]
    assert value(s, "shift_offset[0]").constant == 1


def test_stencil_counting_down_reads_neighbours() -> None:
    # b[i] = (a[i-1] + 2 a[i] + a[i+1]) / 4 for i from n-2 down to 1.
    s = instance("nm_stencil_fields.c", "Stencil", "smooth_down", 67).solution
    assert names(s, "out.array") == ["%b"] and reads(s) == ["%a"] * 3
    shifted = displaced(s)
    assert sorted(v.operands[0].byte_offset or 0 for v in shifted) == [-8, 8]


# -- Accumulators in memory, loops that also store elsewhere -------------------------------


def test_reduction_into_an_array_of_sums_indexed_by_an_inner_loop() -> None:
    # rms[m] = rms[m] + grid[k][j][i][m]^2 for m < 5, over the whole (k, j, i) sweep.
    s = instance("red_memory.c", "Reduction", "residual_norms", 21).solution
    acc, store = value(s, "acc"), value(s, "acc_store")
    assert acc.opcode == "load" and s["acc_init"] is None
    assert acc.operands[0] is s["acc_address"] is store.operands[1]
    assert store.operands[0] is s["update"] is s["fold"] and value(s, "fold").opcode == "fadd"
    assert names(s, "acc_array") == ["%rms"]
    assert value(s, "acc_lane").operands[0] is s["lane.iterator"]
    assert value(s, "lane.iter_end").constant == 4  # m < 5, compared as m <= 4
    assert reduction_reads(s) == ["@grid"]


def test_reduction_written_back_on_every_trip() -> None:
    # *total += a[i] * w[i]: LLVM keeps the total in a phi and stores it on every trip.
    s = instance("red_memory.c", "Reduction", "weighted_total", 36).solution
    assert value(s, "acc").opcode == "phi" and value(s, "acc_init").opcode == "load"
    assert value(s, "acc_store").operands[0] is s["update"]
    assert names(s, "acc_array") == ["%total"] and reduction_reads(s) == ["%a", "%w"]
    found = instance("red_memory.c", "Reduction", "accumulate_stats", 43)
    fields = sorted(field_of(value(x, "acc_init")) for x in found.solutions)
    assert fields == [("%st", 8), ("%st", 16)]


def written(solution: Solution, prefix: str = "write") -> list[str]:
    """The arrays (or scalars) a reduction's other stores write."""
    found = []
    for key, store in solution.items():
        if store is not None and key.startswith(f"{prefix}[") and key.endswith("].store"):
            address = store.operands[1]
            found.append(address.operands[0].name if address.opcode else address.name)
    return sorted(found)


def test_reductions_and_histogram_of_a_loop_that_stores_elsewhere() -> None:
    # gauss_pairs: q[l] += 1 and the sums sx, sy (updated on the accepted trials only)
    # in one loop that also stores each trial's radius into a global.
    histogram = instance("red_side_stores.c", "Histogram", "gauss_pairs", 16)
    s = histogram.solution
    assert names(s, "bins") == ["%q"] and value(s, "increment").constant == 1.0
    assert written(s, "other_write") == ["@last_radius"]
    (reduction,) = [
        i for i in detect("red_side_stores.c") if i.idiom == "Reduction" and i.line == 16
    ]
    assert reduction.within is not None and len(reduction.solutions) == 2
    for x in reduction.solutions:
        update, fold = value(x, "update"), value(x, "fold")
        assert update.opcode == "phi" and fold.opcode == "fadd" and update is not fold
        # x's two reads feed the sum; q's, the histogram's, does not
        assert value(x, "operand").opcode == "fmul" and reduction_reads(x) == ["%q", "%x", "%x"]
        assert written(x) == ["%q", "@last_radius"]


def test_reduction_beside_a_maximum_kept_through_a_pointer() -> None:
    s = instance("red_side_stores.c", "Reduction", "norm_and_max", 40).solution
    assert value(s, "fold").opcode == "fadd" and s["acc_store"] is None
    assert written(s) == ["%mx"]


def test_histogram_with_a_bound_read_again_on_every_trip() -> None:
    # for (k = first; k < end[b]; k++) counts[key[k]]++: end[b] is loaded on every trip
    # (counts and end are both int: the store may change it, as far as LLVM knows).
    s = instance("hist_saturate_rows.c", "Histogram", "count_per_bucket", 25).solution
    bound = value(s, "iter_end")
    assert bound.opcode == "load" and bound.block is s["end"].block
    assert bound.operands[0].operands[0].name == "%end"
    assert names(s, "bins") == ["%counts"]


def test_saturating_histogram_tests_the_old_count() -> None:
    s = instance("hist_saturate_rows.c", "Histogram", "saturating_histogram", 13).solution
    test = value(s, "old_count_use[0]")
    assert test.opcode == "icmp" and value(s, "old_count_use[1]") is s["new_count"]


def test_reduction_reading_at_coordinates_clipped_to_the_image() -> None:
    # sad += abs(cur[(by + y) * w + bx + x] - ref[ry * w + clip(bx + dx + x)])
    s = instance("red_clamped.c", "Reduction", "block_sad", 16).solution
    assert reduction_reads(s) == ["%cur", "%ref"] and value(s, "operand").callee == "llvm.abs.i32"
    # ref's index is clipped: an llvm.smin in its address, which the idiom accepted
    (ref,) = [
        v for k, v in s.items() if k.endswith("].value") and v and address_root(v).name == "%ref"
    ]
    assert "llvm.smin.i32" in {v.callee for v in operands_below(ref.operands[0], 6)}


def test_histogram_whose_bin_comes_from_a_search() -> None:
    # A binary search over the edges (an inner loop) finds the bin; one of three updates
    # of bins[] adds 1 to it.
    s = instance("hist_search.c", "Histogram", "pair_histogram", 16).solution
    assert names(s, "bins") == ["%bins"] and value(s, "increment").constant == 1
    latch = value(s, "body.inner_latch[0]")
    assert latch.opcode == "br" and latch.location is not None and latch.location.line == 19
    others = [v for k, v in s.items() if k.startswith("other_write[") and k.endswith("].store")]
    updates = [v for v in others if v is not None]
    assert len(updates) == 2
    for k in range(2):
        assert value(s, f"other_write[{k}].new_count").opcode == "add"
        assert names(s, f"other_write[{k}].array") == ["%bins"]


def test_histogram_of_a_value_read_again_into_a_bin_one_past() -> None:
    # rowptr[cols[i][e] + 1] += len[i]: LLVM carries len[i], loaded for the loop's test,
    # over to the next trip as a phi; the +1 is a getelementptr of its own.
    s = instance("hist_saturate_rows.c", "Histogram", "count_rows", 34).solution
    increment = value(s, "increment")
    assert increment.opcode == "phi" and value(s, "iter_end").opcode == "load"
    assert {v.opcode for v, _ in increment.incoming} == {"load"}
    assert names(s, "bins") == ["%rowptr"] and value(s, "bin_offset").constant == 4
    assert value(s, "bin_address").operands[0] is s["bin_element"]


def test_reduction_whose_loop_calls_a_scratch_filler() -> None:
    # err[v] += (u[..] - q[v])^2, q filled by exact(i * hx, j * hy, q) at every point.
    s = instance("red_scratch.c", "Reduction", "error_norms", 42).solution
    call = value(s, "call[0]")
    assert call.callee == "exact" and [a.name for a in call.fills] == ["%q"]
    assert names(s, "acc_array") == ["%err"]
    # The operand's reads: u and the scratch array.
    arrays = set(reduction_reads(s))
    assert "%q" in arrays and "%u" in arrays


def test_reduction_of_eight_accumulators_over_the_values_of_a_cell() -> None:
    found = instance("red_cell_statistics.c", "Reduction", "cell_statistics", 28)
    assert len(found.solutions) == 8  # mass, the extremes of rho and u2, three counts
    counts = [s for s in found.solutions if value(s, "update").opcode == "phi"]
    # each count is decided by the cell's flag, read from the cells it sums
    assert counts and all(value(s, "loop_test[0]").opcode == "icmp" for s in counts)


def test_a_count_decided_by_a_value_of_an_array_the_loop_writes_is_no_reduction() -> None:
    assert not [
        i
        for i in detect("nm_red_cell_statistics_written.c")
        if i.idiom == "Reduction" and i.function == "cell_statistics_rescale"
    ]


def test_a_test_deciding_another_accumulator_does_not_refuse_the_others() -> None:
    found = instance("red_block_plan.c", "Reduction", "plan_row", 19)
    # the sum of integrals, the total of blocks, their maximum (a global under a test)
    assert len(found.solutions) == 3
