"""Products combined in one nest: two row sums over one inner loop combined after it
(y = alpha A x + beta B x), a transposed update beside a row sum kept in memory (a BiCG
sweep), the symmetric product written by rows of A's lower triangle (SYMM) and the
in-place products of a batch of rows by one matrix (doitgen). Plain pointers, so that the
compiler keeps the sums in memory; now and then an output overlapping an input, which
the guards must decline."""

from __future__ import annotations

from fuzz.ctypes_c import DOUBLE, FLOAT
from fuzz.piece import Array, Chooser, Param, Piece, choose_size, on_some_steps

__all__ = ["COMBINED_SHAPES"]

SCALES = (1.0, 0.5, 1.5, -0.5, 0.0)


def gemv_sum(ch: Chooser, p: str) -> Piece:
    """y[i] = alpha * (A x)[i] + beta * (B x)[i], the sums kept in tmp and y (memory) or
    in locals, tmp stored or not."""
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    m = choose_size(ch, "m", (10, 200))
    n = choose_size(ch, "n", (10, 200))
    if ch.pick("sums", ("memory", "locals")) == "memory":
        body = (
            "        tmp[i] = 0;\n        y[i] = 0;\n"
            "        for (int j = 0; j < n; j++) {\n"
            "            tmp[i] = a[i * n + j] * x[j] + tmp[i];\n"
            "            y[i] = b[i * n + j] * x[j] + y[i];\n        }\n"
            "        y[i] = alpha * tmp[i] + beta * y[i];\n"
        )
    else:
        keep = ch.pick("keep-tmp", ("tmp[i] = s;", ""))
        body = (
            f"        {t} s = 0, u = 0;\n"
            "        for (int j = 0; j < n; j++) {\n"
            "            s += a[i * n + j] * x[j];\n            u += x[j] * b[i * n + j];\n"
            f"        }}\n        {keep}\n        y[i] = alpha * s + beta * u;\n"
        )
    signature = (
        f"void {p}gsum(int m, int n, {t} alpha, {t} beta, const {t} *a, const {t} *b, "
        f"{t} *tmp, const {t} *x, {t} *y)"
    )
    kernel = f"{signature}\n{{\n    for (int i = 0; i < m; i++) {{\n{body}    }}\n}}\n"
    fill = elem.small_value("i", ch.number(0, 30))
    arrays = (
        Array(f"{p}a", elem, f"{p}m * {p}n + {p}m", fill),  # room for y = a + 2
        Array(f"{p}b", elem, f"{p}m * {p}n", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}tmp", elem, f"{p}m + {p}n", fill),
        Array(f"{p}x", elem, f"{p}n", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}y", elem, f"{p}m", fill),
    )
    lits = f"{elem.literal(ch.pick('alpha', SCALES))}, {elem.literal(ch.pick('beta', SCALES))}"
    arguments = f"{p}m, {p}n, {lits}, {p}a, {p}b"
    call = f"{p}gsum({arguments}, {p}tmp, {p}x, {p}y);\n"
    if ch.chance("overlap", 0.25):
        overlapping = ch.pick(
            "overlap-kind",
            (f"{p}y, {p}x, {p}y", f"{p}tmp, {p}tmp + 1, {p}y", f"{p}tmp, {p}x, {p}a + 2"),
        )
        call = on_some_steps(ch, f"{p}gsum({arguments}, {overlapping});\n", call)
    return Piece(
        shape="gemv_sum",
        header=signature + ";\n",
        kernels=kernel,
        arrays=arrays,
        params=(Param(f"{p}m", m), Param(f"{p}n", n)),
        setup="",
        step=call,
    )


def bicg_memory(ch: Chooser, p: str) -> Piece:
    """s += A^T r beside q = A p (or q += A p) in one sweep, q[i] kept in memory."""
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    m = choose_size(ch, "m", (10, 200))
    n = choose_size(ch, "n", (10, 200))
    start = ch.pick("start", ("q[i] = 0;", ""))
    body = (
        f"    for (int i = 0; i < m; i++) {{\n        {start}\n"
        "        for (int j = 0; j < n; j++) {\n"
        "            s[j] = s[j] + r[i] * a[i * n + j];\n"
        "            q[i] = q[i] + a[i * n + j] * v[j];\n        }\n    }\n"
    )
    signature = (
        f"void {p}bicg(int m, int n, const {t} *a, const {t} *r, const {t} *v, {t} *s, {t} *q)"
    )
    fill = elem.small_value("i", ch.number(0, 30))
    arrays = (
        Array(f"{p}a", elem, f"{p}m * {p}n + {p}n", fill),  # room for s = a + 3
        Array(f"{p}r", elem, f"{p}m", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}v", elem, f"{p}n + {p}m", fill),
        Array(f"{p}s", elem, f"{p}n + {p}m", fill),
        Array(f"{p}q", elem, f"{p}m", elem.small_value("i", ch.number(0, 30))),
    )
    call = f"{p}bicg({p}m, {p}n, {p}a, {p}r, {p}v, {p}s, {p}q);\n"
    if ch.chance("overlap", 0.25):
        overlapping = ch.pick("overlap-kind", (f"{p}s, {p}s", f"{p}v + 1, {p}q", f"{p}a + 3, {p}q"))
        call = on_some_steps(ch, f"{p}bicg({p}m, {p}n, {p}a, {p}r, {p}v, {overlapping});\n", call)
    return Piece(
        shape="bicg_memory",
        header=signature + ";\n",
        kernels=f"{signature}\n{{\n{body}}}\n",
        arrays=arrays,
        params=(Param(f"{p}m", m), Param(f"{p}n", n)),
        setup="",
        step=call,
    )


