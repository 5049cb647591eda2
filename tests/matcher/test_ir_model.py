"""The IR model against small functions whose facts were checked by hand."""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
from conftest import BuildModule

from matcher.ir import Function, TypeKind, Value, ValueKind
from matcher.ir_builder import build_module

OPERANDS_IR = """
declare double @sqrt(double)

define double @f(ptr %p, i32 %n, double %x) {
entry:
  %c = icmp slt i32 %n, 10
  br i1 %c, label %then, label %else
then:
  %g = getelementptr double, ptr %p, i32 %n
  store double %x, ptr %g
  %s = call double @sqrt(double %x)
  br label %join
else:
  %sel = select i1 %c, double %x, double 1.0
  br label %join
join:
  %phi = phi double [ %s, %then ], [ %sel, %else ]
  ret double %phi
}
"""


def named(function: Function, name: str) -> Value:
    return next(v for v in function.values if v.name == name)


def only_function(ir: str) -> Function:
    (function,) = build_module(ir).functions
    return function


def test_operands_in_printed_order() -> None:
    f = only_function(OPERANDS_IR)
    p, n, x = f.arguments
    assert [a.name for a in f.arguments] == ["%p", "%n", "%x"]
    cmp = named(f, "%c")
    assert cmp.opcode == "icmp" and cmp.predicate == "slt"
    assert cmp.operands[0] is n and cmp.operands[1].constant == 10
    gep = named(f, "%g")
    assert gep.opcode == "getelementptr" and gep.operands == (p, n)
    store = next(i for i in f.instructions if i.opcode == "store")
    assert store.operands == (x, gep)
    call = named(f, "%s")
    assert call.callee == "sqrt" and call.operands[0].name == "@sqrt"
    assert call.operands[0].kind is ValueKind.GLOBAL and call.operands[1] is x
    select = named(f, "%sel")
    assert select.operands[:2] == (cmp, x) and select.operands[2].constant == 1.0
    branch = f.blocks[0].terminator
    assert branch.opcode == "br" and branch.operands == (cmp,)
    assert [b.name for b in f.blocks[0].successors] == ["then", "else"]


def test_phi_incoming_and_users() -> None:
    f = only_function(OPERANDS_IR)
    phi = named(f, "%phi")
    call, select = named(f, "%s"), named(f, "%sel")
    assert phi.operands == (call, select)
    assert [(v, b.name) for v, b in phi.incoming] == [(call, "then"), (select, "else")]
    assert call.users == (phi,)
    assert named(f, "%c").users == (f.blocks[0].terminator, select)
    assert phi.type_kind is TypeKind.FLOAT and named(f, "%g").type_kind is TypeKind.POINTER


def test_instruction_level_control_flow() -> None:
    f = only_function(OPERANDS_IR)
    cmp, gep, sel = named(f, "%c"), named(f, "%g"), named(f, "%sel")
    branch = f.blocks[0].terminator
    assert f.successors(cmp) == (branch,)
    assert f.successors(branch) == (gep, sel)
    assert f.predecessors(gep) == (branch,)
    phi = named(f, "%phi")
    assert set(f.predecessors(phi)) == {f.blocks[1].terminator, f.blocks[2].terminator}


TWO_RETURNS_IR = """
define i32 @two_returns(i32 %a) {
entry:
  %c = icmp sgt i32 %a, 0
  br i1 %c, label %pos, label %neg
pos:
  %x = add i32 %a, 1
  ret i32 %x
neg:
  %y = sub i32 0, %a
  ret i32 %y
}
"""


def test_dominance_with_two_returns() -> None:
    f = only_function(TWO_RETURNS_IR)
    c, x, y = named(f, "%c"), named(f, "%x"), named(f, "%y")
    branch = f.blocks[0].terminator
    ret_pos = f.blocks[1].terminator
    assert f.dominates(c, x) and f.dominates(branch, y)
    assert not f.dominates(x, y) and not f.dominates(y, x)
    assert f.dominates(x, x) and not f.dominates(x, x, strict=True)
    assert f.post_dominates(ret_pos, x) and f.post_dominates(branch, c)
    assert not f.post_dominates(ret_pos, branch) and not f.post_dominates(x, c)
    # Arguments are not in the control-flow graph.
    assert not f.dominates(f.arguments[0], c)


TWO_EXITS_IR = """
define i32 @search(ptr %a, i32 %n, i32 %key) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %done = icmp sge i32 %i, %n
  br i1 %done, label %notfound, label %body
body:
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %hit = icmp eq i32 %v, %key
  br i1 %hit, label %found, label %latch
latch:
  %next = add i32 %i, 1
  br label %header
found:
  ret i32 %i
notfound:
  ret i32 -1
}
"""


def test_loop_with_two_exits() -> None:
    f = only_function(TWO_EXITS_IR)
    (loop,) = f.loops.loops
    names = {b.name for b in loop.blocks}
    assert loop.header.name == "header" and names == {"header", "body", "latch"}
    assert [b.name for b in loop.latches] == ["latch"]
    assert {b.name for b in loop.exits} == {"found", "notfound"}
    assert {b.name for b in loop.exiting} == {"header", "body"}
    assert loop.preheader is not None and loop.preheader.name == "entry"
    i, nxt, hit = named(f, "%i"), named(f, "%next"), named(f, "%hit")
    assert f.dominates(i, nxt) and f.dominates(hit, nxt) and not f.dominates(nxt, hit)
    # Every path from entry goes through the header; not every path from the body
    # goes through the latch.
    assert f.post_dominates(i, f.blocks[0].terminator)
    assert not f.post_dominates(nxt, hit)
    assert f.loop_depth(nxt) == 1 and f.loop_depth(f.blocks[4].first) == 0


