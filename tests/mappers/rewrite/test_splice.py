"""Functions the tool left unchanged are compiled from the source's own IR
(mappers/rewrite/splice.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from mappers.accelerate import accelerate
from mappers.rewrite.splice import spliced
from matcher.frontend import CompileOptions, compile_to_ir, find_tool, source_ir

CORPUS = Path(__file__).resolve().parents[3] / "corpus"

# `helper` is inlined everywhere by the canonical pipeline (and dropped); `halves` calls it.
PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
static int helper(int lo, int hi) { return (lo + hi) / 2; }
__attribute__((noinline)) int halves(const int *edges, int key) {
    int lo = 0, hi = 64;
    while (lo < hi) {
        int mid = helper(lo, hi);
        if (edges[mid] <= key) lo = mid + 1; else hi = mid;
    }
    return lo;
}
double total(const double *a, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int edges[64];
    double *a = malloc(sizeof *a * (size_t)n);
    for (int e = 0; e < 64; e++) edges[e] = 3 * e;
    for (int i = 0; i < n; i++) a[i] = halves(edges, i % 200);
    printf("%.1f\n", total(a, n));
    free(a);
    return 0;
}
"""


def _function(text: str, name: str) -> list[str]:
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if re.match(rf"define .*@{name}\(", line))
    end = lines.index("}", start)
    return lines[start : end + 1]


def _masked(lines: list[str]) -> list[str]:
    return [re.sub(r"([#!])\d+", r"\1", line) for line in lines]


def test_unchanged_functions_come_from_the_source(tmp_path: Path) -> None:
    source = tmp_path / "prog.c"
    source.write_text(PROGRAM)
    ir = tmp_path / "prog.ll"
    accelerate([source], ir, CompileOptions(), emit_llvm=True, original_copies=False)
    text = ir.read_text()
    original = source_ir(source, CompileOptions())
    assert original is not None
    # `halves` as the source has it (no debug locations, `helper` still called) ...
    assert _masked(_function(text, "halves")) == _masked(_function(original, "halves"))
    assert "@helper(" in "\n".join(_function(text, "halves"))
    # ... and `helper`, which the canonical IR no longer defines, brought along.
    assert "@helper(" not in "\n".join(
        line for line in compile_to_ir(source).splitlines() if "define" in line
    )
    assert _function(text, "helper")
    # The reduction's function is the rewritten one.
    assert "idiom" in "\n".join(_function(text, "total"))
    exe = tmp_path / "prog"
    accelerate([source], exe, CompileOptions())
    plain = tmp_path / "plain"
    subprocess.run([find_tool("clang"), "-O2", str(source), "-o", str(plain)], check=True)
    for n in ("0", "1", "1000"):
        ran = [subprocess.run([str(b), n], capture_output=True, text=True, check=True).stdout
               for b in (plain, exe)]  # fmt: skip
        assert ran[0] == ran[1]


def test_search_loops_compile_as_the_original(tmp_path: Path) -> None:
    # nm_hist_search: the canonical pipeline's early instcombine made `(lo + hi) / 2` a signed
    # division that -O2 no longer turns into a shift (42% more instructions).
    source = CORPUS / "nm_hist_search.c"
    ir = tmp_path / "acc.ll"
    accelerate([source], ir, CompileOptions(), emit_llvm=True)
    clang = find_tool("clang")
    assembly = {}
    for name, path in (("original", source), ("accelerated", ir)):
        out = tmp_path / f"{name}.s"
        subprocess.run([clang, "-O2", "-S", str(path), "-o", str(out)], check=True)
        assembly[name] = out.read_text()
    for function in ("place_keys", "count_probes"):
        assert _instructions(assembly["accelerated"], function) == _instructions(
            assembly["original"], function
        )


def test_callers_of_changed_functions_keep_their_canonical_form(tmp_path: Path) -> None:
    # nm_stencil_impure: the canonical pipeline inlines `note_clamp` into `sharpen_clamp`;
    # left uncalled, `note_clamp` gets host accesses. The source's `sharpen_clamp` would call
    # that guarded copy, which -O2 no longer inlines (49% more instructions).
    source = CORPUS / "nm_stencil_impure.c"
    ir = tmp_path / "acc.ll"
    accelerate([source], ir, CompileOptions(), emit_llvm=True, original_copies=False)
    assert "host_access" in "\n".join(_function(ir.read_text(), "note_clamp"))
    out = tmp_path / "acc.s"
    subprocess.run([find_tool("clang"), "-O2", "-S", str(ir), "-o", str(out)], check=True)
    calls = [line for line in _instructions(out.read_text(), "sharpen_clamp") if "call" in line]
    assert not any("note_clamp" in line for line in calls), calls


def _instructions(assembly: str, function: str) -> list[str]:
    """A function's instructions, without labels, comments and directives."""
    body = assembly.split(f"\n{function}:", 1)[1].split(".Lfunc_end", 1)[0]
    lines = (line.split("#", 1)[0].strip() for line in body.splitlines())
    return [line for line in lines if line and not line.startswith(".") and ":" not in line]


def test_a_unit_that_does_not_verify_is_left_whole() -> None:
    final = canonical = "define i32 @f(i32 %x) {\n  ret i32 %x\n}\n"
    broken_source = "define i32 @f(i32 %x) {\n  ret i64 %x\n}\n"
    assert spliced(final, canonical, broken_source) == final


def test_changed_functions_stay_rewritten() -> None:
    """(Doubled with the source's copy by default: tests/mappers/rewrite/test_worlds.py.)"""
    canonical = "define i32 @f(i32 %x) {\n  ret i32 %x\n}\n"
    final = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n"
    source = "define i32 @f(i32 %x) {\nentry:\n  ret i32 %x\n}\n"
    assert spliced(final, canonical, source, original_copies=False) == final
