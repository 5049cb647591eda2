"""Sparse matrix-vector products: CSR (row sum in a local or in y, struct fields, long
offsets) and JDS (Parboil's perm / nzcnt / jd_ptr layout, struct fields), built in main
from closed-form row lengths, with empty rows and repeated rows of y (JDS near-miss)."""

from __future__ import annotations

from fuzz.ctypes_c import DOUBLE, FLOAT, INT, LONG
from fuzz.piece import PAD, Array, Chooser, Param, Piece, choose_size, on_some_steps

__all__ = ["SPARSE_SHAPES"]


def _row_length(p: str, most: int, salt: int) -> str:
    return f"(int)(((long)({{i}}) * {salt} + {salt // 3}) % {most + 1})"


def _pingpong(ch: Chooser, p: str, t: str) -> str:
    """After a product, x and y trade places (a power iteration) or stay."""
    if ch.chance("pingpong", 0.4):
        return f"{{ {t} *swap = {p}x; {p}x = {p}y; {p}y = swap; }}\n"
    return ""


def csr(ch: Chooser, p: str) -> Piece:
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    offset_type = ch.pick("rowptr-type", (INT, LONG)).name
    column_type = ch.pick("col-type", (INT, LONG))
    n = choose_size(ch, "n", (500, 6000))
    # rows averaging half of `most`: 30, 80 and 300 share 4, 8 and 32 work-items a row
    most = ch.pick("row-length", (0, 1, 3, 7, 30, 80, 300))
    form = ch.pick("form", ("local", "in-y", "add", "struct"))
    length = _row_length(p, most, ch.number(3, 13))
    c = column_type.name
    if form == "struct":
        header = f"struct {p}csr {{ int nrows; {offset_type} *rowptr; {c} *col; {t} *val; }};\n"
        params = f"const struct {p}csr *A, const {t} *x, {t} *y"
        rows, rowptr, col, val = "A->nrows", "A->rowptr", "A->col", "A->val"
    else:
        header = ""
        params = (
            f"int n, const {offset_type} *rowptr, const {c} *col, const {t} *val, "
            f"const {t} *x, {t} *y"
        )
        rows, rowptr, col, val = "n", "rowptr", "col", "val"
    product = f"{val}[k] * x[{col}[k]]"
    inner = f"for ({offset_type} k = {rowptr}[i]; k < {rowptr}[i + 1]; k++)"
    if form == "in-y":
        body = f"        y[i] = 0;\n        {inner}\n            y[i] += {product};\n"
    else:
        store = "y[i] += s;" if form == "add" else "y[i] = s;"
        body = (
            f"        {t} s = 0;\n        {inner}\n            s += {product};\n        {store}\n"
        )
    signature = f"void {p}spmv({params})"
    kernels = f"{signature}\n{{\n    for (int i = 0; i < {rows}; i++) {{\n{body}    }}\n}}\n"
    setup = (
        f"{p}rowptr[0] = 0;\n"
        f"for (int i = 0; i < {p}n; i++)\n"
        f"    {p}rowptr[i + 1] = {p}rowptr[i] + {length.format(i='i')};\n"
        f"for (int i = {p}n + 1; i < {p}n + 1 + {PAD}; i++)\n    {p}rowptr[i] = {p}rowptr[{p}n];\n"
    )
    alias = ch.pick("alias", ("none", "none", "none", "same", "shifted"))
    y_arg = {"none": f"{p}y", "same": f"{p}x", "shifted": f"{p}x + 1"}[alias]

    def csr_call(y: str) -> str:
        if form == "struct":
            return (
                f"{{\nstruct {p}csr A = {{ {p}n, {p}rowptr, {p}col, {p}val }};\n"
                f"{p}spmv(&A, {p}x, {y});\n}}\n"
            )
        return f"{p}spmv({p}n, {p}rowptr, {p}col, {p}val, {p}x, {y});\n"

    if alias == "none":
        call = csr_call(y_arg) + _pingpong(ch, p, t)
    else:
        call = on_some_steps(ch, csr_call(y_arg), csr_call(f"{p}y"))
    safe_n = f"({p}n > 0 ? {p}n : 1)"
    arrays = (
        Array(f"{p}rowptr", INT if offset_type == "int" else LONG, f"{p}n + 1", role="fixed"),
        Array(
            f"{p}col",
            column_type,
            f"{p}n * {most}",
            f"({c})(((long)i * {ch.number(2, 9)} + {ch.number(0, 7)}) % {safe_n})",
            role="index",
            bound=f"{p}n",
        ),
        Array(f"{p}val", elem, f"{p}n * {most}", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}x", elem, f"{p}n", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}y", elem, f"{p}n", elem.small_value("i", ch.number(0, 30))),
    )
    return Piece(
        shape="spmv_csr",
        header=header + signature + ";\n",
        kernels=kernels,
        arrays=arrays,
        params=(Param(f"{p}n", n),),
        setup=setup,
        step=call,
    )


