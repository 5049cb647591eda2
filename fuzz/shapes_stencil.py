"""Stencils: 1D 3- and 5-point, 2D 5- and 9-point, 3D 7-point, on flat arrays or fixed-size
global 2D arrays, float, double and int, in a time loop that swaps the grids, copies back
(a loop or memcpy) or alternates; the near-miss is an in-place Gauss-Seidel sweep."""

from __future__ import annotations

from fuzz.ctypes_c import DOUBLE, FLOAT, INT
from fuzz.piece import Array, Chooser, Param, Piece, ShapeMaker, choose_size, on_some_steps

__all__ = ["STENCIL_SHAPES"]

GLOBAL_DIM = 128

# offsets (per dimension) and weights; weights sum to 1 (dyadic) or, for int, to `divisor`
Points = list[tuple[tuple[int, ...], int]]

POINTS: dict[str, Points] = {
    "1d3": [((-1,), 1), ((0,), 2), ((1,), 1)],
    "1d5": [((-2,), 1), ((-1,), 4), ((0,), 6), ((1,), 4), ((2,), 1)],
    "2d5": [((-1, 0), 1), ((1, 0), 1), ((0, -1), 1), ((0, 1), 1), ((0, 0), 4)],
    "2d9": [
        ((di, dj), 4 if di == dj == 0 else (2 if di == 0 or dj == 0 else 1))
        for di in (-1, 0, 1)
        for dj in (-1, 0, 1)
    ],
    "3d7": [
        ((-1, 0, 0), 1),
        ((1, 0, 0), 1),
        ((0, -1, 0), 1),
        ((0, 1, 0), 1),
        ((0, 0, -1), 1),
        ((0, 0, 1), 1),
        ((0, 0, 0), 2),
    ],
}


def _weights(
    points: list[tuple[tuple[int, ...], int]],
) -> tuple[list[tuple[tuple[int, ...], int]], int]:
    """Merge repeated offsets; the total weight (a power of two)."""
    merged: dict[tuple[int, ...], int] = {}
    for offset, weight in points:
        merged[offset] = merged.get(offset, 0) + weight
    return list(merged.items()), sum(merged.values())


