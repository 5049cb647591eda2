"""Dense products: GEMM in the dot-product (i-j-k, j-i-k) and rank-1 (i-k-j) forms, with
transposes, alpha and beta, leading dimensions wider than the sizes, flat row-major
arrays, fixed-size global 2D arrays, VLA parameters and struct fields; GEMV in both
orientations, summed in y itself (stored again after the sum or not), and an in-place
triangular product."""

from __future__ import annotations

from fuzz.ctypes_c import DOUBLE, FLOAT, CType
from fuzz.piece import Array, Chooser, Param, Piece, choose_size, on_some_steps

__all__ = ["DENSE_SHAPES"]

GLOBAL_DIM = 64
ALPHAS = (1.0, 0.5, 1.5, -0.5)
BETAS = (0.0, 1.0, 0.5, -1.0)


class _Matrix:
    """How one matrix is stored and read: `at(r, c)` is element (r, c) of the matrix as
    the kernel reads it (rows, cols in the stored orientation are `rows`, `cols`)."""

    def __init__(self, name: str, storage: str, transposed: bool, p: str) -> None:
        self.name, self.storage, self.transposed, self.p = name, storage, transposed, p

    def at(self, r: str, c: str) -> str:
        if self.transposed:
            r, c = c, r
        if self.storage == "flat":
            return f"{self.name}[{r} * ld{self.name} + {c}]"
        if self.storage == "colmajor":
            return f"{self.name}[{r} + {c} * ld{self.name}]"
        if self.storage == "struct":
            return f"{self.name}->v[{r} * {self.name}->ld + {c}]"
        if self.storage == "global":
            return f"{self.p}G{self.name.upper()}[{r}][{c}]"
        return f"{self.name}[{r}][{c}]"  # vla


def _store(ch: Chooser, elem: CType, target: str, value: str) -> str:
    kind = ch.pick("store", ("assign", "alpha", "alphabeta", "add"))
    if kind == "assign":
        return f"{target} = {value};"
    if kind == "alpha":
        return f"{target} = alpha * {value};"
    if kind == "alphabeta":
        return f"{target} = alpha * {value} + beta * {target};"
    return f"{target} += {value};"


