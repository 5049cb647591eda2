"""The clang-22 front end: C, C++, `.ll` and `.bc` in, canonical LLVM IR out.

The canonical pipeline keeps idioms visible to the matcher:

1. `clang-22 -O2 -Xclang -disable-llvm-passes -gline-tables-only -ffp-contract=off`
   emits the IR exactly as the front end produced it, but without the `optnone` and
   `noinline` attributes that `-O0` adds, and with TBAA metadata (so LICM can hoist
   loads out of loops). `-ffp-contract=off` keeps `a*b+c` as `fmul` + `fadd` instead of
   `llvm.fmuladd`.
2. `opt-22` runs `CANONICAL_PASSES`: the C library's functions are declared with what
   they touch (inferattrs, as clang -O2 does: `expf` writes errno only, so a function
   of the file that calls it is inferred to write errno only, and a global pointer is
   not reloaded after each call), tiny helpers (C++ accessors, macros turned into
   functions) are inlined under a low threshold (functions declared `inline` under
   LLVM's higher threshold for inline hints, as at -O2; for C++, small loop-free
   functions defined in a class body too: see `hint_inline_functions`), locals are
   promoted to SSA (sroa),
   the memory effects of every function are inferred (function-attrs, on the promoted
   code: a helper that only writes through its pointer argument is `memory(argmem:
   write)`, so a load of a global bound is hoisted out of a loop that calls it),
   redundancies removed (early-cse, gvn without partial redundancy elimination, which
   would carry `row_ptr[i]` over from the previous iteration; both with GlobalsAA, which
   knows that no pointer reaches a global whose address is never taken, so a scalar
   global such as NAS BT's `tmp1` is not reloaded after every store through a pointer,
   and with the limits of MEMORY_ANALYSIS_LIMITS), the CFG simplified,
   loops put in simplified, rotated, LCSSA form with their invariants hoisted (licm).
   There is no unrolling and no vectorisation, so a source loop stays one IR loop.

`.ll` and `.bc` inputs are taken as they are (the user chose that IR).

`canonical_ir` gives the IR in the form that is cheapest to produce and to read: for a
source file, clang's output is piped into opt and opt's bitcode comes back through a
pipe (no temporary files, opt starts while clang is still compiling, and the result is
neither printed as text nor parsed back), for `.ll` the text, for `.bc` the bytes.
`matcher.ir_builder.build_module` takes either. `compile_to_ir` always gives text.
clang's standard input is empty: the command's own is never read as source.

A process that waits for its next command (the warm server, cli/server.py) may have both
tools started ahead (matcher/frontend_standby.py); a compile uses them only when they
would have been started exactly as it starts them, and otherwise starts its own.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from idl.errors import IdiomError
from matcher import frontend_standby

__all__ = [
    "CANONICAL_PASSES",
    "CXX_SUFFIXES",
    "C_SUFFIXES",
    "HINTED_SIZE",
    "IR_SUFFIXES",
    "CompileOptions",
    "FrontendError",
    "canonical_ir",
    "compile_to_ir",
    "find_tool",
    "hint_inline_functions",
    "opt_command",
    "record_sources",
    "source_files",
    "source_ir",
]

C_SUFFIXES = frozenset({".c"})
CXX_SUFFIXES = frozenset({".cc", ".cpp", ".cxx", ".c++", ".C"})
IR_SUFFIXES = frozenset({".ll", ".bc"})

# Loop passes need loop-simplify form; simplifycfg undoes it, so it comes last again.
CANONICAL_PASSES = (
    "inferattrs,cgscc(inline),function(sroa),cgscc(function-attrs),"
    "require<globals-aa>,function(invalidate<aa>),"
    "function(sroa,early-cse,simplifycfg,loop-simplify,lcssa,loop-rotate,"
    "loop-mssa(licm),instcombine<no-verify-fixpoint>,gvn<no-pre;no-load-pre>,"
    "instcombine<no-verify-fixpoint>,simplifycfg,loop-simplify,lcssa)"
)
# LLVM's limits on how far its memory analyses look, raised for loop bodies of hundreds
# of accesses (NAS BT's solvers build 75 block entries per point; with the defaults gvn
# stops looking back after 100 instructions and licm after 100 accesses, and each entry
# reloads the global scalars `tmp1`, `tmp2` that licm would have kept in registers).
MEMORY_ANALYSIS_LIMITS = (
    "-memdep-block-scan-limit=2000",
    "-licm-mssa-optimization-cap=5000",
    "-licm-mssa-max-acc-promotion=5000",
)
INLINE_THRESHOLD = 45  # inlines accessors (operator() over std::vector), never a loop nest
# The most instructions (as clang emits them, before any pass) of a C++ inline function
# given the inline hint: a three-index accessor over std::vector has 26.
HINTED_SIZE = 40
_INLINE_DEFINITION = re.compile(r"^define linkonce_odr [^\n]*?\) (?:[a-z_]+ )*(#\d+) ")
_LABEL = re.compile(r"^([-\w.$]+):")
_TARGET = re.compile(r"label %([-\w.$]+)")


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


def find_tool(name: str, search_path: str | None = None) -> str:
    """The path of an LLVM 22 tool, or a FrontendError saying how to install it; looked
    for in `search_path` when given, else in `PATH`."""
    for candidate in (f"{name}-22", f"/usr/lib/llvm-22/bin/{name}"):
        found = shutil.which(candidate, path=search_path)
        if found:
            return found
    raise FrontendError(
        f"{name}-22 not found: install the Debian packages clang-22 and llvm-22 "
        "(the README's setup command does it)"
    )


def compile_to_ir(path: Path, options: CompileOptions | None = None) -> str:
    """Canonical LLVM IR text for a C/C++/IR file."""
    ir = canonical_ir(path, options)
    return ir if isinstance(ir, str) else _bitcode_to_text(ir, path)


# The sources this process compiled, kept once `record_sources` asked for them: the
# server learns its search plans from what its commands analysed (cli/server.py).
_recorded: list[tuple[str, str, CompileOptions]] | None = None


def record_sources() -> list[tuple[str, str, CompileOptions]]:
    """From now on, every C/C++ source compiled is added to the list returned, as its
    absolute path, the working folder and the options."""
    global _recorded  # noqa: PLW0603 - one recording per process
    _recorded = []
    return _recorded


def canonical_ir(path: Path, options: CompileOptions | None = None) -> str | bytes:
    """Canonical LLVM IR for a C/C++/IR file: bitcode (bytes) or text (str)."""
    options = options or CompileOptions()
    if not path.is_file():
        raise FrontendError(f"{path}: no such file")
    suffix = path.suffix
    if _recorded is not None and suffix in C_SUFFIXES | CXX_SUFFIXES:
        _recorded.append((str(path.resolve()), os.getcwd(), options))
    if suffix == ".ll":
        return path.read_text(encoding="utf-8", errors="replace")
    if suffix == ".bc":
        return path.read_bytes()
    if suffix in C_SUFFIXES:
        return _compile_source(path, "clang", options)
    if suffix in CXX_SUFFIXES:
        return _compile_source(path, "clang++", options)
    raise FrontendError(
        f"{path}: unknown input kind '{suffix}' (expected .c, .cc/.cpp/.cxx, .ll or .bc)"
    )


def _compile_source(path: Path, driver: str, options: CompileOptions) -> bytes:
    """clang | opt: text into opt, bitcode out of it.

    opt reads text, as it did from a file: given clang's bitcode, which keeps the order
    of each value's uses, its passes would name a few values differently (`%retval.0`
    for `%retval.1`). Its output order of uses does not matter: the model takes users
    from operands."""
    front = _front_end(
        path,
        driver,
        options,
        "-gline-tables-only",
        "-ffp-contract=off",
        "-fno-discard-value-names",
    )
    passes = opt_command()
    standby = frontend_standby.take(front[0], front[1:], passes)
    if standby is not None:
        with contextlib.suppress(frontend_standby.StandbyLost):
            return _compile_on_standby(path, standby, front, driver == "clang++")
    if driver == "clang++":
        return _optimise(path, _hinted_cxx(path, front), passes)
    # clang's diagnostics go to a file: a pipe nobody reads while opt runs could fill
    # up and stop clang (and opt, waiting for its input).
    with tempfile.TemporaryFile() as clang_errors:
        try:
            compiling = subprocess.Popen(
                front, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=clang_errors
            )
        except OSError as error:
            raise FrontendError(f"{path}: clang-22 failed: {error}") from error
        assert compiling.stdout is not None
        try:
            optimising = subprocess.Popen(
                passes, stdin=compiling.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        except OSError as error:
            compiling.kill()
            compiling.wait()
            raise FrontendError(f"{path}: opt-22 failed: {error}") from error
        finally:
            compiling.stdout.close()  # opt holds the read end now
        bitcode, opt_errors = optimising.communicate()
        if compiling.wait() != 0:
            clang_errors.seek(0)
            _clang_failed(path, clang_errors.read().decode(errors="replace"))
    _check_opt(path, optimising.returncode, opt_errors)
    return bitcode


def opt_command(search_path: str | None = None) -> list[str]:
    """opt-22 with the canonical passes, IR text in and bitcode out through pipes."""
    return [
        find_tool("opt", search_path),
        f"-inline-threshold={INLINE_THRESHOLD}",
        *MEMORY_ANALYSIS_LIMITS,
        f"-passes={CANONICAL_PASSES}",
        "-",
        "-o",
        "-",
    ]


def _compile_on_standby(
    path: Path, standby: frontend_standby.Standby, front: list[str], cxx: bool
) -> bytes:
    """`_compile_source` on tools started ahead (matcher/frontend_standby.py); StandbyLost
    when its clang had ended before taking the arguments."""
    try:
        status, text, diagnostics = standby.front_end(front[0], front[1:])
        if status != 0:
            _clang_failed(path, diagnostics)
        if cxx:
            hinted = hint_inline_functions(text.decode(errors="surrogateescape"))
            text = hinted.encode(errors="surrogateescape")
        status, bitcode, opt_errors = standby.optimise(text)
    finally:
        standby.discard()
    _check_opt(path, status, opt_errors)
    return bitcode


def _clang_failed(path: Path, diagnostics: str) -> NoReturn:
    raise FrontendError(f"{path}: clang-22 failed:\n{diagnostics.strip()}")


def _check_opt(path: Path, status: int, errors: bytes) -> None:
    if status != 0:
        diagnostics = errors.decode(errors="replace").strip()
        raise FrontendError(f"{path}: opt-22 failed on the IR clang produced:\n{diagnostics}")


def _hinted_cxx(path: Path, front: list[str]) -> bytes:
    """clang's IR of a C++ file, its small inline functions hinted (`hint_inline_functions`)."""
    try:
        result = subprocess.run(front, stdin=subprocess.DEVNULL, capture_output=True, check=False)
    except OSError as error:
        raise FrontendError(f"{path}: clang-22 failed: {error}") from error
    if result.returncode != 0:
        _clang_failed(path, result.stderr.decode(errors="replace"))
    text = result.stdout.decode(errors="surrogateescape")
    return hint_inline_functions(text).encode(errors="surrogateescape")


