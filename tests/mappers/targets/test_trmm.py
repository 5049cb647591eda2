"""TRMM (mappers/targets/trmm.py): the in-place triangular product B <- alpha T B, upper or
lower, unit diagonal or A's, the sum in a register or kept in B, alpha on the sum, on a
factor or after it. One BLAS call each on separate arrays, every element of the block
equal to the original's; the original code where A is B or overlaps it, where alpha is
0, and for the nests that are no TRMM: a recurrence over rows already updated (not
found: blas.idl ties the rows' direction to the triangle's side), alpha on the products
alone (declined when mapped), a strictly triangular product and a sum
stopping a row short, a sum skipped on a row by a test of its own, B read a column to
the right, a sum skipped on one row by `i != 2` (declined by the guard); an infinity in
B or in alpha (declined by the runtime). Unsigned and size_t counters are followed (the
guard checks that the row tests do not wrap); alpha read through a pointer is loaded
ahead, the guard declining where B holds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import (
    BLAS_AT_ANY_SIZE,
    blas_calls_done,
    build_pair,
    replaced_everywhere,
    same_outputs,
)

PROGRAM = Path(__file__).parents[1] / "programs" / "trmm_forms.c"
SEPARATE, SAME, OVERLAPPING, ALPHA_ZERO, INFINITE_B, ALPHA_INFINITE, ALPHA_HUGE = range(7)
ALPHA_IN_B = 7
FORMS = (
    "unit_trans_stored",
    "unit_upper_stored",
    "unit_lower_down",
    "nonunit_upper",
    "nonunit_lower_trans_down",
    "unsigned_upper",
    "sizet_unit_stored",
    "alpha_pointer",
    "alpha_pointer_stored",
)
ALPHA_THROUGH_POINTER = 2  # alpha_pointer and alpha_pointer_stored read *alpha
DECLINED_WHEN_MAPPED = frozenset({"unit_alpha_on_products"})
# replaced, their guards decline the triangle
DECLINED_AT_RUN_TIME = {
    "strict_from_zero",
    "unit_upper_short",
    "lower_skips_row_one",
    "shifted_column",
    "unit_skips_row_two",
}
UNSCALED = 1  # unit_upper_stored has no alpha


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("trmm_forms"))


def _trmm_calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "trmm")


def test_every_product_is_replaced_and_the_others_are_not(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    replaced = set(FORMS) | DECLINED_AT_RUN_TIME
    replaced_everywhere(builds[2], {"TRMM"}, replaced, DECLINED_WHEN_MAPPED)


@pytest.mark.parametrize("m, n", [(0, 3), (1, 1), (2, 9), (3, 1), (7, 5), (33, 17)])
@pytest.mark.parametrize("seed", [2, 9])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], m: int, n: int, seed: int
) -> None:
    expected = len(FORMS) if m > 0 else 0  # m == 0: the loops, and the calls, do not run
    if m == 1:
        # one row: the test skipping row 1 never matters (lower_skips_row_one), and a sum
        # a row short is the empty one of a unit diagonal (unit_upper_short); the sum of a
        # lower product kept in B and scaled after (alpha_pointer_stored) never runs on
        # the one row, which the guard does not follow (the original code runs)
        expected += 2 - 1
    if 0 < m <= 2:
        expected += 1  # no row 2 to skip (unit_skips_row_two)
    assert _trmm_calls(builds, [str(m), str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("m, n", [(2, 2), (9, 4)])
def test_a_overlapping_b_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, m: int, n: int
) -> None:
    assert _trmm_calls(builds, [str(m), str(n), "5", str(mode)]) == 0


@pytest.mark.parametrize(
    "mode, calls", [(INFINITE_B, 0), (ALPHA_INFINITE, UNSCALED), (ALPHA_HUGE, UNSCALED)]
)
def test_infinities_and_overflow_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, calls: int
) -> None:
    assert _trmm_calls(builds, ["7", "5", "3", str(mode)]) == calls


def test_alpha_zero_declines_where_the_loop_multiplies_by_it(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    assert _trmm_calls(builds, ["6", "6", "8", str(ALPHA_ZERO)]) == UNSCALED


@pytest.mark.parametrize("m, n", [(2, 1), (6, 3), (11, 7)])
def test_alpha_read_from_b_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], m: int, n: int
) -> None:
    # the loop writes the element *alpha reads: the guard declines those two kernels
    calls = _trmm_calls(builds, [str(m), str(n), "4", str(ALPHA_IN_B)])
    expected = _trmm_calls(builds, [str(m), str(n), "4", str(SEPARATE)])
    assert calls == expected - ALPHA_THROUGH_POINTER


# Other loop orders (programs/trmm_orders.c): i-k-j (the unit diagonal, B's row i updated
# in place from the rows not yet updated, the row loop top-tested where LLVM merges the
# sum's zero-trip test into it) and the columns outermost (with a unit diagonal LLVM
# leaves the row loop at its top on the row whose sum is empty, for a copy of the store).
# i-k-j with T's diagonal multiplies B's row by it in a loop of its own before the sum,
# and may scale the row by alpha in a loop after it, or do both (where the row loop then
# has no early exit, blas.idl names the diagonal's store). Alpha on a unit columns-outer
# sum's products alone and an i-k-j row scaled by alpha before its sum are declined when
# mapped; the diagonal added in i-k-j, a row multiplied by A's first column instead of
# the diagonal and a scaling loop a column short by the guard; the wrong row orders
# (ikj_lower_up, ikj_upper_down, jik_lower_up, jik_unit_upper_down: blas.idl's
# RowBoundedLoop), alpha on the products of an i-k-j sum and the diagonal applied after
# the updates are not found.
ORDERS = Path(__file__).parents[1] / "programs" / "trmm_orders.c"
ORDER_FORMS = (
    "ikj_unit_upper",
    "ikj_unit_lower_down",
    "ikj_unit_trans_float",
    "jik_nonunit_trans",
    "jik_nonunit_lower_down",
    "jik_nonunit_upper_float",
    "jik_unit_trans",
    "jik_unit_lower_down_float",
    "ikj_nonunit_upper",
    "ikj_nonunit_lower_down_float",
    "ikj_unit_upper_alpha",
    "ikj_nonunit_alpha_float",
    "ikj_nonunit_alpha_lower_down",
)
# jik_nonunit_trans, jik_nonunit_lower_down, jik_unit_trans and the three ikj_*alpha*
# scale by alpha
ORDERS_SCALED = 6
ORDERS_DECLINED_WHEN_MAPPED = frozenset({"jik_unit_alpha_on_products", "ikj_alpha_before"})


@pytest.fixture(scope="module")
def order_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(ORDERS, tmp_path_factory.mktemp("trmm_orders"))


def test_other_orders_are_replaced_and_the_wrong_ones_are_not(
    order_builds: tuple[Path, Path, Accelerated],
) -> None:
    replaced = {*ORDER_FORMS, "ikj_diagonal_added", "ikj_first_column_first", "ikj_alpha_short"}
    replaced_everywhere(order_builds[2], {"TRMM"}, replaced, ORDERS_DECLINED_WHEN_MAPPED)


@pytest.mark.parametrize("m, n", [(0, 3), (4, 0), (1, 1), (1, 4), (2, 9), (3, 1), (7, 5), (33, 17)])
@pytest.mark.parametrize("seed", [3, 11])
def test_other_orders_are_one_call_each(
    order_builds: tuple[Path, Path, Accelerated], m: int, n: int, seed: int
) -> None:
    calls = _trmm_calls(order_builds, [str(m), str(n), str(seed), str(SEPARATE)])
    # no call where B is empty (the guards want every inner loop entered)
    expected = 0 if m == 0 or n == 0 else len(ORDER_FORMS)
    if m == 1:
        # the sums of ikj_unit_lower_down, ikj_nonunit_lower_down_float and
        # ikj_nonunit_alpha_lower_down never run on the one row (declined)
        expected -= 3
    assert calls == expected


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING, INFINITE_B])
@pytest.mark.parametrize("m, n", [(2, 2), (9, 4)])
def test_other_orders_decline_a_overlapping_b_and_infinities(
    order_builds: tuple[Path, Path, Accelerated], mode: int, m: int, n: int
) -> None:
    assert _trmm_calls(order_builds, [str(m), str(n), "5", str(mode)]) == 0


@pytest.mark.parametrize("mode", [ALPHA_ZERO, ALPHA_INFINITE])
def test_other_orders_decline_alpha_zero_and_infinite(
    order_builds: tuple[Path, Path, Accelerated], mode: int
) -> None:
    calls = _trmm_calls(order_builds, ["7", "5", "6", str(mode)])
    assert calls == len(ORDER_FORMS) - ORDERS_SCALED


# The corpus's other styles (programs/trmm_styles.cpp): C++ classes whose fields LLVM
# loads again in the row loop under the test that skips the sum on the last row (loaded
# ahead where that test holds on the first row: m >= 2), and row tables read by the loops
# applying T's diagonal and alpha through loads of their own. A row multiplied by A's
# first column is declined by the guard, classes and tables alike.
STYLES = Path(__file__).parents[1] / "programs" / "trmm_styles.cpp"
STYLE_FORMS = (
    "ikj_nonunit_class",
    "ikj_alpha_dense",
    "cols_unit_class",
    "ikj_nonunit_rows",
    "ikj_alpha_rows",
    "cols_unit_rows",
)
STYLES_DECLINED = {"ikj_first_column_class", "ikj_first_column_rows"}
UNEVEN_ROWS = 3  # B's rows unevenly spaced: the tables' kernels decline from three rows on
TABLE_FORMS = 3


@pytest.fixture(scope="module")
def style_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(STYLES, tmp_path_factory.mktemp("trmm_styles"))


def test_class_and_row_table_styles_are_replaced(
    style_builds: tuple[Path, Path, Accelerated],
) -> None:
    replaced_everywhere(style_builds[2], {"TRMM"}, set(STYLE_FORMS) | STYLES_DECLINED)


@pytest.mark.parametrize("m, n", [(0, 3), (4, 0), (1, 1), (1, 4), (2, 5), (3, 1), (7, 5), (33, 17)])
def test_class_and_row_table_styles_are_one_call_each(
    style_builds: tuple[Path, Path, Accelerated], m: int, n: int
) -> None:
    calls = _trmm_calls(style_builds, [str(m), str(n), "3", str(SEPARATE)])
    expected = 0 if m == 0 or n == 0 else len(STYLE_FORMS)
    if m == 1:
        # one row: the classes' fields read only under i + 1 < m (ikj_nonunit_class,
        # ikj_alpha_dense) and a lower sum that never runs (ikj_nonunit_rows) decline
        expected -= 3
    assert calls == expected


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("m, n", [(2, 2), (9, 4)])
def test_class_and_row_table_styles_decline_a_overlapping_b(
    style_builds: tuple[Path, Path, Accelerated], mode: int, m: int, n: int
) -> None:
    assert _trmm_calls(style_builds, [str(m), str(n), "5", str(mode)]) == 0


@pytest.mark.parametrize("m, n", [(3, 1), (9, 4)])
def test_row_tables_unevenly_spaced_run_the_original_code(
    style_builds: tuple[Path, Path, Accelerated], m: int, n: int
) -> None:
    calls = _trmm_calls(style_builds, [str(m), str(n), "7", str(UNEVEN_ROWS)])
    assert calls == len(STYLE_FORMS) - TABLE_FORMS


# Non-unit lower i-k-j inlined into main where m >= 2 is known (programs/trmm_inlined.c):
# the row loop leaves at its header's test for a block of its own holding the counter's
# final value, unused (region_of takes it as the loop's exit). One call on separate
# arrays (m below 2 taken as 2), none where A is B or overlaps it.
INLINED = Path(__file__).parents[1] / "programs" / "trmm_inlined.c"


@pytest.fixture(scope="module")
def inlined_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(INLINED, tmp_path_factory.mktemp("trmm_inlined"))


def test_inlined_lower_product_is_replaced(
    inlined_builds: tuple[Path, Path, Accelerated],
) -> None:
    replaced_everywhere(inlined_builds[2], {"TRMM"}, {"strmm_lower"})


@pytest.mark.parametrize("m, n", [(0, 3), (1, 1), (2, 5), (7, 1), (33, 17), (40, 30)])
def test_inlined_lower_product_is_one_call(
    inlined_builds: tuple[Path, Path, Accelerated], m: int, n: int
) -> None:
    assert _trmm_calls(inlined_builds, [str(m), str(n), str(SEPARATE)]) == 1


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("m", [2, 9])
def test_inlined_lower_product_declines_a_overlapping_b(
    inlined_builds: tuple[Path, Path, Accelerated], mode: int, m: int
) -> None:
    assert _trmm_calls(inlined_builds, [str(m), "4", str(mode)]) == 0
