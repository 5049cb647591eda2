"""Putting pieces together into a complete program: main reads the sizes from its command
line, allocates and fills the arrays, runs the time loop (the pieces' steps, the host
accesses, a checksum of every array after every step) and exits 0."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fuzz.ctypes_c import CType
from fuzz.host import HostAction
from fuzz.piece import PAD, Array, Piece

__all__ = ["Layout", "assemble"]

STANDARD_HEADERS = ("stdio.h", "stdlib.h", "string.h", "math.h")


@dataclass(frozen=True)
class Layout:
    """How the program is written: language, files, time loop."""

    cxx: bool
    kernel_unit: bool  # kernels in a translation unit of their own
    steps: int
    early_exit: int  # the step after which main leaves the loop; -1: never
    early_return: bool  # leave with `return 0` rather than `break`
    host_before: bool  # host accesses before the pieces' steps rather than after
    windows: tuple[str, ...] = ()  # arrays also checksummed over a part at an offset
    # main's arrays behind file-scope pointers filled from malloc (NAS's C++ port keeps its
    # grids so; the accelerated build scopes their accesses apart: mappers/rewrite/allocations.py)
    static_pointers: bool = False


def _allocate(array: Array, layout: Layout) -> str:
    t, count = array.ctype.name, f"(size_t)(({array.length}) + {PAD})"
    if layout.cxx:
        store = f"{array.name}_store"
        return f"std::vector<{t}> {store}({count});\n{t} *{array.name} = {store}.data();\n"
    declared = "" if layout.static_pointers else f"{t} *"
    return (
        f"{declared}{array.name} = ({t} *)malloc(sizeof({t}) * {count});\n"
        f"if (!{array.name}) return 1;\n"
    )


def _static_pointers(pieces: Sequence[Piece], layout: Layout) -> str:
    """File-scope declarations of the arrays main allocates, where the layout wants them."""
    if not layout.static_pointers or layout.cxx:
        return ""
    allocated = [array for piece in pieces for array in piece.arrays if array.allocate]
    return "".join(f"static {a.ctype.name} *{a.name};\n" for a in allocated) + "\n"


def _fill(array: Array) -> str:
    return (
        f"for (long i = 0; i < (long)({array.length}) + {PAD}; i++)\n"
        f"    {array.name}[i] = {array.fill};\n"
    )


def _checksum_name(ctype: CType) -> str:
    return "fz_checksum_" + ctype.name.replace(" ", "_")


def _checksum_function(ctype: CType) -> str:
    """One checksum function per element type: weighted by position, so that a permutation
    shows; one reduction kernel for every array of the type."""
    total = ctype.sum_type
    return (
        f"{total} {_checksum_name(ctype)}(const {ctype.name} *a, long n)\n{{\n"
        f"    {total} cs = 0;\n"
        "    for (long i = 0; i < n; i++)\n"
        f"        cs += ({total})a[i] * ({total})(i % 7 + 1);\n"
        "    return cs;\n}\n"
    )


def _checksum(array: Array) -> str:
    show = "%#.10g" if array.ctype.is_float else "%ld"
    call = f"{_checksum_name(array.ctype)}({array.name}, (long)({array.length}) + {PAD})"
    return f'printf("{array.name} {show}\\n", {call});\n'


def _window(array: Array) -> str:
    """A checksum of half the array from a moving offset: launches over ranges that overlap
    the whole array's."""
    show = "%#.10g" if array.ctype.is_float else "%ld"
    part = f"{array.name} + t % 4, (long)({array.length}) / 2"
    call = f"{_checksum_name(array.ctype)}({part})"
    return f'printf("{array.name}[part] {show}\\n", {call});\n'


def _indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


def _includes(pieces: Sequence[Piece], cxx: bool) -> str:
    names = list(STANDARD_HEADERS)
    for piece in pieces:
        names += [name for name in piece.includes if name not in names]
    lines = [f"#include <{name}>" for name in names]
    if cxx:
        lines.append("#include <vector>")
    return "\n".join(lines) + "\n"


def assemble(
    pieces: Sequence[Piece], actions: Sequence[HostAction], layout: Layout
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The program's files (name -> text) and its command-line arguments."""
    suffix = ".cpp" if layout.cxx else ".c"
    includes = _includes(pieces, layout.cxx)
    header = "".join(piece.header for piece in pieces) + "".join(
        action.prototypes for action in actions
    )
    kernels = "".join(piece.kernels + "\n" for piece in pieces)
    checked = {array.ctype.name: array.ctype for piece in pieces for array in piece.arrays}
    main_helpers = "".join(_checksum_function(ctype) + "\n" for ctype in checked.values())
    main_helpers += "".join(a.helpers + "\n" for a in actions if not a.other_unit)
    main_helpers += _static_pointers(pieces, layout)
    unit_helpers = "".join(a.helpers + "\n" for a in actions if a.other_unit)
    params = [param for piece in pieces for param in piece.params]
    body = [f"if (argc < {2 + len(params)}) return 2;\n", "int steps = atoi(argv[1]);\n"]
    body += [f"int {param.name} = atoi(argv[{2 + k}]);\n" for k, param in enumerate(params)]
    # Arrays main allocates are filled before the pieces' setup (which may read them);
    # the pieces' own arrays (globals, structures they build) after it.
    for piece in pieces:
        for array in piece.arrays:
            if array.allocate:
                body.append(_allocate(array, layout))
                body.append(_fill(array) if array.fill else "")
        body.append(piece.setup)
        for array in piece.arrays:
            if not array.allocate and array.fill:
                body.append(_fill(array))
    body += [action.setup for action in actions]
    loop: list[str] = []
    host = "".join(action.code + "\n" for action in actions)
    steps = "".join(piece.step for piece in pieces)
    loop += [host, steps] if layout.host_before else [steps, host]
    loop += [_checksum(array) for piece in pieces for array in piece.arrays]
    loop += [_window(a) for piece in pieces for a in piece.arrays if a.name in layout.windows]
    if layout.early_exit >= 0:
        leave = '{ printf("early\\n"); return 0; }' if layout.early_return else "break;"
        loop.append(f"if (t == {layout.early_exit}) {leave}\n")
    body.append("for (int t = 0; t < steps; t++) {\n" + _indent("".join(loop), 4) + "}\n")
    body.append('printf("done\\n");\nreturn 0;\n')
    main = "int main(int argc, char **argv)\n{\n" + _indent("".join(body), 4) + "}\n"
    files: dict[str, str] = {}
    separate = layout.kernel_unit or bool(unit_helpers)
    if not separate:
        files[f"prog{suffix}"] = includes + "\n" + header + "\n" + kernels + main_helpers + main
    else:
        files["fuzz.h"] = "#pragma once\n" + includes + "\n" + header
        if layout.kernel_unit:
            files[f"kernels{suffix}"] = '#include "fuzz.h"\n\n' + kernels
            files[f"main{suffix}"] = '#include "fuzz.h"\n\n' + main_helpers + main
        else:
            files[f"main{suffix}"] = '#include "fuzz.h"\n\n' + kernels + main_helpers + main
        if unit_helpers:
            files[f"host{suffix}"] = '#include "fuzz.h"\n\n' + unit_helpers
    arguments = (str(layout.steps), *(str(param.value) for param in params))
    return files, arguments
