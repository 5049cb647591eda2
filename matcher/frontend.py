"""The clang-22 front end: C, C++, `.ll` and `.bc` in, canonical LLVM IR text out.

The canonical pipeline keeps idioms visible to the matcher:

1. `clang-22 -O2 -Xclang -disable-llvm-passes -gline-tables-only -ffp-contract=off`
   emits the IR exactly as the front end produced it, but without the `optnone` and
   `noinline` attributes that `-O0` adds, and with TBAA metadata (so LICM can hoist
   loads out of loops). `-ffp-contract=off` keeps `a*b+c` as `fmul` + `fadd` instead of
   `llvm.fmuladd`.
2. `opt-22` runs `CANONICAL_PASSES`: tiny helpers (C++ accessors, macros turned into
   functions) are inlined under a low threshold, locals are promoted to SSA (sroa),
   redundancies removed (early-cse, gvn without partial redundancy elimination, which
   would carry `row_ptr[i]` over from the previous iteration), the CFG simplified,
   loops put in simplified, rotated, LCSSA form with their invariants hoisted (licm).
   There is no unrolling and no vectorisation, so a source loop stays one IR loop.

`.ll` and `.bc` inputs are taken as they are (the user chose that IR); `.bc` is turned
into text through llvmlite so the rest of the tool sees one format.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import llvmlite.binding as llvm

from idl.errors import IdiomError

__all__ = [
    "CANONICAL_PASSES",
    "CXX_SUFFIXES",
    "C_SUFFIXES",
    "IR_SUFFIXES",
    "CompileOptions",
    "FrontendError",
    "compile_to_ir",
    "find_tool",
    "source_files",
]

C_SUFFIXES = frozenset({".c"})
CXX_SUFFIXES = frozenset({".cc", ".cpp", ".cxx", ".c++", ".C"})
IR_SUFFIXES = frozenset({".ll", ".bc"})

# Loop passes need loop-simplify form; simplifycfg undoes it, so it comes last again.
CANONICAL_PASSES = (
    "cgscc(inline),"
    "function(sroa,early-cse,simplifycfg,loop-simplify,lcssa,loop-rotate,"
    "loop-mssa(licm),instcombine<no-verify-fixpoint>,gvn<no-pre;no-load-pre>,simplifycfg,loop-simplify,lcssa)"
)
INLINE_THRESHOLD = 25  # inlines accessors and one-line helpers, never a loop nest


class FrontendError(IdiomError):
    """The source could not be turned into IR (missing file or tool, clang diagnostics)."""


@dataclass(frozen=True)
class CompileOptions:
    """What the user's build passes through: include paths, defines, standard, extra flags."""

    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    std: str | None = None
    extra_flags: tuple[str, ...] = field(default=())

    def clang_flags(self) -> list[str]:
        flags = [f"-I{d}" for d in self.include_dirs] + [f"-D{d}" for d in self.defines]
        if self.std:
            flags.append(f"-std={self.std}")
        return flags + list(self.extra_flags)


def source_files(paths: Sequence[Path]) -> list[Path]:
    """The C and C++ files among `paths`, a folder standing for the ones directly in it."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.suffix in C_SUFFIXES | CXX_SUFFIXES)
        else:
            found.append(path)
    return found


def find_tool(name: str) -> str:
    """The path of an LLVM 22 tool, or a FrontendError saying how to install it."""
    for candidate in (f"{name}-22", f"/usr/lib/llvm-22/bin/{name}"):
        found = shutil.which(candidate)
        if found:
            return found
    raise FrontendError(
        f"{name}-22 not found: install the Debian packages clang-22 and llvm-22 "
        "(the README's setup command does it)"
    )


def compile_to_ir(path: Path, options: CompileOptions | None = None) -> str:
    """Canonical LLVM IR text for a C/C++/IR file."""
    options = options or CompileOptions()
    if not path.is_file():
        raise FrontendError(f"{path}: no such file")
    suffix = path.suffix
    if suffix == ".ll":
        return path.read_text(encoding="utf-8", errors="replace")
    if suffix == ".bc":
        return _bitcode_to_text(path)
    if suffix in C_SUFFIXES:
        return _compile_source(path, "clang", options)
    if suffix in CXX_SUFFIXES:
        return _compile_source(path, "clang++", options)
    raise FrontendError(
        f"{path}: unknown input kind '{suffix}' (expected .c, .cc/.cpp/.cxx, .ll or .bc)"
    )


def _compile_source(path: Path, driver: str, options: CompileOptions) -> str:
    clang = find_tool(driver)
    opt = find_tool("opt")
    with tempfile.TemporaryDirectory(prefix="idiom-fe-") as tmp:
        raw = Path(tmp) / "raw.ll"
        canonical = Path(tmp) / "canonical.ll"
        front = [
            clang,
            *options.clang_flags(),
            "-O2",
            "-Xclang",
            "-disable-llvm-passes",
            "-gline-tables-only",
            "-ffp-contract=off",
            "-fno-discard-value-names",
            "-emit-llvm",
            "-S",
            str(path),
            "-o",
            str(raw),
        ]
        _run(front, f"{path}: clang-22 failed")
        passes = [
            opt,
            "-S",
            f"-inline-threshold={INLINE_THRESHOLD}",
            f"-passes={CANONICAL_PASSES}",
            str(raw),
            "-o",
            str(canonical),
        ]
        _run(passes, f"{path}: opt-22 failed on the IR clang produced")
        return canonical.read_text(encoding="utf-8", errors="replace")


def _run(command: Sequence[str], what: str) -> None:
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise FrontendError(f"{what}: {error}") from error
    if result.returncode != 0:
        diagnostics = result.stderr.strip() or result.stdout.strip()
        raise FrontendError(f"{what}:\n{diagnostics}")


def _bitcode_to_text(path: Path) -> str:
    try:
        module = llvm.parse_bitcode(path.read_bytes())
    except RuntimeError as error:
        raise FrontendError(f"{path}: LLVM rejected the bitcode: {error}") from error
    return str(module)
