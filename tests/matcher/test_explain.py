"""Explanations restricted to the code one source function contributed."""

from __future__ import annotations

from matcher.explain import explain
from matcher.pipeline import load_library
from tests.conftest import BuildModule
from tests.matcher.inlined_programs import PREFIX_SUMS_IN_MAIN


def test_explaining_an_inlined_kernel_ignores_its_callers_own_loops(build: BuildModule) -> None:
    main = build(PREFIX_SUMS_IN_MAIN).function("main")
    assert main is not None
    reduction = load_library().compile("Reduction")
    assert explain(reduction, main).matched  # main's own loop
    kernel = explain(reduction, main, source_function="prefix_sums")
    assert not kernel.matched and kernel.failing_part is not None
    assert explain(reduction, main, source_function="main").matched