def gemm(ch: Chooser, p: str, storage: str) -> Piece:
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    form = ch.pick("form", ("ijk", "jik", "ikj", "ikj-zeroed", "ijk-in-c"))
    trans_a = storage != "struct" and ch.chance("trans-a", 0.3)
    trans_b = storage != "struct" and ch.chance("trans-b", 0.3)
    big = (8, 40) if storage == "global" else (12, 56)
    m, n, k = (choose_size(ch, name, big) for name in ("m", "n", "k"))
    extra = {name: ch.pick(f"ld{name}-extra", (0, 0, 1, 3)) for name in "abc"}
    a = _Matrix("a", storage, trans_a, p)
    b = _Matrix("b", storage, trans_b, p)
    c = _Matrix(
        "c", "colmajor" if storage == "flat" and ch.chance("c-colmajor", 0.2) else storage, False, p
    )
    # stored shapes: rows x (cols + extra)
    a_rows, a_cols = ("k", "m") if trans_a else ("m", "k")
    b_rows, b_cols = ("n", "k") if trans_b else ("k", "n")
    c_rows, c_cols = ("n", "m") if c.storage == "colmajor" else ("m", "n")
    alpha, beta = ch.pick("alpha", ALPHAS), ch.pick("beta", BETAS)
    if form in ("ijk", "jik"):
        loops = ("i", "m", "j", "n") if form == "ijk" else ("j", "n", "i", "m")
        body = (
            f"    for (int {loops[0]} = 0; {loops[0]} < {loops[1]}; {loops[0]}++)\n"
            f"        for (int {loops[2]} = 0; {loops[2]} < {loops[3]}; {loops[2]}++) {{\n"
            f"            {t} acc = 0;\n"
            f"            for (int l = 0; l < k; l++)\n"
            f"                acc += {a.at('i', 'l')} * {b.at('l', 'j')};\n"
            f"            {_store(ch, elem, c.at('i', 'j'), 'acc')}\n"
            "        }\n"
        )
    elif form == "ijk-in-c":
        body = (
            "    for (int i = 0; i < m; i++)\n"
            "        for (int j = 0; j < n; j++) {\n"
            f"            {c.at('i', 'j')} = 0;\n"
            "            for (int l = 0; l < k; l++)\n"
            f"                {c.at('i', 'j')} += {a.at('i', 'l')} * {b.at('l', 'j')};\n"
            "        }\n"
        )
    else:
        zero = (
            f"        for (int j = 0; j < n; j++)\n            {c.at('i', 'j')} = 0;\n"
            if form == "ikj-zeroed"
            else ""
        )
        scale = "alpha * " if ch.chance("scaled-a", 0.3) else ""
        body = (
            "    for (int i = 0; i < m; i++) {\n"
            f"{zero}"
            "        for (int l = 0; l < k; l++) {\n"
            f"            {t} ail = {scale}{a.at('i', 'l')};\n"
            "            for (int j = 0; j < n; j++)\n"
            f"                {c.at('i', 'j')} += ail * {b.at('l', 'j')};\n"
            "        }\n    }\n"
        )
    header = ""
    definitions = ""
    dims = "int m, int n, int k"
    scalars = f"{t} alpha, {t} beta"
    if storage in ("flat",):
        params = f"{dims}, {scalars}, const {t} *a, int lda, const {t} *b, int ldb, {t} *c, int ldc"
    elif storage == "vla":
        params = (
            f"{dims}, {scalars}, int lda, int ldb, int ldc, "
            f"{t} a[][lda], {t} b[][ldb], {t} c[][ldc]"
        )
    elif storage == "struct":
        header = f"struct {p}mat {{ int rows; int cols; int ld; {t} *v; }};\n"
        params = f"{scalars}, const struct {p}mat *a, const struct {p}mat *b, struct {p}mat *c"
        body = body.replace(" < m;", " < c->rows;").replace(" < n;", " < c->cols;")
        body = body.replace(" < k;", " < a->cols;")
    else:  # global
        for name in "abc":
            header += f"extern {t} {p}G{name.upper()}[{GLOBAL_DIM}][{GLOBAL_DIM}];\n"
            definitions += f"{t} {p}G{name.upper()}[{GLOBAL_DIM}][{GLOBAL_DIM}];\n"
        params = f"{dims}, {scalars}"
    signature = f"void {p}gemm({params})"
    kernels = f"{definitions}{signature}\n{{\n{body}}}\n"
    # main side
    ld = {
        "a": f"({p}{a_cols} + {extra['a']})",
        "b": f"({p}{b_cols} + {extra['b']})",
        "c": f"({p}{c_cols} + {extra['c']})",
    }
    rows = {"a": f"{p}{a_rows}", "b": f"{p}{b_rows}", "c": f"{p}{c_rows}"}
    alias = storage in ("flat", "vla") and ch.chance("alias-c-in-a", 0.15)
    arrays: list[Array] = []
    setup = ""
    fills = {name: elem.small_value("i", ch.number(0, 30)) for name in "abc"}
    if storage == "global":
        for name in "abc":
            g = f"{p}G{name.upper()}"
            setup += f"{t} *{p}{name} = &{g}[0][0];\n"
            arrays.append(
                Array(
                    f"{p}{name}",
                    elem,
                    f"{GLOBAL_DIM * GLOBAL_DIM - 8}",
                    fills[name],
                    allocate=False,
                )
            )
        sizes = (min(m, GLOBAL_DIM), min(n, GLOBAL_DIM), min(k, GLOBAL_DIM))
    else:
        length_a = f"{rows['a']} * {ld['a']}"
        if alias:
            length_a += f" + {rows['c']} * {ld['c']}"
        arrays.append(Array(f"{p}a", elem, length_a, fills["a"]))
        arrays.append(Array(f"{p}b", elem, f"{rows['b']} * {ld['b']}", fills["b"]))
        arrays.append(Array(f"{p}c", elem, f"{rows['c']} * {ld['c']}", fills["c"]))
        sizes = (m, n, k)
    shift = ch.pick("alias-shift", ("0", "half", "end")) if alias else ""
    c_ptr = {
        "": f"{p}c",
        "0": f"{p}a",
        "half": f"{p}a + {rows['a']} * {ld['a']} / 2",
        "end": f"{p}a + {rows['a']} * {ld['a']}",
    }[shift]
    lits = f"{elem.literal(alpha)}, {elem.literal(beta)}"

    def vla(pointer: str, name: str) -> str:
        return f"({t} (*)[{ld[name]}])({pointer})"

    def flat_call(c: str) -> str:
        if storage == "vla":
            return (
                f"{p}gemm({p}m, {p}n, {p}k, {lits}, {ld['a']}, {ld['b']}, {ld['c']}, "
                f"{vla(p + 'a', 'a')}, {vla(p + 'b', 'b')}, {vla(c, 'c')});\n"
            )
        matrices = f"{p}a, {ld['a']}, {p}b, {ld['b']}, {c}, {ld['c']}"
        return f"{p}gemm({p}m, {p}n, {p}k, {lits}, {matrices});\n"

    if storage in ("flat", "vla"):
        call = flat_call(c_ptr)
        if alias:
            call = on_some_steps(ch, call, flat_call(f"{p}c"))
    elif storage == "struct":
        call = (
            f"{{\nstruct {p}mat A = {{ {p}m, {p}k, {ld['a']}, {p}a }};\n"
            f"struct {p}mat B = {{ {p}k, {p}n, {ld['b']}, {p}b }};\n"
            f"struct {p}mat C = {{ {p}m, {p}n, {ld['c']}, {p}c }};\n"
            f"{p}gemm({lits}, &A, &B, &C);\n}}\n"
        )
    else:
        call = f"{p}gemm({p}m, {p}n, {p}k, {lits});\n"
    return Piece(
        shape={"flat": "gemm_flat", "vla": "gemm_vla", "struct": "gemm_struct"}.get(
            storage, "gemm_global2d"
        ),
        header=header + signature + ";\n",
        kernels=kernels,
        arrays=tuple(arrays),
        params=tuple(Param(f"{p}{name}", v) for name, v in zip("mnk", sizes, strict=True)),
        setup=setup,
        step=call,
        cxx_ok=storage != "vla",
    )