def _optimise(path: Path, text: bytes, passes: list[str]) -> bytes:
    try:
        result = subprocess.run(passes, input=text, capture_output=True, check=False)
    except OSError as error:
        raise FrontendError(f"{path}: opt-22 failed: {error}") from error
    _check_opt(path, result.returncode, result.stderr)
    return result.stdout


def hint_inline_functions(text: str) -> str:
    """The IR `text` with the inline hint on each C++ inline function (linkonce_odr: defined
    in a class body, a template, or declared `inline`) of at most HINTED_SIZE instructions
    and no loop. clang hints only functions declared `inline`; a member function defined in
    its class body is inline all the same, and an accessor of three indices
    (`at(r, q, p)`) costs more than INLINE_THRESHOLD. A loop stays out, so that a kernel
    stays in the function that holds it."""
    lines = text.split("\n")
    start = None
    for number, line in enumerate(lines):
        if line.startswith("define linkonce_odr "):
            start = number
        elif line == "}" and start is not None:
            if _small_without_loop(lines[start + 1 : number]):
                lines[start] = _INLINE_DEFINITION.sub(r"\g<0>inlinehint ", lines[start], count=1)
            start = None
    return "\n".join(lines)


def _small_without_loop(body: list[str]) -> bool:
    """Whether a function body (its lines between `{` and `}`) has at most HINTED_SIZE
    instructions and no branch back to its own or an earlier block (clang emits blocks in
    source order, so a loop's latch branches back to its header)."""
    seen: set[str] = set()
    instructions = 0
    for line in body:
        label = _LABEL.match(line)
        if label is not None:
            seen.add(label.group(1))
            continue
        if not line.startswith("  "):
            continue
        instructions += 1
        if instructions > HINTED_SIZE or any(t in seen for t in _TARGET.findall(line)):
            return False
    return True


