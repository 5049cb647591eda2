"""What detection leaves to Python's cyclic garbage collector: a solve nothing, a file's
model one collection at the end of `paused_gc` (see `matcher.pipeline`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solver_testkit import C_NESTED, compiled_c, function_of

from matcher.detect import DISTINCT
from matcher.frontend import compile_to_ir
from matcher.ir import Block
from matcher.ir_builder import build_module
from matcher.pipeline import load_library, paused_gc
from matcher.solver import solve


@contextmanager
def _collector_off() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _blocks() -> int:
    return sum(isinstance(o, Block) for o in gc.get_objects())


def test_a_solve_leaves_no_cyclic_garbage() -> None:
    function = function_of(compiled_c(C_NESTED))
    programs = load_library().exported_programs()
    with _collector_off():
        gc.collect()
        for program in programs:
            solve(program, function, distinct=DISTINCT)
            solve(program, function)
        assert gc.collect() == 0  # every engine was freed by reference counting


def test_paused_gc_frees_the_model_once_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "k.c"
    path.write_text(C_NESTED)
    text = compile_to_ir(path)
    with _collector_off():
        gc.collect()
    before = _blocks()
    with paused_gc():
        module = build_module(text)
        assert _blocks() > before
        del module
        assert _blocks() > before  # a cyclic graph: reference counts do not free it
    assert _blocks() == before
