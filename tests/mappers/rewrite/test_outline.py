"""The fallback loop is compiled as the original is: the rewriter's code lives in functions
of its own (mappers/rewrite/outline.py) and host accesses test for device copies inline away from
loop entries (mappers/residency/host_fast.py)."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from mappers.accelerate import accelerate, rewrite_file
from mappers.residency import host_fast, placement
from mappers.rewrite import outline as outline_module
from mappers.rewrite.irtext import ModuleText
from mappers.rewrite.outline import outline
from matcher.frontend import CompileOptions, find_tool
from matcher.ir_builder import build_module

CORPUS = Path(__file__).parents[3] / "corpus"
ROW_SCATTER = Path(__file__).parents[1] / "programs" / "row_scatter.c"


def _optimisation_remarks(ir_or_source: Path) -> list[str]:
    """What clang-22 -O2 unrolled and vectorised, loop by loop (source line and what)."""
    command = [find_tool("clang"), "-O2", "-w", "-c", str(ir_or_source), "-o", "/dev/null"]
    result = subprocess.run(
        [*command, "-Rpass=loop-unroll|loop-vectorize"],
        capture_output=True,
        text=True,
        check=True,
    )
    # From a source: `file:line:col: remark: text [...]`; from IR: `remark: file:line:col: ...`.
    found = re.findall(
        r"^(?:remark: )?[^:\s]+:(\d+):\d+: (?:remark: )?(.*?) \[", result.stderr, re.M
    )
    return sorted(f"{line}: {what}" for line, what in found)


def test_outlined_code_takes_its_free_values_as_parameters() -> None:
    text = (
        "%struct.pair = type { i32, i32 }\n"
        "define i32 @f(ptr %p, i32 %n) {\n"
        "entry:\n"
        "  %0 = add i32 %n, 1\n"
        "  %q = getelementptr %struct.pair, ptr %p, i32 %0\n"
        "  store i32 %0, ptr %q\n"
        "  ret i32 %0\n"
        "}\n"
    )
    module = build_module(text, "t.ll")
    body = [
        "x.entry:",
        "  %x.1 = getelementptr %struct.pair, ptr %p, i32 %0",
        "  %x.2 = load i32, ptr %x.1",
        "  ret i32 %x.2",
    ]
    made = outline(ModuleText(module), module.functions[0], "@f.x", "i32", body)
    assert made.definition[0] == (
        "define internal preserve_allcc i32 @f.x(ptr %p, i32 %idiom.arg0) noinline {"
    )
    assert made.call("i32", "@f.x") == "call preserve_allcc i32 @f.x(ptr %p, i32 %0)"
    assert "getelementptr %struct.pair, ptr %p, i32 %idiom.arg0" in made.definition[2]


@pytest.mark.parametrize("program", ["red_stats.c", "red_logsumexp.c", "red_grid2d.c"])
def test_fallback_loops_are_unrolled_and_vectorised_as_the_originals(
    program: str, tmp_path: Path
) -> None:
    """Before the guard was outlined, its branches into the fallback hid each loop's entry
    test from LLVM, which then unrolled none of the replaced loops (a third fewer remarks).
    Functions inlined into others differ (the rewritten ones grew), so only the loops
    compiled at least once are compared."""
    source = CORPUS / program
    rewritten = tmp_path / "rewritten.ll"
    accelerate([source], rewritten, CompileOptions(), emit_llvm=True, original_copies=False)
    assert set(_optimisation_remarks(rewritten)) == set(_optimisation_remarks(source))


def test_host_accesses_test_inline_except_on_the_way_into_a_loop(tmp_path: Path) -> None:
    rewritten = tmp_path / "rewritten.ll"
    accelerate([ROW_SCATTER], rewritten, CompileOptions(), emit_llvm=True, original_copies=False)
    module = build_module(rewritten.read_text(), "row_scatter.ll")
    rows = next(f for f in module if f.name == "scatter_rows")
    fast = [i for i in rows.instructions if i.callee == "idiom.fast.host_access_at"]
    assert len(fast) == 1  # x[i] in the row loop
    assert not [i for i in rows.instructions if i.callee == "idiom_host_access"]
    # The inner loop's own host access is made where the outlined guard declines.
    for guard in ("scatter_rows.idiom0", "scatter_rows.idiom0.rest"):
        declined = next(b for b in module.function(guard).blocks if b.name == "idiom0.fallback")
        assert [i.callee for i in declined.instructions][:1] == ["idiom.fast.host_access"]
    assert "@idiom_device_entries = external global i32" in rewritten.read_text()


def test_functions_called_before_any_launch_get_no_host_access(tmp_path: Path) -> None:
    """red_memory.c launches only at the end of main; the functions main calls before that
    are entered with no device copies, keep their original code and are inlined as clang
    inlines them (before: 0.84x of the original)."""
    rewritten = tmp_path / "rewritten.ll"
    accelerate(
        [CORPUS / "red_memory.c"],
        rewritten,
        CompileOptions(),
        emit_llvm=True,
        original_copies=False,
    )
    module = build_module(rewritten.read_text(), "red_memory.ll")
    accesses = {
        function.name: [i for i in function.instructions if "host_access" in (i.callee or "")]
        for function in module
    }
    for name in ("residual_norms", "weighted_total", "accumulate_stats"):
        assert accesses[name] == [], name
    assert accesses["main"]  # after its reduction's launch
    # Those functions come from the source's own IR, which has no debug lines: compare what
    # was unrolled and vectorised, not where.
    remarks = Counter(_without_line(_optimisation_remarks(rewritten)))
    assert remarks >= Counter(_without_line(_optimisation_remarks(CORPUS / "red_memory.c")))


def _without_line(remarks: list[str]) -> list[str]:
    return [remark.split(": ", 1)[1] for remark in remarks]


def _assembly(rewritten: Path, function: str) -> list[str]:
    """`function`'s instructions as clang-22 -O2 compiles the rewritten IR."""
    command = [find_tool("clang"), "-O2", "-w", "-S", str(rewritten), "-o", "-"]
    text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    body = text.split(f"\n{function}:", 1)[1].split(".Lfunc_end", 1)[0]
    return [
        line.strip()
        for line in body.splitlines()
        if line.startswith("\t") and not line.strip().startswith(".")
    ]


