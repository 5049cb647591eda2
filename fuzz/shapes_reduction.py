"""Reductions: sums, dot products, sums of squares, several accumulators, minima and maxima,
nests, accumulators in memory, and the near-misses (early exit, running value used)."""

from __future__ import annotations

from fuzz.cfmt import print_value
from fuzz.ctypes_c import DOUBLE, FLOAT, FLOATS, INT, LONG, SHORT, UCHAR, UNSIGNED, CType
from fuzz.loops_c import choose_loop
from fuzz.piece import PAD, Array, Chooser, Param, Piece, choose_size

__all__ = ["REDUCTION_SHAPES"]

BIG = 1000000


def _extreme(ctype: CType, largest: bool) -> str:
    if ctype.is_float:
        return ctype.literal(1e30 if largest else -1e30)
    if ctype is UNSIGNED:
        return ctype.literal(BIG if largest else 0)
    return ctype.literal(BIG if largest else -BIG)


def _fill(ctype: CType, salt: int, signed: bool) -> str:
    value = ctype.small_value("i", salt, 8 if ctype.is_float else 13)
    if signed and ctype is not UNSIGNED:
        shift = ctype.literal(0.5 if ctype.is_float else 6)
        return f"{value} - {shift}"
    return value


def reduction(ch: Chooser, p: str, op: str) -> Piece:
    """One counted loop over x (and y) with one to three accumulators."""
    libm = op == "minmax" and ch.chance("libm-minmax", 0.5)
    narrow = (UCHAR, SHORT) if op in ("sum", "dot", "sumsq") else ()
    elem = ch.pick("type", FLOATS if libm else (FLOAT, DOUBLE, INT, LONG, UNSIGNED, *narrow))
    acc = elem
    if elem is FLOAT and ch.chance("acc-double", 0.3):
        acc = DOUBLE
    elif elem in (UCHAR, SHORT):  # promoted: sums of small values fit an int
        acc = ch.pick("acc", (INT, LONG))
    acc_name = acc.name
    loop = choose_loop(ch, "loop")
    in_struct = ch.chance("struct-bounds", 0.2)
    n = choose_size(ch, "n", (2000, 30000))
    wrap = op == "sum" and elem is UNSIGNED and ch.chance("unsigned-wrap", 0.5)
    k = loop.index("i")
    xs, ys = ("r->x", "r->y") if in_struct else ("x", "y")
    lo, hi = ("r->lo", "r->hi") if in_struct else ("lo", "hi")
    x_k, y_k = f"{xs}[{k}]", f"{ys}[{k}]"
    fmin = {"float": "fminf", "double": "fmin"}.get(elem.name, "")
    fmax = fmin.replace("min", "max")
    if op == "sum":
        inits = ["0"]
        body = [f"s0 += {x_k} * 2654435761u;" if wrap else f"s0 += {x_k};"]
    elif op == "dot":
        inits, body = ["0"], [f"s0 += {x_k} * {y_k};"]
    elif op == "sumsq":
        inits, body = ["0"], [f"s0 += {x_k} * {x_k};"]
    elif op == "multi":
        inits = ["0", "0", _extreme(elem, False)]
        body = [
            f"s0 += {x_k};",
            f"s1 += {x_k} * {y_k};",
            f"s2 = {x_k} > s2 ? {x_k} : s2;",
        ]
    else:  # minmax
        inits = [_extreme(elem, True), _extreme(elem, False)]
        if libm:
            body = [f"s0 = {fmin}(s0, {x_k});", f"s1 = {fmax}(s1, {x_k});"]
        else:
            body = [f"s0 = {x_k} < s0 ? {x_k} : s0;", f"s1 = {y_k} > s1 ? {y_k} : s1;"]
    many = len(inits) > 1
    lt = loop.counter_type
    if in_struct:
        e = elem.name
        header = f"struct {p}range {{ const {e} *x; const {e} *y; {lt} lo; {lt} hi; }};\n"
        params = f"const struct {p}range *r"
    else:
        header = ""
        params = f"const {elem.name} *x, const {elem.name} *y, {lt} lo, {lt} hi"
    if many:
        params += f", {acc_name} *res"
    result = "void" if many else acc_name
    signature = f"{result} {p}reduce({params})"
    declarations = "\n".join(f"    {acc_name} s{j} = {v};" for j, v in enumerate(inits))
    loop_text = loop.header("i", lo, hi)
    statements = "\n".join(f"        {s}" for s in body)
    finish = (
        "\n".join(f"    res[{j}] = s{j};" for j in range(len(inits))) if many else "    return s0;"
    )
    kernels = (
        f"{signature}\n{{\n{declarations}\n    {loop_text} {{\n{statements}\n    }}\n{finish}\n}}\n"
    )
    x, y = f"{p}x", f"{p}y"
    x_offset = ch.number(0, 3)
    low = ch.pick("lo", (0, 0, 1, 3))
    alias = ch.pick("alias", ("none", "none", "same", "shifted"))
    alternate = alias != "none" and ch.chance("alias-odd-steps", 0.5)
    y_arg = {"none": y, "same": x, "shifted": f"{x} + 1"}[alias]
    if alternate:
        y_arg = f"(t % 2 == 1 ? {y_arg} : {y})"
    call_lo = f"({p}n < {low} ? {p}n : {low})"
    if in_struct:
        fields = f"{x} + {x_offset}, {y_arg}, ({lt}){call_lo}, ({lt}){p}n"
        setup_call = f"struct {p}range {p}rg = {{ {fields} }};\n"
        args = f"&{p}rg"
    else:
        setup_call = ""
        args = f"{x} + {x_offset}, {y_arg}, {call_lo}, {p}n"
    if many:
        step = (
            f"{{\n{setup_call}{acc_name} {p}res[{len(inits)}];\n{p}reduce({args}, {p}res);\n"
            + "\n".join(
                print_value(f"{p}res{j}", f"{p}res[{j}]", acc.is_float) for j in range(len(inits))
            )
            + "\n}\n"
        )
    else:
        step = (
            f"{{\n{setup_call}{acc_name} {p}r = {p}reduce({args});\n"
            + print_value(f"{p}r", f"{p}r", acc.is_float)
            + "\n}\n"
        )
    signed = op == "minmax"
    arrays = (
        Array(x, elem, f"{p}n", _fill(elem, ch.number(0, 30), signed)),
        Array(y, elem, f"{p}n", _fill(elem, ch.number(0, 30), signed)),
    )
    return Piece(
        shape=f"red_{op}",
        header=header + signature + ";\n",
        kernels=kernels,
        arrays=arrays,
        params=(Param(f"{p}n", n),),
        setup="",
        step=step,
        includes=("math.h",) if libm else (),
    )