def source_ir(path: Path, options: CompileOptions | None = None) -> str | None:
    """The IR a plain `clang-22 -O2` build of a C/C++ file optimises (its passes not yet
    run), as text; None for IR inputs, which have no other form."""
    options = options or CompileOptions()
    if path.suffix not in C_SUFFIXES | CXX_SUFFIXES:
        return None
    command = _front_end(path, "clang++" if path.suffix in CXX_SUFFIXES else "clang", options)
    try:
        result = subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
        )
    except OSError as error:
        raise FrontendError(f"{path}: clang-22 failed: {error}") from error
    if result.returncode != 0:
        _clang_failed(path, result.stderr)
    return result.stdout


def _front_end(path: Path, driver: str, options: CompileOptions, *extra: str) -> list[str]:
    """clang's front end at -O2 with its passes off, IR text to standard output: the one
    command both the canonical IR and `source_ir` start from, so that their functions and
    globals carry the same names."""
    return [
        find_tool(driver),
        *options.clang_flags(),
        "-O2",
        "-Xclang",
        "-disable-llvm-passes",
        *extra,
        "-emit-llvm",
        "-S",
        str(path),
        "-o",
        "-",
    ]


def _bitcode_to_text(bitcode: bytes, path: Path) -> str:
    # Imported here: finding tools and file kinds (`idiom check`'s cache hits) needs no LLVM.
    import llvmlite.binding as llvm  # noqa: PLC0415

    try:
        module = llvm.parse_bitcode(bitcode)
    except RuntimeError as error:
        raise FrontendError(f"{path}: LLVM rejected the bitcode: {error}") from error
    return str(module)
