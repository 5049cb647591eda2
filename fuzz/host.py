"""Host reads and writes of a kernel's arrays between launches: in main, through a pointer,
in another function or translation unit, and through libc (memcpy, memset, fread from a
tmpfile, qsort, snprintf/sscanf)."""

from __future__ import annotations

from dataclasses import dataclass

from fuzz.piece import PAD, Array, Chooser

__all__ = ["HOST_ACTIONS", "HostAction", "host_action"]

HOST_ACTIONS = (
    "direct",
    "pointer",
    "holder",
    "read",
    "function",
    "other-unit",
    "memcpy",
    "memmove",
    "memset",
    "fread",
    "qsort",
    "text",
    "modulo",
    "narrow",
    "wrap",
    "down",
    "fnptr",
    "global-pointer",
)


@dataclass(frozen=True)
class HostAction:
    """Code for main's time loop, what main sets up first, and helper functions (placed in
    main's file or, for "other-unit", in a file of their own, declared in the header)."""

    name: str
    code: str
    setup: str = ""
    helpers: str = ""
    prototypes: str = ""
    other_unit: bool = False


def _value(array: Array, index: str, salt: int) -> str:
    """A value the host may store into `array` at `index` (keeps index arrays in range)."""
    t = array.ctype.name
    if array.role == "index":
        return f"({t})(((long)({index}) * {3 + salt % 4} + t) % ({array.bound}))"
    return array.ctype.small_value(f"({index}) + t", salt)