def reduction_nest(ch: Chooser, p: str) -> Piece:
    """A sum over a 2D array: a flat array with a leading dimension, or a fixed-size global."""
    elem = ch.pick("type", (FLOAT, DOUBLE, INT, LONG))
    global_2d = ch.chance("global-2d", 0.4)
    column_order = ch.chance("column-order", 0.3)
    squares = ch.chance("squares", 0.3)
    rows = choose_size(ch, "rows", (40, 120))
    cols = choose_size(ch, "cols", (40, 120))
    pad = ch.pick("ld-extra", (0, 0, 1, 5))
    term = "v * v" if squares else "v"
    loops = ("i", "rows", "j", "cols")
    outer, inner = (loops[2:], loops[:2]) if column_order else (loops[:2], loops[2:])
    g = f"{p}G"
    if global_2d:
        dim_r, dim_c = 128, 128 + pad
        header = f"extern {elem.name} {g}[{dim_r}][{dim_c}];\n"
        definition = f"{elem.name} {g}[{dim_r}][{dim_c}];\n"
        read = f"{g}[i][j]"
        params = "int rows, int cols"
        args = f"{p}rows, {p}cols"
        arrays = (
            Array(
                f"{p}a",
                elem,
                f"{dim_r * dim_c - PAD}",
                elem.small_value("i", ch.number(0, 30)),
                allocate=False,
            ),
        )
        setup = f"{elem.name} *{p}a = &{g}[0][0];\n"
    else:
        header, definition = "", ""
        read = "a[i * ld + j]"
        params = f"const {elem.name} *a, int rows, int cols, int ld"
        args = f"{p}a, {p}rows, {p}cols, {p}cols + {pad}"
        arrays = (
            Array(
                f"{p}a",
                elem,
                f"{p}rows * ({p}cols + {pad})",
                elem.small_value("i", ch.number(0, 30)),
            ),
        )
        setup = ""
    signature = f"{elem.sum_type} {p}sum2d({params})"
    kernels = (
        f"{definition}{signature}\n{{\n    {elem.sum_type} s = 0;\n"
        f"    for (int {outer[0]} = 0; {outer[0]} < {outer[1]}; {outer[0]}++)\n"
        f"        for (int {inner[0]} = 0; {inner[0]} < {inner[1]}; {inner[0]}++) {{\n"
        f"            {elem.sum_type} v = {read};\n            s += {term};\n        }}\n"
        "    return s;\n}\n"
    )
    step = f"{print_value(p + 'r', f'{p}sum2d({args})', elem.is_float)}\n"
    if global_2d:
        params_ = (Param(f"{p}rows", min(rows, 128)), Param(f"{p}cols", min(cols, 128)))
    else:
        params_ = (Param(f"{p}rows", rows), Param(f"{p}cols", cols))
    return Piece(
        shape="red_nest2d",
        header=header + signature + ";\n",
        kernels=kernels,
        arrays=arrays,
        params=params_,
        setup=setup,
        step=step,
    )


