"""Command lines sorted: pass-through, compile, link; flags by what they are for."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapper.args import Kind, classify, codegen_flags, default_object

PASS_THROUGH = [
    ["-E", "a.c"],
    ["-S", "a.c", "-o", "a.s"],
    ["-M", "a.c"],
    ["-MM", "-I", "inc", "a.c"],
    ["--version"],
    ["-v"],
    ["-v", "-c", "a.c"],
    ["-dumpversion"],
    ["-dumpmachine"],
    ["-print-prog-name=ld"],
    ["-print-search-dirs"],
    ["--print-file-name=libc.so"],
    ["-###", "a.c"],
    ["-c", "start.s"],
    ["-c", "start.S", "-o", "start.o"],
    ["-x", "c", "-c", "-", "-o", "x.o"],
    ["-xc", "-c", "a.txt"],
    ["-c", "-"],
    ["-fsyntax-only", "a.c"],
    ["-emit-llvm", "-c", "a.c"],
    ["-flto", "-c", "a.c"],
    ["-fsanitize=address", "a.c"],
    ["-c", "a.ll"],
    ["-c", "pre.i"],
    [],
    ["-O2"],
    ["-c", "b.o"],
    ["-c", "-o"],
    ["@args.rsp"],
    ["-c", "a.c", "@more.rsp"],
]


@pytest.mark.parametrize("argv", PASS_THROUGH, ids=[" ".join(a) or "(none)" for a in PASS_THROUGH])
def test_passed_straight_to_clang(argv: list[str]) -> None:
    assert classify(argv).kind is Kind.PASS


# argv, kind, sources, output, compile flags, link flags, dependency flags
SORTED = [
    (["-c", "a.c"], Kind.COMPILE, ["a.c"], None, [], [], []),
    (["-O2", "-c", "a.c", "-o", "x/a.o"], Kind.COMPILE, ["a.c"], "x/a.o", ["-O2"], [], []),
    (["-c", "a.c", "b.cpp"], Kind.COMPILE, ["a.c", "b.cpp"], None, [], [], []),
    (
        ["-DX=1", "-I", "inc", "-std=c11", "-c", "-oa.o", "a.c"],
        Kind.COMPILE,
        ["a.c"],
        "a.o",
        ["-DX=1", "-I", "inc", "-std=c11"],
        [],
        [],
    ),
    (
        ["-c", "a.c", "-MD", "-MF", "a.d", "-MT", "a.o", "-MP"],
        Kind.COMPILE,
        ["a.c"],
        None,
        [],
        [],
        ["-MD", "-MF", "a.d", "-MT", "a.o", "-MP"],
    ),
    (["-Wp,-MD,a.d", "-c", "a.c"], Kind.COMPILE, ["a.c"], None, ["-Wp,-MD,a.d"], [], []),
    (
        ["a.o", "b.o", "-o", "prog", "-lm", "-L", "/opt/lib", "-Wl,--gc-sections"],
        Kind.LINK,
        [],
        "prog",
        [],
        ["-lm", "-L", "/opt/lib", "-Wl,--gc-sections"],
        [],
    ),
    (["-O3", "main.c", "lib.a", "-o", "p"], Kind.LINK, ["main.c"], "p", ["-O3"], [], []),
    (
        ["-shared", "-fPIC", "a.o", "-o", "liba.so"],
        Kind.LINK,
        [],
        "liba.so",
        ["-fPIC"],
        ["-shared"],
        [],
    ),
    (["k.cc", "m.C", "-o", "p"], Kind.LINK, ["k.cc", "m.C"], "p", [], [], []),
]


@pytest.mark.parametrize("case", SORTED, ids=[" ".join(c[0]) for c in SORTED])
def test_sorted(
    case: tuple[list[str], Kind, list[str], str | None, list[str], list[str], list[str]],
) -> None:
    argv, kind, sources, output, compile_flags, link_flags, dependency = case
    call = classify(argv)
    assert call.kind is kind
    assert call.sources == tuple(Path(s) for s in sources)
    assert call.output == output
    assert call.compile_flags == tuple(compile_flags)
    assert call.link_flags == tuple(link_flags)
    assert call.dependency_flags == tuple(dependency)


def test_a_link_command_keeps_its_order() -> None:
    call = classify(["-O2", "a.o", "-lfoo", "b.o", "-lbar", "-o", "p"])
    assert [argument for _, argument in call.order] == ["-O2", "a.o", "-lfoo", "b.o", "-lbar"]
    assert call.inputs == ("a.o", "b.o")


FRONT_END = [
    (
        ["-O3", "-g", "-Wall", "-Werror", "-DN=4", "-I", "inc", "-std=c++14"],
        ["-DN=4", "-I", "inc", "-std=c++14"],
    ),
    (["-mcmodel=medium", "-fPIC", "-w"], ["-mcmodel=medium", "-fPIC"]),
    (["-Ofast"], ["-ffast-math"]),
    (["-include", "config.h", "-U", "NDEBUG"], ["-include", "config.h", "-U", "NDEBUG"]),
]


@pytest.mark.parametrize("case", FRONT_END, ids=[" ".join(c[0]) for c in FRONT_END])
def test_front_end_flags(case: tuple[list[str], list[str]]) -> None:
    flags, expected = case
    assert classify([*flags, "-c", "a.c"]).front_end_flags == tuple(expected)


CODEGEN = [
    (["-O3", "-mcmodel=medium", "-DN=4", "-I", "-Ofoo"], ["-O3", "-mcmodel=medium"]),
    (["-fPIC", "-std=c11", "-march=native", "-g"], ["-fPIC", "-march=native"]),
    (["-target", "x86_64-linux-gnu", "-fdiagnostics-color"], ["-target", "x86_64-linux-gnu"]),
]


@pytest.mark.parametrize("case", CODEGEN, ids=[" ".join(c[0]) for c in CODEGEN])
def test_codegen_flags(case: tuple[list[str], list[str]]) -> None:
    flags, expected = case
    assert codegen_flags(tuple(flags)) == tuple(expected)


def test_default_object_is_in_the_current_folder() -> None:
    assert default_object(Path("src/dir/kernel.cpp")) == Path("kernel.o")