INFINITE_IR = """
define i32 @maybe_spin(i32 %a) {
entry:
  %c = icmp eq i32 %a, 0
  br i1 %c, label %spin, label %out
spin:
  %v = add i32 %a, 1
  br label %spin
out:
  ret i32 %a
}
"""


def test_post_dominance_with_an_infinite_loop() -> None:
    f = only_function(INFINITE_IR)
    entry, spin, out = f.blocks
    assert all(f.post_dominators.contains(b) for b in f.blocks)
    assert f.post_dominates(spin.terminator, spin.first)
    assert not f.post_dominates(out.terminator, entry.terminator)
    assert not f.post_dominates(spin.first, entry.terminator)
    (loop,) = f.loops.loops
    assert loop.header is spin and loop.exits == ()


UNREACHABLE_IR = """
define i32 @dead(i32 %a) {
entry:
  ret i32 %a
orphan:
  %z = add i32 %a, 1
  ret i32 %z
}
"""


def test_unreachable_block_dominates_only_itself() -> None:
    f = only_function(UNREACHABLE_IR)
    entry, orphan = f.blocks
    z = orphan.first
    assert not f.dominators.contains(orphan)
    assert not f.dominates(entry.first, z) and not f.dominates(z, entry.first)
    assert f.dominates(z, z)


def test_loop_nesting_and_source_lines_in_c(build: BuildModule) -> None:
    module = build(
        "void mm(int n, double A[n][n], double B[n][n], double C[n][n]) {\n"  # 1
        "  for (int i = 0; i < n; i++)\n"  # 2
        "    for (int j = 0; j < n; j++) {\n"  # 3
        "      double acc = 0;\n"  # 4
        "      for (int k = 0; k < n; k++)\n"  # 5
        "        acc += A[i][k] * B[k][j];\n"  # 6
        "      C[i][j] = acc;\n"  # 7
        "    }\n"
        "}\n"
    )
    f = module.function("mm")
    assert f is not None
    outer, middle, inner = f.loops.loops
    assert [lp.depth for lp in (outer, middle, inner)] == [1, 2, 3]
    assert inner.parent is middle and middle.parent is outer and outer.parent is None
    assert outer.children == [middle] and middle.children == [inner]
    assert inner.blocks < middle.blocks < outer.blocks
    fadd = next(i for i in f.instructions if i.opcode == "fadd")
    store = next(i for i in f.instructions if i.opcode == "store")
    assert fadd.location is not None and fadd.location.line == 6
    assert store.location is not None and store.location.line == 7
    assert fadd.location.file.endswith("input.c") and fadd.location.function == "mm"
    assert f.loop_depth(fadd) == 3 and f.loop_depth(store) == 2


def test_cpp_methods_accessors_inlined(build: BuildModule) -> None:
    module = build(
        "#include <vector>\n"
        "struct Acc {\n"
        "  std::vector<double> v;\n"
        "  double sum() const;\n"
        "};\n"
        "double Acc::sum() const {\n"  # 6
        "  double s = 0;\n"
        "  for (std::size_t i = 0; i < v.size(); i++) s += v[i];\n"  # 8
        "  return s;\n"
        "}\n",
        suffix=".cpp",
    )
    f = module.function("Acc::sum")
    assert f is not None and f.name.startswith("_ZNK3Acc3sum")
    # std::vector's operator[] and size() are inlined: no call is left in the loop.
    (loop,) = f.loops.loops
    assert not any(i.opcode == "call" for b in loop.blocks for i in b.instructions)
    fadd = next(i for i in f.instructions if i.opcode == "fadd")
    assert fadd.location is not None and fadd.location.line == 8


def test_glibc_inline_bodies_are_not_functions(build: BuildModule) -> None:
    module = build("#include <stdlib.h>\nint main(int c, char **v) { return atoi(v[c - 1]); }\n")
    assert [f.source_name for f in module] == ["main"]


PRINTED_FORMS_IR = """
declare double @sqrt(double)
declare void @use(ptr)

define double @"odd name"(ptr %p, double %x) {
entry:
  %"a b" = fadd double %x, 1.0
  %0 = fmul double %"a b", %x
  %t = tail call double @sqrt(double %0)
  %m = call double @sqrt(double %t)
  notail call void @use(ptr %p)
  store atomic double %m, ptr %p seq_cst, align 8
  %l = load atomic double, ptr %p acquire, align 8
  %n = fneg fast double %l
  %v = insertelement <2 x double> poison, double %n, i32 0
  %e = extractelement <2 x double> %v, i32 0
  fence seq_cst
  ret double %e
}
"""


def test_names_and_opcodes_read_from_the_printing_are_llvms(build: BuildModule) -> None:
    """The model reads each instruction's name and opcode from its printed line (fewer
    calls into LLVM); they must be what LLVM itself says, in every printed form: tail
    markers, quoted and numbered names, atomic loads and stores, void calls."""
    corpus = Path(__file__).resolve().parents[2] / "corpus"
    for module in (
        build_module(PRINTED_FORMS_IR),
        build((corpus / "stencil_block_lhs.c").read_text()),
        build((corpus / "csr_matrix.cpp").read_text(), ".cpp"),
    ):
        parsed = llvm.parse_assembly(module.text)
        defined = [f for f in parsed.functions if not f.is_declaration]
        defined = [f for f in defined if f.linkage.name != "available_externally"]
        assert len(defined) == len(module.functions)
        for function, fn in zip(module, defined, strict=True):
            refs = [ref for block in fn.blocks for ref in block.instructions]
            assert len(refs) == len(function.instructions) > 0
            for value, ref in zip(function.instructions, refs, strict=True):
                assert value.opcode == ref.opcode
                if ref.name:
                    assert value.name == f"%{ref.name}"
                else:
                    assert value.name == "" or value.name[1:].isdigit()
