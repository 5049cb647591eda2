"""What a compiler command line asks for: pass it through, compile units, or link.

The wrapper only takes over the two commands it can improve: compiling C/C++ sources to
objects (`-c`) and linking objects into a program (sources too, compiled first). Anything
else (preprocessing, assembly output, dependency-only runs, version and configuration
probes, languages forced with `-x`, standard input, instrumented builds) goes to clang-22
unchanged, so a build system sees the compiler it expects.

Each flag is sorted by what it is for: the front end (kept for idiom's own compiles and
for every plain compile), the link only, dependency files, or the output name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

__all__ = [
    "CXX_SOURCES",
    "C_SOURCES",
    "Invocation",
    "Kind",
    "classify",
    "codegen_flags",
    "default_object",
]

C_SOURCES = frozenset({".c"})
CXX_SOURCES = frozenset({".cc", ".cpp", ".cxx", ".c++", ".cp", ".C", ".CPP"})
# Inputs clang compiles that idiom does not read: the command is passed through whole.
_OTHER_SOURCES = frozenset(
    {".i", ".ii", ".s", ".S", ".sx", ".asm", ".m", ".mm", ".M", ".cu", ".hip", ".cl", ".ll",
     ".bc", ".f", ".for", ".f90", ".F", ".F90", ".h", ".hh", ".hpp", ".hxx", ".H", ".pch",
     ".pcm", ".cppm", ".ixx", ".gch"}
)  # fmt: skip

# Flags whose value is the next argument when it is not joined to them.
_SEPARATE = frozenset(
    {"-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
     "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-iframework",
     "-isystem-after", "-cxx-isystem", "-ivfsoverlay", "-include-pch", "-L", "-l", "-x",
     "-MF", "-MT", "-MQ", "-MJ", "-Xclang", "-Xlinker", "-Xassembler", "-Xpreprocessor",
     "-arch", "-target", "-T", "-u", "-z", "-e", "-B", "-mllvm", "-F", "-framework",
     "--sysroot", "--param", "-aux-info", "-dependency-file", "-serialize-diagnostics",
     "-gcc-toolchain", "--gcc-toolchain", "-A", "-G"}
)  # fmt: skip
# Flags that make the command something other than compile-to-object or link.
_PASS_EXACT = frozenset(
    {"-E", "-S", "-M", "-MM", "-fsyntax-only", "-emit-llvm", "-v", "-###", "--version",
     "-version", "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs", "--help",
     "-help", "-r", "-save-temps", "-flto", "-fembed-bitcode", "-shared-libasan", "-x",
     "--coverage", "-pg", "-fmodules", "-Xarch_host", "-cc1", "-cc1as"}
)  # fmt: skip
_PASS_PREFIXES = (
    "-print-", "--print-", "-save-temps=", "-flto=", "-fsanitize", "-fprofile-",
    "-fcoverage", "-fembed-bitcode=", "-x", "--target-help", "-fdump",
    "-emit-", "-fxray", "-finstrument",
)  # fmt: skip
# Dependency-file flags: meaningful only alongside a compile.
_DEPENDENCY = frozenset({"-MD", "-MMD", "-MP", "-MG", "-MV"})
_DEPENDENCY_VALUED = ("-MF", "-MT", "-MQ", "-MJ")
# Flags that only the link step reads.
_LINK_EXACT = frozenset(
    {"-static", "-shared", "-rdynamic", "-nostdlib", "-nodefaultlibs", "-nostartfiles",
     "-pie", "-no-pie", "-s", "-static-libgcc", "-static-libstdc++", "-static-pie",
     "-Xlinker", "-T", "-u", "-z", "-e", "-l", "-L"}
)  # fmt: skip
_LINK_PREFIXES = ("-Wl,", "-fuse-ld=", "--ld-path=", "-rtlib=", "--rtlib=", "-unwindlib=")
# The front end's own choices override these (idiom reads the IR of one pipeline).
_NOT_FOR_FRONT_END = ("-g", "-O", "-pipe", "-W", "-w", "-fdiagnostics", "-fcolor")


class Kind(Enum):
    PASS = "pass"  # clang-22 with the same arguments
    COMPILE = "compile"  # `-c`: sources to objects
    LINK = "link"  # objects (and sources, compiled first) to a program or library


@dataclass(frozen=True)
class Invocation:
    """A command line, sorted."""

    kind: Kind
    why: str = ""  # what made it a pass-through
    sources: tuple[Path, ...] = ()  # C/C++ sources, in order
    inputs: tuple[str, ...] = ()  # every positional input in order (sources among them)
    output: str | None = None
    compile_flags: tuple[str, ...] = ()  # all flags but inputs, `-c`, `-o`, link and deps
    link_flags: tuple[str, ...] = ()  # flags only the link reads, in order
    dependency_flags: tuple[str, ...] = ()
    order: tuple[tuple[str, str], ...] = field(default=())
    """The whole command as ("input" | "link" | "compile", argument) in order, `-o` and `-c`
    and dependency flags left out: a link command is rebuilt from it."""

    @property
    def front_end_flags(self) -> tuple[str, ...]:
        """The compile flags idiom's front end takes (defines, includes, standard, target,
        language options): not debug info, optimisation or warnings, which its pipeline
        sets itself."""
        kept: list[str] = []
        for flag, value in _pairs(self.compile_flags):
            if flag == "-Ofast":  # its meaning survives the pipeline's own -O2
                kept.append("-ffast-math")
            if flag.startswith(_NOT_FOR_FRONT_END) and not flag.startswith("-Wp,"):
                continue
            kept += [flag] if value is None else [flag, value]
        return tuple(kept)


def classify(argv: list[str]) -> Invocation:
    """Sort a compiler command line (without the program name)."""
    if not argv:
        return Invocation(Kind.PASS, why="no arguments")
    compile_only = False
    output: str | None = None
    inputs: list[str] = []
    sources: list[Path] = []
    compile_flags: list[str] = []
    link_flags: list[str] = []
    dependency: list[str] = []
    order: list[tuple[str, str]] = []
    position = 0
    while position < len(argv):
        argument = argv[position]
        position += 1
        if argument.startswith("@"):
            return Invocation(Kind.PASS, why=f"response file {argument}")
        if argument == "-" or not argument.startswith("-") or argument == "--":
            if argument in ("-", "--"):
                return Invocation(Kind.PASS, why=f"input '{argument}'")
            suffix = Path(argument).suffix
            if suffix in _OTHER_SOURCES:
                return Invocation(Kind.PASS, why=f"{argument}: not a C or C++ source")
            if suffix in C_SOURCES | CXX_SOURCES:
                sources.append(Path(argument))
            inputs.append(argument)
            order.append(("input", argument))
            continue
        why = _passes(argument)
        if why is not None:
            return Invocation(Kind.PASS, why=why)
        value: str | None = None
        if argument in _SEPARATE:
            if position >= len(argv):
                return Invocation(Kind.PASS, why=f"{argument} without a value")
            value = argv[position]
            position += 1
        pair = [argument] if value is None else [argument, value]
        if argument == "-c":
            compile_only = True
        elif argument == "-o" or (argument.startswith("-o") and len(argument) > 2):
            output = value if value is not None else argument[2:]
        elif argument in _DEPENDENCY or argument.startswith(_DEPENDENCY_VALUED):
            dependency += pair
        elif _links(argument):
            link_flags += pair
            order += [("link", a) for a in pair]
        else:
            compile_flags += pair
            order += [("compile", a) for a in pair]
    return _sorted(
        compile_only,
        Invocation(
            Kind.COMPILE,
            sources=tuple(sources),
            inputs=tuple(inputs),
            output=output,
            compile_flags=tuple(compile_flags),
            link_flags=tuple(link_flags),
            dependency_flags=tuple(dependency),
            order=tuple(order),
        ),
    )


def _sorted(compile_only: bool, invocation: Invocation) -> Invocation:
    if not invocation.inputs:
        return Invocation(Kind.PASS, why="no input file")
    if compile_only:
        if not invocation.sources:
            return Invocation(Kind.PASS, why="-c without a C or C++ source")
        return invocation
    return Invocation(
        Kind.LINK,
        sources=invocation.sources,
        inputs=invocation.inputs,
        output=invocation.output,
        compile_flags=invocation.compile_flags,
        link_flags=invocation.link_flags,
        dependency_flags=invocation.dependency_flags,
        order=invocation.order,
    )


def _passes(flag: str) -> str | None:
    if flag in _PASS_EXACT or flag.startswith(_PASS_PREFIXES):
        return flag
    return None


def _links(flag: str) -> bool:
    if flag in _LINK_EXACT or flag.startswith(_LINK_PREFIXES):
        return True
    return (flag.startswith("-l") or flag.startswith("-L")) and len(flag) > 2


def codegen_flags(compile_flags: tuple[str, ...]) -> tuple[str, ...]:
    """The flags that still matter when the unit's IR is compiled to an object:
    optimisation level, target and code model, position independence, floating-point
    and section options."""
    kept: list[str] = []
    for flag, value in _pairs(compile_flags):
        if value is not None:
            if flag in ("-target", "-mllvm"):
                kept += [flag, value]
        elif flag.startswith(("-O", "-m", "-f", "--target=")) and not flag.startswith(
            ("-fdiagnostics", "-fcolor", "-fmessage")
        ):
            kept.append(flag)
    return tuple(kept)


def _pairs(flags: tuple[str, ...]) -> list[tuple[str, str | None]]:
    """Flags with their separate values."""
    paired: list[tuple[str, str | None]] = []
    position = 0
    while position < len(flags):
        flag = flags[position]
        if flag in _SEPARATE and position + 1 < len(flags):
            paired.append((flag, flags[position + 1]))
            position += 2
        else:
            paired.append((flag, None))
            position += 1
    return paired


def default_object(source: Path) -> Path:
    """Where `clang -c SOURCE` writes its object: the source's name, `.o`, in the current
    folder."""
    return Path(source.stem + ".o")