def jds(ch: Chooser, p: str) -> Piece:
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    n = choose_size(ch, "n", (500, 6000))
    most = ch.pick("row-length", (1, 3, 6))
    in_struct = ch.chance("struct", 0.3)
    length = _row_length(p, most, ch.number(3, 13))
    if in_struct:
        header = (
            f"struct {p}jds {{ int nrows; int *perm; int *nzcnt; int *jd_ptr; int *idx; "
            f"{t} *data; }};\n"
        )
        params = f"const struct {p}jds *A, const {t} *x, {t} *y"
        rows, perm, nzcnt, jd_ptr, idx, data = (
            "A->nrows",
            "A->perm",
            "A->nzcnt",
            "A->jd_ptr",
            "A->idx",
            "A->data",
        )
    else:
        header = ""
        params = (
            f"int n, const int *perm, const int *nzcnt, const int *jd_ptr, const int *idx, "
            f"const {t} *data, const {t} *x, {t} *y"
        )
        rows, perm, nzcnt, jd_ptr, idx, data = "n", "perm", "nzcnt", "jd_ptr", "idx", "data"
    signature = f"void {p}spmv_jds({params})"
    kernels = (
        f"{signature}\n{{\n    for (int r = 0; r < {rows}; r++) {{\n        {t} sum = 0;\n"
        f"        for (int k = 0; k < {nzcnt}[r]; k++) {{\n"
        f"            int j = {jd_ptr}[k] + r;\n            sum += {data}[j] * x[{idx}[j]];\n"
        f"        }}\n        y[{perm}[r]] = sum;\n    }}\n}}\n"
    )
    repeat = ch.chance("perm-repeat", 0.15)
    setup = (
        "{\n"
        "    int filled = 0;\n"
        f"    for (int l = {most}; l >= 0; l--)\n"
        f"        for (int i = 0; i < {p}n; i++)\n"
        f"            if ({length.format(i='i')} == l) {{\n"
        f"                {p}perm[filled] = i;\n"
        f"                {p}nzcnt[filled++] = l;\n"
        "            }\n"
        f"    for (int i = {p}n; i < {p}n + {PAD}; i++) {{\n"
        f"        {p}perm[i] = 0;\n        {p}nzcnt[i] = 0;\n    }}\n"
        f"    int longest = {p}n > 0 ? {p}nzcnt[0] : 0;\n"
        f"    int rows_k = {p}n;\n    {p}jd_ptr[0] = 0;\n"
        "    for (int k = 0; k < longest; k++) {\n"
        f"        while (rows_k > 0 && {p}nzcnt[rows_k - 1] <= k)\n            rows_k--;\n"
        f"        {p}jd_ptr[k + 1] = {p}jd_ptr[k] + rows_k;\n    }}\n"
        f"    for (int k = longest + 1; k < {most} + 1 + {PAD}; k++)\n"
        f"        {p}jd_ptr[k] = {p}jd_ptr[longest];\n"
        + (f"    if ({p}n >= 2)\n        {p}perm[1] = {p}perm[0];\n" if repeat else "")
        + "}\n"
    )
    alias = ch.pick("alias", ("none", "none", "none", "same"))
    y_arg = f"{p}x" if alias == "same" else f"{p}y"

    def jds_call(y: str) -> str:
        matrix = f"{p}perm, {p}nzcnt, {p}jd_ptr, {p}idx, {p}data"
        if in_struct:
            return f"{{\nstruct {p}jds A = {{ {p}n, {matrix} }};\n{p}spmv_jds(&A, {p}x, {y});\n}}\n"
        return f"{p}spmv_jds({p}n, {matrix}, {p}x, {y});\n"

    if alias == "none":
        call = jds_call(y_arg) + _pingpong(ch, p, t)
    else:
        call = on_some_steps(ch, jds_call(y_arg), jds_call(f"{p}y"))
    safe_n = f"({p}n > 0 ? {p}n : 1)"
    arrays = (
        Array(f"{p}perm", INT, f"{p}n", role="fixed"),
        Array(f"{p}nzcnt", INT, f"{p}n", role="fixed"),
        Array(f"{p}jd_ptr", INT, f"{most} + 1", role="fixed"),
        Array(
            f"{p}idx",
            INT,
            f"{p}n * {most}",
            f"(int)(((long)i * {ch.number(2, 9)} + {ch.number(0, 7)}) % {safe_n})",
            role="index",
            bound=f"{p}n",
        ),
        Array(f"{p}data", elem, f"{p}n * {most}", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}x", elem, f"{p}n", elem.small_value("i", ch.number(0, 30))),
        Array(f"{p}y", elem, f"{p}n", elem.small_value("i", ch.number(0, 30))),
    )
    return Piece(
        shape="spmv_jds",
        header=header + signature + ";\n",
        kernels=kernels,
        arrays=arrays,
        params=(Param(f"{p}n", n),),
        setup=setup,
        step=call,
    )


SPARSE_SHAPES = {"spmv_csr": csr, "spmv_jds": jds}