def stencil(ch: Chooser, p: str, kind: str, in_place: bool) -> Piece:
    elem = ch.pick("type", (FLOAT, DOUBLE, DOUBLE, INT))
    t = elem.name
    points, total = _weights(POINTS[kind])
    radius = 2 if kind == "1d5" else 1
    dims = int(kind[0])
    storage = "global" if dims == 2 and not in_place and ch.chance("global-2d", 0.3) else "flat"
    counter = ch.pick("counter", ("int", "long"))
    if dims == 1:
        sizes = {"n": choose_size(ch, "n", (1000, 30000))}
        loops = [("i", f"{radius}", f"n - {radius}")]
        point = "[i]"
        read = "in[" + "i{0}" + "]"
        length = f"{p}n"
        dim_params = "int n"
    elif dims == 2:
        sizes = {
            "rows": choose_size(ch, "rows", (20, 120)),
            "cols": choose_size(ch, "cols", (20, 120)),
        }
        loops = [("i", "1", "rows - 1"), ("j", "1", "cols - 1")]
        if storage == "global":
            point = "[i][j]"
            read = "in[i{0}][j{1}]"
            dim_params = "int rows, int cols"
        else:
            point = "[i * ld + j]"
            read = "in[(i{0}) * ld + j{1}]"
            dim_params = "int rows, int cols, int ld"
        length = f"{p}rows * ({p}cols + {p}extra)"
    else:
        sizes = {
            "nz": choose_size(ch, "nz", (6, 26)),
            "ny": choose_size(ch, "ny", (6, 26)),
            "nx": choose_size(ch, "nx", (6, 26)),
        }
        loops = [("i", "1", "nz - 1"), ("j", "1", "ny - 1"), ("k", "1", "nx - 1")]
        point = "[(i * ny + j) * nx + k]"
        read = "in[((i{0}) * ny + j{1}) * nx + k{2}]"
        length = f"{p}nz * {p}ny * {p}nx"
        dim_params = "int nz, int ny, int nx"

    def fmt(offset: tuple[int, ...]) -> tuple[str, ...]:
        return tuple("" if d == 0 else (f" + {d}" if d > 0 else f" - {-d}") for d in offset)

    def read_of(offset: tuple[int, ...]) -> str:
        return read.format(*fmt(offset))

    if elem.is_float:
        value = " + ".join(f"{elem.literal(w / total)} * {read_of(o)}" for o, w in points)
    else:
        value = (
            "("
            + " + ".join(read_of(o) if w == 1 else f"{w} * {read_of(o)}" for o, w in points)
            + f") / {total}"
        )
    if in_place:
        value = value.replace("in[", "u[")
        target = f"u{point}"
        array_params = f"{t} *u"
    else:
        target = f"out{point}"
        if storage == "global":
            array_params = f"{t} (*out)[{GLOBAL_DIM}], {t} (*in)[{GLOBAL_DIM}]"
        else:
            array_params = f"const {t} *in, {t} *out"
    nest = ""
    indent = "    "
    for var, low, high in loops:
        nest += f"{indent}for ({counter} {var} = {low}; {var} < {high}; {var}++)\n"
        indent += "    "
    nest += f"{indent}{target} = {value};\n"
    signature = f"void {p}sweep({dim_params}, {array_params})"
    kernels = f"{signature}\n{{\n{nest}}}\n"
    names = list(sizes)
    dims_args = ", ".join(f"{p}{name}" for name in names)
    if dims == 2 and storage == "flat":
        dims_args += f", {p}cols + {p}extra"
    params = [Param(f"{p}{name}", value_) for name, value_ in sizes.items()]
    if dims == 2 and storage == "flat":
        params.append(Param(f"{p}extra", ch.pick("ld-extra", (0, 0, 1, 4))))
    setup = ""
    fill = elem.small_value("i", ch.number(0, 30), 8 if elem.is_float else 50)
    header = ""
    arrays: tuple[Array, ...]
    if in_place:
        arrays = (Array(f"{p}a", elem, length, fill),)
        step = f"{p}sweep({dims_args}, {p}a);\n"
        shape = "nm_stencil_gs"
    elif storage == "global":
        for name in "UV":
            header += f"extern {t} {p}{name}[{GLOBAL_DIM}][{GLOBAL_DIM}];\n"
        kernels = (
            "".join(f"{t} {p}{name}[{GLOBAL_DIM}][{GLOBAL_DIM}];\n" for name in "UV") + kernels
        )
        params = [Param(p + n, min(v, GLOBAL_DIM)) for n, v in sizes.items()]
        setup += f"{t} *{p}a = &{p}U[0][0];\n{t} *{p}b = &{p}V[0][0];\n"
        setup += f"{t} (*{p}cur)[{GLOBAL_DIM}] = {p}U, (*{p}nxt)[{GLOBAL_DIM}] = {p}V;\n"
        arrays = tuple(
            Array(f"{p}{name}", elem, f"{GLOBAL_DIM * GLOBAL_DIM - 8}", fill, allocate=False)
            for name in "ab"
        )
        step = (
            f"{p}sweep({dims_args}, {p}nxt, {p}cur);\n"
            f"{{ {t} (*swap)[{GLOBAL_DIM}] = {p}cur; {p}cur = {p}nxt; {p}nxt = swap; }}\n"
        )
        shape = f"stencil_{kind}"
        ch.features.append("time=swap")
    else:
        alias = ch.pick("alias", ("none", "none", "none", "shifted", "same"))
        arrays = (
            Array(f"{p}a", elem, length, fill),
            Array(
                f"{p}b",
                elem,
                length,
                elem.small_value("i", ch.number(0, 30), 8 if elem.is_float else 50),
            ),
        )
        if alias != "none":
            out = f"{p}a + 1" if alias == "shifted" else f"{p}a"
            step = on_some_steps(
                ch,
                f"{p}sweep({dims_args}, {p}a, {out});\n",
                f"{p}sweep({dims_args}, {p}a, {p}b);\n",
            )
        else:
            time = ch.pick("time", ("swap", "copy", "memcpy", "alternate", "none"))
            step = f"{p}sweep({dims_args}, {p}a, {p}b);\n"
            if time == "swap":
                step += f"{{ {t} *swap = {p}a; {p}a = {p}b; {p}b = swap; }}\n"
            elif time == "copy":
                step += f"for (long i = 0; i < (long)({length}); i++)\n    {p}a[i] = {p}b[i];\n"
            elif time == "memcpy":
                step += f"memcpy({p}a, {p}b, sizeof({t}) * (size_t)({length}));\n"
            elif time == "alternate":
                step += f"{p}sweep({dims_args}, {p}b, {p}a);\n"
        shape = f"stencil_{kind}"
    return Piece(
        shape=shape,
        header=header + signature + ";\n",
        kernels=kernels,
        arrays=arrays,
        params=tuple(params),
        setup=setup,
        step=step,
    )


def _maker(kind: str) -> ShapeMaker:
    return lambda ch, p: stencil(ch, p, kind, False)


def _gauss_seidel(ch: Chooser, p: str) -> Piece:
    return stencil(ch, p, ch.pick("points", ("1d3", "2d5", "3d7")), True)


STENCIL_SHAPES: dict[str, ShapeMaker] = {
    **{f"stencil_{kind}": _maker(kind) for kind in POINTS},
    "nm_stencil_gs": _gauss_seidel,
}
