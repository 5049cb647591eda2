"""The front end: inputs of every kind, user flags passed through, clear failures."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from matcher.frontend import (
    HINTED_SIZE,
    CompileOptions,
    FrontendError,
    canonical_ir,
    compile_to_ir,
    find_tool,
    hint_inline_functions,
)
from matcher.ir_builder import IRError, build_module

KERNEL = (
    "double sum(const double *a, int n) {\n"
    "  double s = 0;\n  for (int i = 0; i < n; i++) s += a[i];\n  return s;\n}\n"
)


def test_canonical_form_has_ssa_and_rotated_loops(tmp_path: Path) -> None:
    source = tmp_path / "k.c"
    source.write_text(KERNEL)
    module = build_module(compile_to_ir(source))
    (f,) = module.functions
    opcodes = [i.opcode for i in f.instructions]
    assert "alloca" not in opcodes  # promoted to SSA
    assert "phi" in opcodes and "fadd" in opcodes
    (loop,) = f.loops.loops
    # Rotated: the loop's single block ends in the conditional back edge; there is a preheader.
    assert loop.preheader is not None and loop.latches == (loop.header,)
    assert "vector" not in " ".join(i.type for i in f.instructions)  # not vectorised


def test_bitcode_and_ll_inputs(tmp_path: Path) -> None:
    source = tmp_path / "k.c"
    source.write_text(KERNEL)
    ir = compile_to_ir(source)
    ll = tmp_path / "k.ll"
    ll.write_text(ir)
    bc = tmp_path / "k.bc"
    subprocess.run([find_tool("llvm-as"), str(ll), "-o", str(bc)], check=True)
    for path in (ll, bc):
        (f,) = build_module(compile_to_ir(path)).functions
        assert f.source_name == "sum"


def test_sources_come_back_as_bitcode_with_the_same_model(tmp_path: Path) -> None:
    source = tmp_path / "k.c"
    source.write_text(KERNEL)
    bitcode = canonical_ir(source)
    assert isinstance(bitcode, bytes)
    (from_bitcode,) = build_module(bitcode).functions
    (from_text,) = build_module(compile_to_ir(source)).functions
    assert [
        (v.name, v.opcode, v.type, [o.id for o in v.operands]) for v in from_bitcode.values
    ] == [(v.name, v.opcode, v.type, [o.id for o in v.operands]) for v in from_text.values]
    assert [v.location for v in from_bitcode.instructions] == [
        v.location for v in from_text.instructions
    ]
    bc = tmp_path / "k.bc"
    bc.write_bytes(bitcode)
    assert canonical_ir(bc) == bitcode  # a .bc input is taken as it is


def test_user_flags_pass_through(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "size.h").write_text("#define SCALE 3\n")
    source = tmp_path / "k.c"
    source.write_text(
        '#include "size.h"\n#ifdef WANTED\nint f(int x) { return x * SCALE; }\n#endif\n'
    )
    options = CompileOptions(include_dirs=(str(tmp_path / "inc"),), defines=("WANTED",), std="c11")
    (f,) = build_module(compile_to_ir(source, options)).functions
    assert f.source_name == "f"
    with pytest.raises(FrontendError, match=r"size\.h"):
        compile_to_ir(source)  # without -I the include fails


def test_syntax_error_shows_clang_diagnostics(tmp_path: Path) -> None:
    source = tmp_path / "bad.c"
    source.write_text("int f(void) {\n  return 1 +;\n}\n")
    with pytest.raises(FrontendError) as caught:
        compile_to_ir(source)
    message = str(caught.value)
    assert "bad.c:2:" in message and "error" in message


def test_missing_file_and_unknown_kind(tmp_path: Path) -> None:
    with pytest.raises(FrontendError, match="no such file"):
        compile_to_ir(tmp_path / "absent.c")
    odd = tmp_path / "notes.txt"
    odd.write_text("hello")
    with pytest.raises(FrontendError, match="unknown input kind"):
        compile_to_ir(odd)


def test_ir_that_llvm_rejects() -> None:
    with pytest.raises(IRError, match="LLVM rejected the IR"):
        build_module("define i32 @f() {\n  ret i64 0\n}\n", "broken.ll")


CLASS_WITH_ACCESSORS = """
#include <vector>
struct Tensor {
    int nq, np;
    std::vector<double> d;
    double &at(int r, int q, int p) { return d[(r * nq + q) * np + p]; }
    double total(int n) { double s = 0; for (int i = 0; i < n; i++) s += d[i]; return s; }
};
double corner(Tensor &t, int n) { return t.at(1, 2, 3) + t.total(n); }
"""


def test_accessors_defined_in_a_class_body_are_inlined(tmp_path: Path) -> None:
    """A three-index accessor (above INLINE_THRESHOLD on its own) is inlined as if declared
    `inline`; a member function with a loop stays a call, its loop in its own function."""
    source = tmp_path / "t.cpp"
    source.write_text(CLASS_WITH_ACCESSORS)
    text = compile_to_ir(source)
    corner = text[text.index("@_Z6cornerR6Tensori(") :]
    corner = corner[: corner.index("\n}\n")]
    assert "@_ZN6Tensor2atEiii" not in corner
    assert "call" in corner and "@_ZN6Tensor5totalEi" in corner


def test_the_hint_skips_loops_and_large_functions() -> None:
    head = "define linkonce_odr noundef double @f(ptr noundef %0) #1 comdat align 2 {"
    straight = [head, "entry:", *["  %x = add i32 1, 2"] * 3, "  ret double 0.0", "}"]
    looping = [head, "entry:", "  br label %l", "l:", "  br label %l", "}"]
    large = [head, "entry:", *["  %x = add i32 1, 2"] * (HINTED_SIZE + 1), "}"]
    assert "#1 inlinehint comdat" in hint_inline_functions("\n".join(straight))
    for body in (looping, large):
        assert "inlinehint" not in hint_inline_functions("\n".join(body))