def gemv(ch: Chooser, p: str, transposed: bool) -> Piece:
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    m = choose_size(ch, "m", (30, 300))
    n = choose_size(ch, "n", (30, 300))
    colmajor = ch.chance("colmajor", 0.25)
    extra = ch.pick("lda-extra", (0, 0, 2, 5))
    down = ch.chance("down", 0.2)

    def at(row: str, col: str) -> str:
        return f"a[{row} + {col} * lda]" if colmajor else f"a[{row} * lda + {col}]"

    def header_of(var: str, bound: str) -> str:
        if down:
            return f"for (int {var} = {bound} - 1; {var} >= 0; {var}--)"
        return f"for (int {var} = 0; {var} < {bound}; {var}++)"

    if not transposed:
        form = "dot"
        body = (
            f"    {header_of('i', 'm')} {{\n        {t} s = 0;\n"
            f"        {header_of('j', 'n')}\n            s += {at('i', 'j')} * x[j];\n"
            f"        {_store(ch, elem, 'y[i]', 's')}\n    }}\n"
        )
        x_len, y_len = f"{p}n", f"{p}m"
    else:
        form = ch.pick("form", ("update", "dot"))
        if form == "update":
            body = (
                f"    {header_of('i', 'm')}\n        {header_of('j', 'n')}\n"
                f"            y[j] += {at('i', 'j')} * x[i];\n"
            )
        else:
            body = (
                f"    {header_of('j', 'n')} {{\n        {t} s = 0;\n"
                f"        {header_of('i', 'm')}\n            s += {at('i', 'j')} * x[i];\n"
                f"        {_store(ch, elem, 'y[j]', 's')}\n    }}\n"
            )
        x_len, y_len = f"{p}m", f"{p}n"
    signature = (
        f"void {p}gemv(int m, int n, {t} alpha, {t} beta, "
        f"const {t} *a, int lda, const {t} *x, {t} *y)"
    )
    rows, cols = (f"{p}n", f"{p}m") if colmajor else (f"{p}m", f"{p}n")
    lda = f"({cols} + {extra})"
    alias = ch.chance("alias-y-x", 0.15)
    arrays = [
        Array(f"{p}a", elem, f"{rows} * {lda}", elem.small_value("i", ch.number(0, 30))),
        Array(
            f"{p}x",
            elem,
            f"{x_len} + {y_len}" if alias else x_len,
            elem.small_value("i", ch.number(0, 30)),
        ),
    ]
    arrays.append(Array(f"{p}y", elem, y_len, elem.small_value("i", ch.number(0, 30))))
    lits = f"{elem.literal(ch.pick('alpha', ALPHAS))}, {elem.literal(ch.pick('beta', BETAS))}"
    call = f"{p}gemv({p}m, {p}n, {lits}, {p}a, {lda}, {p}x, {p}y);\n"
    if alias:
        y_ptr = f"{p}x + {ch.pick('alias-shift', (0, 1, 3))}"
        aliased = f"{p}gemv({p}m, {p}n, {lits}, {p}a, {lda}, {p}x, {y_ptr});\n"
        call = on_some_steps(ch, aliased, call)
    return Piece(
        shape="gemv_t" if transposed else "gemv_n",
        header=signature + ";\n",
        kernels=f"{signature}\n{{\n{body}}}\n",
        arrays=tuple(arrays),
        params=(Param(f"{p}m", m), Param(f"{p}n", n)),
        setup="",
        step=call,
    )


# What the row loop does to y[i] after its sum: nothing, or store it again (a GEMV must
# then not be replaced by the sum alone, or only where the store is part of it).
_AFTER_SUM = {
    "none": "",
    "scale": "y[i] = alpha * y[i];",
    "square": "y[i] = y[i] * y[i];",
    "shift": "y[i] += x[0];",
}