def host_action(ch: Chooser, array: Array, number: int) -> HostAction:
    """One host access to `array` (never a "fixed" one), chosen at random."""
    kind = ch.pick(f"host{number}", HOST_ACTIONS)
    ch.features.append(f"host{number}.array={array.name}")
    a, t, length = array.name, array.ctype.name, f"((long)({array.length}))"
    salt = ch.number(0, 30)
    guard = f"if (({array.bound}) > 0) " if array.role == "index" else ""
    helper = f"fz_host{number}"
    if kind == "modulo":  # an address that is not affine in the counter
        value = _value(array, "j", salt)
        code = (
            f"{guard}for (long j = 0; j < {length}; j += 2)\n    {a}[(j * 7) % {length}] = {value};"
        )
        return HostAction(kind, code)
    if kind == "narrow":  # an 8-bit counter
        value = _value(array, "c", salt)
        code = (
            f"{guard}{{\n    int top = {length} < 200 ? (int){length} : 200;\n"
            f"    for (unsigned char c = 1; c < top; c += 3)\n        {a}[c] = {value};\n}}"
        )
        return HostAction(kind, code)
    if kind == "wrap":  # an 8-bit counter that wraps: 250..255, then 0..3
        value = _value(array, "c", salt)
        code = (
            f"{guard}if ({length} >= 256)\n"
            f"    for (unsigned char c = 250; c != 4; c++)\n        {a}[c] = {value};"
        )
        return HostAction(kind, code)
    if kind == "down":
        value = _value(array, "j - 1", salt)
        code = f"{guard}for (long j = {length}; j > 0; j -= 3)\n    {a}[j - 1] = {value};"
        return HostAction(kind, code)
    if kind in ("fnptr", "global-pointer"):
        bound_param = ", long bound" if array.role == "index" else ""
        value = _value(array, "j", salt).replace(f"({array.bound})", "(bound)")
        bound_arg = f", {array.bound}" if array.role == "index" else ""
        if kind == "fnptr":
            signature = f"void {helper}({t} *a, long len, int t{bound_param})"
            target, call = "a", f"{helper}_ptr({a}, {length}, t{bound_arg})"
            extra = f"void (*{helper}_ptr)({t} *, long, int{bound_param}) = {helper};\n"
            helpers = ""
        else:
            signature = f"void {helper}(long len, int t{bound_param})"
            target, call = f"{helper}_array", f"{helper}({length}, t{bound_arg})"
            extra = f"{helper}_array = {a};\n"
            helpers = f"{t} *{helper}_array;\n"
        helpers += (
            f"{signature}\n{{\n    for (long j = len - 1 - t % 2; j >= 0; j -= 5)\n"
            f"        {target}[j] = {value};\n}}\n"
        )
        return HostAction(kind, f"{guard}{{\n    {extra}    {call};\n}}", helpers=helpers)
    if kind == "direct":
        value = _value(array, "j", salt)
        code = f"{guard}for (long j = t % 3; j < {length}; j += 5) {a}[j] = {value};"
        return HostAction(kind, code)
    if kind == "pointer":
        code = (
            f"{guard}{{\n    {t} *q = {a} + 1;\n"
            f"    for (long j = 0; j + 1 < {length}; j += 4)\n"
            f"        q[j] = {_value(array, 'j + 1', salt)};\n}}"
        )
        return HostAction(kind, code)
    if kind == "holder":
        holder = f"struct {helper}_holder {{ {t} *data; long len; }};\n"
        code = (
            f"{guard}{{\n    struct {helper}_holder h = {{ {a}, {length} }};\n"
            f"    for (long j = h.len - 1; j >= 0; j -= 7)\n"
            f"        h.data[j] = {_value(array, 'j', salt)};\n}}"
        )
        return HostAction(kind, code, helpers=holder)
    if kind == "read":
        show = "%#.10g" if array.ctype.is_float else "%ld"
        cast = "double" if array.ctype.is_float else "long"
        code = f'printf("peek {show}\\n", ({cast}){a}[{length} / 2]);'
        return HostAction(kind, code)
    if kind in ("function", "other-unit"):
        bound_param = ", long bound" if array.role == "index" else ""
        value = _value(array, "j", salt).replace(f"({array.bound})", "(bound)")
        signature = f"double {helper}({t} *a, long len, int t{bound_param})"
        helpers = (
            f"{signature}\n{{\n    double seen = 0;\n"
            f"    for (long j = 0; j < len; j += 3)\n        seen += (double)a[j];\n"
            f"    for (long j = t % 2; j < len; j += 4)\n        a[j] = {value};\n"
            "    return seen;\n}\n"
        )
        bound_arg = f", {array.bound}" if array.role == "index" else ""
        call = f"{helper}({a}, {length}, t{bound_arg})"
        code = f'{guard}printf("seen %#.10g\\n", {call});'
        return HostAction(
            kind,
            code,
            helpers=helpers,
            prototypes=signature + ";\n",
            other_unit=kind == "other-unit",
        )
    if kind == "memcpy":
        save = f"{helper}_save"
        setup = (
            f"{t} *{save} = ({t} *)malloc(sizeof({t}) * (size_t)({length} + {PAD}));\n"
            f"if (!{save}) return 1;\n"
            f"memcpy({save}, {a}, sizeof({t}) * (size_t)({length} + {PAD}));\n"
        )
        code = f"if (t % 2 == 1) memcpy({a}, {save}, sizeof({t}) * (size_t){length});"
        return HostAction(kind, code, setup=setup)
    if kind == "memmove":
        code = f"if ({length} > 1) memmove({a}, {a} + 1, sizeof({t}) * (size_t)({length} - 1));"
        return HostAction(kind, code)
    if kind == "memset":
        code = f"memset({a} + {length} / 2, 0, sizeof({t}) * (size_t)({length} - {length} / 2));"
        return HostAction(kind, code)
    if kind == "fread":
        code = (
            "{\n    FILE *f = tmpfile();\n    if (f) {\n"
            f"        size_t cnt = (size_t){length};\n"
            f"        if (cnt > 1 && fwrite({a} + 1, sizeof({t}), cnt - 1, f) == cnt - 1) {{\n"
            "            rewind(f);\n"
            f"            if (fread({a}, sizeof({t}), cnt - 1, f) != cnt - 1)\n"
            '                printf("short read\\n");\n'
            "        }\n        fclose(f);\n    }\n}"
        )
        return HostAction(kind, code)
    if kind == "qsort":
        compare = f"{helper}_cmp"
        helpers = (
            f"static int {compare}(const void *l, const void *r)\n{{\n"
            f"    {t} a = *(const {t} *)l, b = *(const {t} *)r;\n"
            "    return (a > b) - (a < b);\n}\n"
        )
        descending = ch.chance(f"host{number}.descending", 0.3)
        code = f"qsort({a}, (size_t){length}, sizeof({t}), {compare});"
        if descending:
            code += (
                f"\nfor (long j = 0, k = {length} - 1; j < k; j++, k--) {{"
                f" {t} s = {a}[j]; {a}[j] = {a}[k]; {a}[k] = s; }}"
            )
        return HostAction(kind, code, helpers=helpers)
    # text: one element copied to another through snprintf and sscanf
    show_cast = "(double)" if array.ctype.is_float else ""
    code = (
        "{\n    char buf[64];\n"
        f"    long src = (t * 7) % ({length} + 1), dst = {length} / 3;\n"
        f'    snprintf(buf, sizeof buf, "{array.ctype.show}", {show_cast}{a}[src]);\n'
        f'    if (sscanf(buf, "{array.ctype.scan}", &{a}[dst]) != 1)\n'
        '        printf("scan failed\\n");\n}'
    )
    return HostAction(kind, code)