def reduction_in_memory(ch: Chooser, p: str, running: bool) -> Piece:
    """Accumulators behind a pointer, in struct fields or in a global; with `running`, the
    running value is stored on every trip (a near-miss: it is not a reduction)."""
    elem = ch.pick("type", (FLOAT, DOUBLE, INT, LONG))
    where = ch.pick("accumulator", ("pointer", "struct", "global"))
    n = choose_size(ch, "n", (2000, 30000))
    t = elem.name
    x, w, out = f"{p}x", f"{p}w", f"{p}out"
    arrays = [
        Array(x, elem, f"{p}n", elem.small_value("i", ch.number(0, 30))),
        Array(w, elem, f"{p}n", elem.small_value("i", ch.number(0, 30))),
    ]
    header = ""
    store = "        out[i] = {acc};\n" if running else ""
    out_param = f", {t} *out" if running else ""
    out_arg = f", {out}" if running else ""
    if running:
        arrays.append(Array(out, elem, f"{p}n", elem.literal(0)))
    if where == "pointer":
        target = ch.pick("total-in", ("local", "array", "alias-x", "alias-w"))
        signature = f"void {p}accumulate(const {t} *x, const {t} *w, int n, {t} *total{out_param})"
        body = "        *total += x[i] * w[i];\n" + store.format(acc="*total")
        total = {
            "local": f"&{p}total",
            "array": f"&{p}tot[1]",
            "alias-x": f"&{x}[{p}n / 2]",
            "alias-w": f"&{w}[{p}n > 0 ? {p}n - 1 : 0]",
        }[target]
        if target.startswith("alias") and ch.chance("alias-odd-steps", 0.5):
            total = f"(t % 2 == 1 ? {total} : &{p}total)"
        if target == "array":
            arrays.append(Array(f"{p}tot", elem, "3", elem.literal(1)))
        shown = f"*({total})"
        step = (
            f"{{\n{t} {p}total = {elem.literal(2)};\n"
            f"{p}accumulate({x}, {w}, {p}n, {total}{out_arg});\n"
            f"{print_value(p + 'total', shown, elem.is_float)}\n}}\n"
        )
    elif where == "struct":
        header = f"struct {p}stats {{ long count; {t} sum; {t} sumsq; }};\n"
        signature = f"void {p}accumulate(struct {p}stats *st, const {t} *x, int n{out_param})"
        body = "        st->sum += x[i];\n        st->sumsq += x[i] * x[i];\n" + store.format(
            acc="st->sum"
        )
        step = (
            f"{{\nstruct {p}stats {p}st = {{ 0, {elem.literal(1)}, {elem.literal(0)} }};\n"
            f"{p}accumulate(&{p}st, {x}, {p}n{out_arg});\n"
            f"{print_value(p + 'sum', p + 'st.sum', elem.is_float)}\n"
            f"{print_value(p + 'sumsq', p + 'st.sumsq', elem.is_float)}\n}}\n"
        )
    else:
        header = f"extern {t} {p}g_sum;\n"
        signature = f"void {p}accumulate(const {t} *x, const {t} *w, int n{out_param})"
        body = "        " + f"{p}g_sum += x[i] * w[i];\n" + store.format(acc=f"{p}g_sum")
        step = (
            f"{p}g_sum = ({t})(t % 3);\n{p}accumulate({x}, {w}, {p}n{out_arg});\n"
            f"{print_value(p + 'g_sum', p + 'g_sum', elem.is_float)}\n"
        )
    definition = f"{t} {p}g_sum;\n" if where == "global" else ""
    kernels = f"{definition}{signature}\n{{\n    for (int i = 0; i < n; i++) {{\n{body}    }}\n}}\n"
    return Piece(
        shape="nm_red_running" if running else "red_memory",
        header=header + signature + ";\n",
        kernels=kernels,
        arrays=tuple(arrays),
        params=(Param(f"{p}n", n),),
        setup="",
        step=step,
    )