def gemv_in_memory(ch: Chooser, p: str) -> Piece:
    """y[i] summed in memory (y may alias x): started from zero, from beta * y[i] or from
    y[i] itself, optionally stored again after the sum."""
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    m = choose_size(ch, "m", (30, 300))
    n = choose_size(ch, "n", (30, 300))
    start = ch.pick("start", ("", "y[i] = 0;", "y[i] = beta * y[i];"))
    after = _AFTER_SUM[ch.pick("after", tuple(_AFTER_SUM))]
    update = ch.pick(
        "update", ("y[i] += a[i * lda + j] * x[j];", "y[i] = y[i] + alpha * a[i * lda + j] * x[j];")
    )
    body = (
        f"    for (int i = 0; i < m; i++) {{\n        {start}\n"
        f"        for (int j = 0; j < n; j++)\n            {update}\n        {after}\n    }}\n"
    )
    signature = (
        f"void {p}gemvm(int m, int n, {t} alpha, {t} beta, "
        f"const {t} *a, int lda, const {t} *x, {t} *y)"
    )
    lda = f"({p}n + {ch.pick('lda-extra', (0, 1, 4))})"
    alias = ch.chance("alias-y-x", 0.2)
    x_len = f"{p}n + {p}m + 1" if alias else f"{p}n + 1"
    arrays = (
        Array(f"{p}a", elem, f"{p}m * {lda}", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}x", elem, x_len, elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}y", elem, f"{p}m", elem.small_value("i", ch.number(0, 30))),
    )
    lits = f"{elem.literal(ch.pick('alpha', ALPHAS))}, {elem.literal(ch.pick('beta', BETAS))}"
    call = f"{p}gemvm({p}m, {p}n, {lits}, {p}a, {lda}, {p}x, {p}y);\n"
    if alias:
        y_ptr = f"{p}x + {ch.pick('alias-shift', (0, 1, 3))}"
        call = on_some_steps(
            ch, f"{p}gemvm({p}m, {p}n, {lits}, {p}a, {lda}, {p}x, {y_ptr});\n", call
        )
    return Piece(
        shape="gemv_memory",
        header=signature + ";\n",
        kernels=f"{signature}\n{{\n{body}}}\n",
        arrays=arrays,
        params=(Param(f"{p}m", m), Param(f"{p}n", n)),
        setup="",
        step=call,
    )


def tri_in_place(ch: Chooser, p: str) -> Piece:
    """An in-place triangular product, B[i][j] += sum_{k>i} L[k][i] * B[k][j], in 2D VLA
    parameters (each row reads the rows below it, not yet updated), the element
    optionally scaled after its sum."""
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    m = choose_size(ch, "m", (20, 120))
    n = choose_size(ch, "n", (20, 120))
    after = ch.pick("after", ("", "b[i][j] = alpha * b[i][j];"))
    lower = ch.pick("k-range", ("k = i + 1; k < m", "k = 0; k < i"))
    body = (
        "    for (int i = 0; i < m; i++)\n        for (int j = 0; j < n; j++) {\n"
        f"            for (int {lower}; k++)\n"
        "                b[i][j] += l[k][i] * b[k][j];\n"
        f"            {after}\n        }}\n"
    )
    signature = f"void {p}trip(int m, int n, {t} alpha, {t} l[m][m], {t} b[m][n])"
    arrays = (
        Array(f"{p}l", elem, f"{p}m * {p}m + 1", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}b", elem, f"{p}m * {p}n + 1", elem.small_value("i", ch.number(0, 30))),
    )
    alpha = elem.literal(ch.pick("alpha", ALPHAS))
    cast = f"({t} (*)[{p}m]){p}l, ({t} (*)[{p}n]){p}b"
    return Piece(
        shape="tri_in_place",
        header=signature + ";\n",
        kernels=f"{signature}\n{{\n{body}}}\n",
        arrays=arrays,
        params=(Param(f"{p}m", m), Param(f"{p}n", n)),
        setup="",
        step=f"{p}trip({p}m, {p}n, {alpha}, {cast});\n",
        cxx_ok=False,
    )


DENSE_SHAPES = {
    "gemm_flat": lambda ch, p: gemm(ch, p, "flat"),
    "gemm_vla": lambda ch, p: gemm(ch, p, "vla"),
    "gemm_struct": lambda ch, p: gemm(ch, p, "struct"),
    "gemm_global2d": lambda ch, p: gemm(ch, p, "global"),
    "gemv_n": lambda ch, p: gemv(ch, p, False),
    "gemv_t": lambda ch, p: gemv(ch, p, True),
    "gemv_memory": gemv_in_memory,
    "tri_in_place": tri_in_place,
}
