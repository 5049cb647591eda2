"""Loop summaries: the source lines a loop is made of, inlined kernels included."""

from __future__ import annotations

from matcher.summary import summarize_loops
from tests.conftest import BuildModule
from tests.matcher.inlined_programs import SQUARES_IN_MAIN


def test_a_loop_of_its_own_function_names_its_lines(build: BuildModule) -> None:
    module = build(SQUARES_IN_MAIN)
    main = module.function("main")
    assert main is not None
    own = summarize_loops(main)[0]
    assert (own.source_function, own.first_line, own.last_line) == ("main", 11, 11)
    assert own.lines == "line 11"


def test_an_inlined_loop_names_the_kernel_its_file_and_lines(build: BuildModule) -> None:
    module = build(SQUARES_IN_MAIN)
    main = module.function("main")
    assert main is not None
    inlined = summarize_loops(main)[1]
    assert inlined.source_function == "kernel_x" and inlined.function == "main"
    assert (inlined.first_line, inlined.last_line) == (3, 4)
    assert inlined.file is not None and inlined.file.endswith("input.c")
    assert inlined.lines == f"lines 3-4 of kernel_x ({inlined.file}), inlined"


def test_a_loop_without_debug_lines_says_so(build: BuildModule) -> None:
    module = build(
        "define void @f(i32 %n) {\nentry:\n  br label %loop\nloop:\n"
        "  %i = phi i32 [ 0, %entry ], [ %next, %loop ]\n  %next = add i32 %i, 1\n"
        "  %done = icmp eq i32 %next, %n\n  br i1 %done, label %exit, label %loop\n"
        "exit:\n  ret void\n}\n",
        suffix=".ll",
    )
    (summary,) = summarize_loops(module.functions[0])
    assert summary.lines == "no source lines" and summary.file is None