def test_calls_the_rewriter_adds_keep_the_callers_registers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outlined guard and the host-access wrappers use `preserve_allcc`: the row loop
    (a host access and a guard call per row) keeps more of its values in registers than
    with the C convention, and the guard, which declines almost every call, saves no
    vector register (it did, 32 moves a call, when its decline path called the runtime
    in the C convention)."""
    kept = tmp_path / "kept.ll"
    accelerate([ROW_SCATTER], kept, CompileOptions(), emit_llvm=True, original_copies=False)
    guard = _assembly(kept, "scatter_rows.idiom0")
    assert not [line for line in guard if "%xmm" in line and "(%rsp)" in line], guard
    for module in (outline_module, host_fast, placement):
        monkeypatch.setattr(module, "CONVENTION", "ccc")
    clobbered = tmp_path / "clobbered.ll"
    accelerate([ROW_SCATTER], clobbered, CompileOptions(), emit_llvm=True, original_copies=False)
    assert "preserve_allcc" not in clobbered.read_text()
    assert _spills(kept, "scatter_rows") < _spills(clobbered, "scatter_rows")


def _spills(rewritten: Path, function: str) -> int:
    return sum("Spill" in line or "Reload" in line for line in _assembly(rewritten, function))


def test_one_row_of_an_indirect_structure_is_found_not_replaced() -> None:
    """nm_spmv_transpose.c's histogram runs over one CSR row (4 to 12 entries, bounds
    rp[i] and rp[i+1] read per row): a launch per row never pays, and the guard per row
    cost 7-22% of the program. row_scatter.c's rows have a length fixed for the whole
    matrix: it stays replaced (a guard may find them long enough)."""
    _, report = rewrite_file(CORPUS / "nm_spmv_transpose.c", CompileOptions())
    (histogram,) = [o for o in report.outcomes if o.instance.idiom == "Histogram"]
    assert not histogram.replaced
    assert histogram.detail.startswith("one row of an indirect structure: its bound")
    assert "the loop around it (line 11)" in histogram.detail  # the row loop's body
    _, rows = rewrite_file(ROW_SCATTER, CompileOptions())
    assert [o.replaced for o in rows.outcomes] == [True]