def reduction_break(ch: Chooser, p: str) -> Piece:
    """Near-miss: a sum up to the first value over a limit, or a search for a key."""
    elem = ch.pick("type", (FLOAT, DOUBLE, INT, LONG))
    search = ch.chance("search", 0.4)
    n = choose_size(ch, "n", (2000, 30000))
    t = elem.name
    limit = elem.literal(0.75 if elem.is_float else 11)
    if search:
        signature = f"int {p}find(const {t} *x, int n, {t} key)"
        kernels = (
            f"{signature}\n{{\n    int pos = -1;\n    for (int i = 0; i < n; i++) {{\n"
            "        if (x[i] == key) {\n            pos = i;\n            break;\n        }\n"
            "    }\n    return pos;\n}\n"
        )
        call = f"{p}find({p}x, {p}n, {elem.literal(0.75 if elem.is_float else 11)})"
        step = print_value(p + "pos", call, False) + "\n"
    else:
        signature = f"{elem.sum_type} {p}until(const {t} *x, int n, {t} limit)"
        kernels = (
            f"{signature}\n{{\n    {elem.sum_type} s = 0;\n    for (int i = 0; i < n; i++) {{\n"
            "        if (x[i] > limit)\n            break;\n        s += x[i];\n    }\n"
            "    return s;\n}\n"
        )
        call = f"{p}until({p}x, {p}n, {limit})"
        step = print_value(p + "s", call, elem.is_float) + "\n"
    modulus = 8 if elem.is_float else 12
    return Piece(
        shape="nm_red_break",
        header=signature + ";\n",
        kernels=kernels,
        arrays=(Array(f"{p}x", elem, f"{p}n", elem.small_value("i", ch.number(0, 30), modulus)),),
        params=(Param(f"{p}n", n),),
        setup="",
        step=step,
    )


REDUCTION_SHAPES = {
    "red_sum": lambda ch, p: reduction(ch, p, "sum"),
    "red_dot": lambda ch, p: reduction(ch, p, "dot"),
    "red_sumsq": lambda ch, p: reduction(ch, p, "sumsq"),
    "red_multi": lambda ch, p: reduction(ch, p, "multi"),
    "red_minmax": lambda ch, p: reduction(ch, p, "minmax"),
    "red_nest2d": reduction_nest,
    "red_memory": lambda ch, p: reduction_in_memory(ch, p, running=False),
    "nm_red_running": lambda ch, p: reduction_in_memory(ch, p, running=True),
    "nm_red_break": reduction_break,
}
