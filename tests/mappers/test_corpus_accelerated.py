"""Generated from corpus/: every program, accelerated, prints what the original prints.

Run at the corpus's test sizes on PoCL, with the size thresholds at 1 so that the
replacements really run (see tests/mappers/test_accelerate.py for the guards).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mappers.accelerate import accelerate
from matcher.expectations import read_program
from matcher.frontend import CXX_SUFFIXES, CompileOptions, find_tool
from measure.ceiling import read_stats
from measure.compare import first_difference, program_tolerance

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PROGRAMS = sorted(p for p in CORPUS.iterdir() if p.suffix in {".c", ".cpp"})
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}
# The runtime calls that show a replaced idiom ran (IDIOM_STATS records).
CALLS = {
    "GEMM": ("gemm", "gemm_rows"),  # a product, or a batch of rows in place
    "GEMV": ("gemv", "gemv2", "gemv_sum"),  # one product, a pair of one sweep, or combined
    "SYMM": "symm",
    "SYRK": "syrk",
    "SYR2K": "syr2k",
    "TRMM": "trmm",
    "TRSV": "trsv",
    "GER": "ger",
    "Reduction": "idiom_reduce",
    "Stencil": "idiom_stencil",
    "Histogram": "idiom_histogram",
    "Scan": ("idiom_scan_chunks", "idiom_scan_chained"),  # two kernels, or one pass
    "SpMV_CSR": "idiom_spmv",
    "SpMV_JDS": "idiom_jds_spmv",
    "SpMV_ELL": "idiom_spmv",
    "SpMV_COO": "idiom_histogram",
    "Map": "idiom_map",
}

# Idioms that must be replaced, every instance of them, in these programs (others may
# legitimately stay as they are: the report says why); a mapper's regression would
# otherwise only show as a runtime call fewer.
MUST_REPLACE = {
    "hist_range.c": {"Histogram"},  # conditional updates
    # reads under the test and the counter used as a value, the active iterations first
    "hist_positions_masked.c": {"Histogram"},
    "hist_shifted_bins.c": {"Histogram"},  # bins moved by a constant or by a second part
    "gemm_struct_bounds.c": {"GEMM"},  # bounds, leading dimensions, arrays in struct fields
    "csr_struct.c": {"SpMV_CSR"},  # arrays in struct fields, read only for rows with entries
    "csr_banded.c": {"SpMV_CSR"},
    "csr_matrix.cpp": {"SpMV_CSR"},
    "jds_basic.c": {"SpMV_JDS"},
    "jds_matrix.cpp": {"SpMV_JDS"},
    "jds_struct.c": {"SpMV_JDS"},  # arrays in struct fields, read only for rows with diagonals
    # five updated components per point, bounds from a reloaded global array, 4 loops
    "stencil_rhs_grid.c": {"Stencil"},
    "stencil_update_class.cpp": {"Stencil"},  # the point's own element updated
    "stencil_pencil_rows.c": {"Stencil"},  # five coefficients per point from 1D lines
    "stencil_flux_buffer.c": {"Stencil"},  # counters from a global, a buffer of records
    # 75 stores and 125 loads per point; `tmp1 = dt * tx1` stored after the loop
    "stencil_block_lhs.c": {"Stencil"},
    "stencil_block_lhs_params.c": {"Stencil"},
    "stencil_prolong_pairs.c": {"Stencil"},  # pairs of fine points, 2i and 2i + 1
    "stencil_prolong_odd.c": {"Stencil"},  # pairs of the odd rows (2j + 1) * n, any n
    "stencil_two_arrays.c": {"Stencil"},  # two arrays written from one neighbourhood
    "csr_one_based.c": {"SpMV_CSR"},  # ia[i-1] .. ia[i], a[k-1], x[ja[k-1]-1], y[i-1]
    "csr_one_based_f2c.c": {"SpMV_CSR"},  # --a; --ja; ... then 1-based indices
    "csr_one_based_float.cpp": {"SpMV_CSR"},
    "ell_rows.c": {"SpMV_ELL"},  # val[i*w + j]
    "ell_columns_float.c": {"SpMV_ELL"},  # val[j*n + i]
    "ell_struct.cpp": {"SpMV_ELL"},
    "csr_row_tables.c": {"SpMV_CSR"},  # rows in tables of pointers and lengths, one block
    "csr_row_tables.cpp": {"SpMV_CSR"},
    "hist_coo_spmv.c": {"SpMV_COO"},  # y[t[k].row] += t[k].val * x[t[k].col]
    "coo_arrays.c": {"SpMV_COO"},
    "coo_matrix.cpp": {"SpMV_COO"},
    # products kept in memory (arguments that may alias), or two combined after one loop
    "gemv_bicg_memory_2d.c": {"GEMV"},
    "gemv_atax_memory_flat_float.c": {"GEMV"},
    "gemv_sum_2d.c": {"GEMV"},
    "gemv_sum_class.cpp": {"GEMV"},
    "symm_2d.c": {"SYMM"},
    "symm_flat_float_inline.c": {"SYMM"},  # a constant alpha moved onto the sum's exit edge
    "symm_class.cpp": {"SYMM"},
    "symm_upper_2d.c": {"SYMM"},  # A's upper triangle, the rows counting down
    "symm_upper_flat_float_inline.c": {"SYMM"},
    "symm_upper_rows.c": {"SYMM"},
    "symm_right_2d.c": {"SYMM"},  # A on the right: C and B indexed [i][k]
    "symm_right_flat_float_inline.c": {"SYMM"},
    "symm_right_class.cpp": {"SYMM"},  # on the right from the upper triangle
    "gemm_batched_3d.c": {"GEMM"},  # rows of a batch in place (doitgen)
    "map_cg_vectors.c": {"Map"},  # two arrays written in one loop
    "map_vector_class.cpp": {"Map"},
    "map_grid_2d.c": {"Map"},
    "gemm_batched_flat_float_inline.c": {"GEMM"},
    "gemm_batched_class.cpp": {"GEMM"},  # a std::vector of sums, its data loaded twice
    "trmm_unsigned_flat.c": {"TRMM"},  # unsigned counters, alpha read through a pointer
    "trmm_sizet_2d_inline.c": {"TRMM"},  # size_t counters, a static kernel inlined
    "trsv_down_class.cpp": {"TRSV"},  # inner loops counting down
    "gemm_batched_rows.c": {"GEMM"},  # a table of rows picked by both batch loops
    "gemm_batched_accessor.cpp": {"GEMM"},  # at(r, q, p) defined in the class body
    "gemm_class_bounds.cpp": {"GEMM", "GEMV"},  # bounds read from the objects in the nest
    "gemm_batched_vector_sums.cpp": {"GEMM"},  # sums zeroed and summed through two loads
    # strict triangles whose row loop runs over every row: LLVM leaves it early on the last
    "corr_all_rows_2d.c": {"SYRK"},
    "corr_all_rows_flat_float.c": {"SYRK"},
    "corr_all_rows_ptrs.c": {"SYRK"},
    "corr_all_rows_class.cpp": {"SYRK"},  # its fields too, loaded under the row test
    "corr_class.cpp": {"SYRK"},  # fields loaded only where the strict triangle's row runs
    # the same for SYR2K: the diagonal set by the row loop, the sum mirrored
    "syr2k_coupling_2d.c": {"SYR2K"},  # a static kernel inlined, summed in a local
    "syr2k_coupling_flat_float.c": {"SYR2K"},  # float, summed in C, A and B read transposed
    "trmm_ikj_flat.c": {"TRMM"},  # i-k-j, the row loop top-tested
    "trmm_ikj_rows_float.c": {"TRMM"},  # i-k-j, row tables, the rows counting down
    "trmm_ikj_2d_inline.c": {"TRMM"},  # i-k-j, A read transposed, a static kernel inlined
    "trmm_cols_flat.c": {"TRMM"},  # the columns outermost, A read transposed
    "trmm_cols_rows_float.c": {"TRMM"},  # the columns outermost, row tables, counting down
    "trmm_cols_2d_inline.c": {"TRMM"},  # the columns outermost, a static kernel inlined
    # the columns outermost with a unit diagonal (the row loop left at its top on the last row)
    "trmm_cols_unit_flat.c": {"TRMM"},
    "trmm_cols_unit_2d_float.c": {"TRMM"},  # float, counting down, a static kernel inlined
    "trmm_cols_unit_class.cpp": {"TRMM"},  # operator() accessors, lower, counting down
    "trmm_cols_unit_rows.c": {"TRMM"},  # double ** row tables
    # i-k-j with T's diagonal applied to the row in a loop of its own before the sum
    "trmm_ikj_nonunit_2d.c": {"TRMM"},
    "trmm_ikj_nonunit_flat_float.c": {"TRMM"},  # float, counting down
    # its class's fields loaded again after the diagonal's loop, under the row test i + 1 < m
    "trmm_ikj_nonunit_class.cpp": {"TRMM"},
    "trmm_ikj_nonunit_rows.c": {"TRMM"},  # row tables: A[i][i] and B[i] loaded for the loop
    # inlined, m >= 2 known: the row loop leaves at its header for a block of its own
    "trmm_ikj_nonunit_lower_inline_float.c": {"TRMM"},
    # i-k-j scaled by alpha in a loop after the row's sum
    "trmm_ikj_alpha_flat.c": {"TRMM"},
    "trmm_ikj_alpha_2d_float.c": {"TRMM"},  # float, A read transposed, a static kernel inlined
    # `c(i,j) = 0.5 * t + c(i,j)`: a constant alpha on the sum's exit edge, added to C
    "gemm_class_update.cpp": {"GEMM"},
    "gemm_class_update_float.cpp": {"GEMM"},
    "gemm_class_update_inline.cpp": {"GEMM"},  # beside a constant beta, inlined into main
    # A on the right by the columns of C, as the reference BLAS's right side
    "symm_columns_2d.c": {"SYMM"},  # the diagonal with the scaling, the upper triangle
    "symm_columns_flat_float.c": {"SYMM"},  # the diagonal in the sum k <= j, the lower
    "symm_columns_flat_inline.c": {"SYMM"},  # the diagonal in the sum k >= j, no alpha
    # a std::vector member, the rows counting down: B's data loaded apart for the scaling
    "trmm_ikj_alpha_class.cpp": {"TRMM"},
    "trmm_ikj_alpha_rows.c": {"TRMM"},  # row tables: B[i] loaded again for the scaling loop
}

# Idioms replaced whose guard must decline every time in these programs: their runtime
# call never does the work.
ALWAYS_DECLINED = {
    # the row loop scales another matrix, or the next row: not the elements the updates write
    "nm_gemm_scale_other.c": {"GEMM"},
    # rows in tables, each row its own allocation: not one block the kernel may copy
    "csr_row_tables_float.c": {"SpMV_CSR"},
    # the diagonal in the sum too
    "nm_symm_forms.c": {"SYMM"},
    # alpha on the products alone, a row times A's first column
    "nm_trmm_diagonal.c": {"TRMM"},
    # i-k-j with a scaling loop a column short
    "nm_trmm_alpha_rows.c": {"TRMM"},
    # two factors of a stencil, their outputs passed as one array
    "nm_stencil_two_arrays.c": {"Stencil"},
}


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_accelerated_program_prints_the_same(path: Path, tmp_path: Path) -> None:
    program = read_program(path)
    stats = tmp_path / "stats.jsonl"
    original, accelerated = tmp_path / "original", tmp_path / "accelerated"
    driver = find_tool("clang++" if path.suffix in CXX_SUFFIXES else "clang")
    subprocess.run([driver, "-O2", "-w", str(path), "-o", str(original), "-lm"], check=True)
    report = accelerate([path], accelerated, CompileOptions())
    for outcome in (o for u in report.units for o in u.outcomes):
        if outcome.instance.within is not None:
            continue  # folded into the instance around it
        if outcome.instance.idiom in MUST_REPLACE.get(path.name, set()):
            assert outcome.replaced, f"{outcome.instance.idiom}: {outcome.detail}"
    runs = [
        subprocess.run(
            [str(binary), *program.test_args],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            env={**os.environ, **env},
        )
        for binary, env in ((original, {}), (accelerated, {**ON_POCL, "IDIOM_STATS": str(stats)}))
    ]
    assert runs[1].returncode == runs[0].returncode, runs[1].stderr
    tolerance = program_tolerance(path)
    difference = first_difference(runs[0].stdout, runs[1].stdout, tolerance=tolerance)
    replaced = [
        f"{o.instance.idiom}@{o.instance.lines}"
        for u in report.units
        for o in u.outcomes
        if o.replaced
    ]
    assert difference is None, f"{difference} (replaced: {replaced})"
    kinds = {o.instance.idiom for u in report.units for o in u.outcomes if o.replaced}
    assert MUST_REPLACE.get(path.name, set()) <= kinds, f"replaced: {replaced}"
    # Every kind of idiom replaced did its work through the runtime at least once.
    done = {call.details.get("kernel") or call.entry for call in read_stats(stats) if call.done}
    declined = ALWAYS_DECLINED.get(path.name, set())
    for kind in kinds - declined:
        assert _names(kind) & done, f"{kind} was replaced but its runtime call never ran"
    for kind in declined:
        assert not _names(kind) & done, f"{kind} ran where its guard must decline"


def _names(kind: str) -> set[str]:
    calls = CALLS[kind]
    return {calls} if isinstance(calls, str) else set(calls)