def symm(ch: Chooser, p: str) -> Piece:
    """C = alpha A B + beta C, A symmetric read from its lower triangle, rows or columns
    outermost."""
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    m = choose_size(ch, "m", (8, 90))
    n = choose_size(ch, "n", (8, 90))
    inner = (
        f"            {t} t2 = 0;\n"
        "            for (int k = 0; k < i; k++) {\n"
        "                c[k * n + j] += alpha * b[i * n + j] * a[i * m + k];\n"
        "                t2 += b[k * n + j] * a[i * m + k];\n            }\n"
        "            c[i * n + j] = beta * c[i * n + j] + alpha * b[i * n + j] * a[i * m + i]"
        " + alpha * t2;\n"
    )
    loops = ch.pick(
        "order",
        (
            ("for (int i = 0; i < m; i++)", "for (int j = 0; j < n; j++)"),
            ("for (int j = 0; j < n; j++)", "for (int i = 0; i < m; i++)"),
        ),
    )
    body = f"    {loops[0]}\n        {loops[1]} {{\n{inner}        }}\n"
    signature = (
        f"void {p}symm(int m, int n, {t} alpha, {t} beta, {t} *c, const {t} *a, const {t} *b)"
    )
    fill = elem.small_value("i", ch.number(0, 30))
    arrays = (
        Array(f"{p}c", elem, f"{p}m * {p}n", fill),
        # room for c = a + 1
        Array(f"{p}a", elem, f"{p}m * {p}m + {p}m * {p}n", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}b", elem, f"{p}m * {p}n", fill),
    )
    lits = f"{elem.literal(ch.pick('alpha', SCALES))}, {elem.literal(ch.pick('beta', SCALES))}"
    call = f"{p}symm({p}m, {p}n, {lits}, {p}c, {p}a, {p}b);\n"
    if ch.chance("overlap", 0.25):
        target = ch.pick("overlap-kind", (f"{p}a + 1", f"{p}b + 2"))
        call = on_some_steps(ch, f"{p}symm({p}m, {p}n, {lits}, {target}, {p}a, {p}b);\n", call)
    return Piece(
        shape="symm",
        header=signature + ";\n",
        kernels=f"{signature}\n{{\n{body}}}\n",
        arrays=arrays,
        params=(Param(f"{p}m", m), Param(f"{p}n", n)),
        setup="",
        step=call,
    )


def batched_rows(ch: Chooser, p: str) -> Piece:
    """Each of r x q rows of A (ld apart) replaced by its product with W through a row of
    sums, kept in memory or in a local."""
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    r = choose_size(ch, "r", (1, 12))
    q = choose_size(ch, "q", (1, 12))
    n = choose_size(ch, "n", (4, 60))
    extra = ch.pick("ld-extra", (0, 0, 2))
    if ch.pick("sums", ("memory", "local")) == "memory":
        product = (
            "                sum[k] = 0;\n                for (int s = 0; s < n; s++)\n"
            "                    sum[k] += a[(i * q + j) * ld + s] * w[s * n + k];\n"
        )
    else:
        product = (
            f"                {t} v = 0;\n                for (int s = 0; s < n; s++)\n"
            "                    v += w[s * n + k] * a[(i * q + j) * ld + s];\n"
            "                sum[k] = v;\n"
        )
    body = (
        "    for (int i = 0; i < r; i++)\n        for (int j = 0; j < q; j++) {\n"
        f"            for (int k = 0; k < n; k++) {{\n{product}            }}\n"
        "            for (int k = 0; k < n; k++)\n"
        "                a[(i * q + j) * ld + k] = sum[k];\n        }\n"
    )
    signature = f"void {p}rows(int r, int q, int n, int ld, {t} *a, const {t} *w, {t} *sum)"
    fill = elem.small_value("i", ch.number(0, 30))
    ld = f"({p}n + {extra})"
    arrays = (
        Array(f"{p}a", elem, f"{p}r * {p}q * {ld} + {p}n * {p}n + {p}n", fill),  # w = a + 2
        Array(f"{p}w", elem, f"{p}n * {p}n", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}sum", elem, f"{p}n", fill),
    )
    call = f"{p}rows({p}r, {p}q, {p}n, {ld}, {p}a, {p}w, {p}sum);\n"
    if ch.chance("overlap", 0.25):
        overlapping = ch.pick(
            "overlap-kind",
            (
                f"{ld}, {p}a, {p}w, {p}a + 1",
                f"{ld}, {p}a, {p}a + 2, {p}sum",
                f"{p}n > 1 ? {p}n - 1 : 1, {p}a, {p}w, {p}sum",
            ),
        )
        call = on_some_steps(ch, f"{p}rows({p}r, {p}q, {p}n, {overlapping});\n", call)
    return Piece(
        shape="batched_rows",
        header=signature + ";\n",
        kernels=f"{signature}\n{{\n{body}}}\n",
        arrays=arrays,
        params=(Param(f"{p}r", r), Param(f"{p}q", q), Param(f"{p}n", n)),
        setup="",
        step=call,
    )


COMBINED_SHAPES = {
    "gemv_sum": gemv_sum,
    "bicg_memory": bicg_memory,
    "symm": symm,
    "batched_rows": batched_rows,
}
