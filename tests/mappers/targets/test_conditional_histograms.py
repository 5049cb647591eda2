"""End to end: conditional histograms (the update made only when a test on the data
holds), accelerated against the original on random inputs, with bins that overlap the
data read (the guard must send them to the original code); generated kernels where the
functional IR says the index, the increment and the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from measure.compare import first_difference
from tests.mappers.differential import build_pair, run_binary

PROGRAM = Path(__file__).parents[1] / "programs" / "conditional.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
REPLACED = {"in_range", "ratios", "odd_ones", "weighted", "masked", "nested", "indexed"}
# Generated kernels, whose skipped iterations drop their adds; `nested` divides under two
# tests, which the kernel's && evaluates in order (a division by zero would stop PoCL).
# `ratios`, `weighted`, `masked` (a _Bool's low bit, byte keys) and `indexed` read under
# their tests: theirs run over the active iterations only. `indexed` also uses its
# iteration's number, which its kernels start from its value at the first active iteration.
GENERATED = {"in_range", "odd_ones", "nested", "ratios", "weighted", "masked", "indexed"}
KEPT = {  # near-misses, with the reason they keep their code
    "saturating": "depends on the bins",
    "quotients": "read only under another test",
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("conditional"))


_run = run_binary


def _done(stderr: str, kernel: str) -> int:
    """How many launches of `kernel` did their work (IDIOM_VERBOSE lines)."""
    return sum(
        1
        for line in stderr.splitlines()
        if line.startswith("idiom:") and f"'{kernel}'" in line and line.endswith("done")
    )


def test_conditional_histograms_are_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    _, _, report = builds
    outcomes = {o.instance.function: o for u in report.units for o in u.outcomes}
    assert set(outcomes) == REPLACED | set(KEPT)
    for function in REPLACED:
        assert outcomes[function].replaced, f"{function}: {outcomes[function].detail}"
        generated = outcomes[function].detail.endswith("(generated)")
        assert generated == (function in GENERATED), outcomes[function].detail
    for function, reason in KEPT.items():
        assert not outcomes[function].replaced
        assert reason in outcomes[function].detail


@pytest.mark.parametrize("n", [0, 1, 2, 7, 63, 65, 130])
@pytest.mark.parametrize("seed", [1, 7])
def test_random_inputs_give_the_original_bins(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    original, accelerated, _ = builds
    args = [str(n), str(seed)]
    expected = _run(original, args, {})
    actual = _run(accelerated, args, ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert first_difference(expected.stdout, actual.stdout) is None
    if n >= 63:  # every replaced histogram has iterations that update a bin
        # (`weighted` twice: its weights that start late as well)
        assert _done(actual.stderr, "idiom_histogram") == len(REPLACED) + 1
        # reads under a test (ratios, weighted twice, masked, indexed): their iterations
        # found first, by a generated tree reduction like each call's bin range
        assert _done(actual.stderr, "idiom_active") == 0
        assert _done(actual.stderr, "idiom_reduce") == len(REPLACED) + 1 + 5


def test_bins_over_the_data_run_the_original_code(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    original, accelerated, _ = builds
    args = ["130", "3", "1"]  # in_range counts into the array it reads
    expected = _run(original, args, {})
    actual = _run(accelerated, args, ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert first_difference(expected.stdout, actual.stdout) is None
    # the range of bins was found, then refused: one histogram fewer did its adds (of
    # len(REPLACED) + 1: `weighted` runs twice)
    assert _done(actual.stderr, "idiom_histogram") == len(REPLACED)
