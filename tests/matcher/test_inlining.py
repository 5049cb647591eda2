"""Finding a source function that exists only inlined into others."""

from __future__ import annotations

from matcher.inlining import close_names, inlined_hosts, no_such_function, source_function_names
from tests.conftest import BuildModule
from tests.matcher.inlined_programs import PREFIX_SUMS_IN_MAIN, SQUARES_IN_MAIN


def test_an_inlined_kernel_is_found_in_its_caller(build: BuildModule) -> None:
    module = build(SQUARES_IN_MAIN)
    assert module.function("kernel_x") is None  # inlined, then dropped
    assert [f.name for f in inlined_hosts(module, "kernel_x")] == ["main"]
    assert inlined_hosts(module, "main") == ()  # main's own code is not inlined code


def test_source_function_names_include_inlined_ones(build: BuildModule) -> None:
    module = build(PREFIX_SUMS_IN_MAIN)
    assert source_function_names(module) == ["main", "prefix_sums"]


def test_close_names_come_from_defined_and_inlined_functions(build: BuildModule) -> None:
    module = build(SQUARES_IN_MAIN)
    assert close_names(module, "kernel_y") == ["kernel_x"]
    assert close_names(module, "mian") == ["main"]
    assert close_names(module, "zzzzzz") == []


def test_the_error_for_an_unknown_name_lists_close_or_all_names(build: BuildModule) -> None:
    module = build(SQUARES_IN_MAIN)
    assert str(no_such_function(module, "kernel_y", "f.c")) == (
        "f.c: no function 'kernel_y' (close names: kernel_x)"
    )
    assert str(no_such_function(module, "zzz", "f.c")) == (
        "f.c: no function 'zzz' (functions: kernel_x, main)"
    )
