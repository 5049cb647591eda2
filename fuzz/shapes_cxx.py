"""C++ shapes: a class holding its samples in a std::vector with a reduction method, and
function templates (a dot product and a 3-point smoother) called on std::vector data()."""

from __future__ import annotations

from fuzz.cfmt import print_value
from fuzz.ctypes_c import DOUBLE, FLOAT, INT, LONG
from fuzz.piece import PAD, Array, Chooser, Param, Piece, choose_size

__all__ = ["CXX_SHAPES"]


def signal_class(ch: Chooser, p: str) -> Piece:
    elem = ch.pick("type", (FLOAT, DOUBLE, INT, LONG))
    t, acc = elem.name, elem.sum_type
    n = choose_size(ch, "n", (2000, 30000))
    op = ch.pick("op", ("energy", "sum", "weighted"))
    bound = ch.pick("bound", ("member", "size", "param"))
    limit = {"member": "n_", "size": f"samples_.size() - {PAD}", "param": "n"}[bound]
    term = {
        "energy": "samples_[i] * samples_[i]",
        "sum": "samples_[i]",
        "weighted": "samples_[i] * weights_[i]",
    }[op]
    cls = f"{p}Signal"
    header = (
        f"class {cls} {{\npublic:\n"
        f"    explicit {cls}(std::size_t n)\n"
        f"        : n_(n), samples_(n + {PAD}), weights_(n + {PAD}) {{}}\n"
        f"    {t} *data() {{ return samples_.data(); }}\n"
        f"    {t} *weights() {{ return weights_.data(); }}\n"
        f"    {acc} fold(std::size_t n) const;\n"
        f"private:\n    std::size_t n_;\n"
        f"    std::vector<{t}> samples_;\n    std::vector<{t}> weights_;\n}};\n"
    )
    kernels = (
        f"{acc} {cls}::fold(std::size_t n) const\n{{\n    {acc} s = 0;\n"
        f"    for (std::size_t i = 0; i < {limit}; i++)\n        s += {term};\n"
        "    return s;\n}\n"
    )
    setup = (
        f"{cls} {p}sig((std::size_t){p}n);\n"
        f"{t} *{p}x = {p}sig.data();\n{t} *{p}w = {p}sig.weights();\n"
    )
    arrays = (
        Array(f"{p}x", elem, f"{p}n", elem.small_value("i", ch.number(0, 30)), allocate=False),
        Array(f"{p}w", elem, f"{p}n", elem.small_value("i", ch.number(0, 30)), allocate=False),
    )
    step = print_value(f"{p}fold", f"{p}sig.fold((std::size_t){p}n)", elem.is_float) + "\n"
    return Piece(
        shape="cxx_class",
        header=header,
        kernels=kernels,
        arrays=arrays,
        params=(Param(f"{p}n", n),),
        setup=setup,
        step=step,
        cxx_only=True,
        includes=("vector",),
    )


def templates(ch: Chooser, p: str) -> Piece:
    elem = ch.pick("type", (FLOAT, DOUBLE))
    t = elem.name
    n = choose_size(ch, "n", (1000, 30000))
    signatures = (
        f"T {p}dot(const T *x, const T *y, long n)",
        f"void {p}smooth(long n, const T *in, T *out)",
    )
    header = "".join(f"template <typename T>\n{s};\n" for s in signatures)
    kernels = (
        f"template <typename T>\n{signatures[0]}\n{{\n    T s = T(0);\n"
        "    for (long i = 0; i < n; i++)\n        s += x[i] * y[i];\n    return s;\n}\n"
        f"template <typename T>\n{signatures[1]}\n{{\n"
        "    for (long i = 1; i < n - 1; i++)\n"
        "        out[i] = T(0.25) * in[i - 1] + T(0.5) * in[i] + T(0.25) * in[i + 1];\n}\n"
        f"template {t} {p}dot<{t}>(const {t} *, const {t} *, long);\n"
        f"template void {p}smooth<{t}>(long, const {t} *, {t} *);\n"
    )
    arrays = tuple(
        Array(f"{p}{name}", elem, f"{p}n", elem.small_value("i", ch.number(0, 30)))
        for name in "abx"
    )
    step = (
        f"{p}smooth<{t}>({p}n, {p}a, {p}b);\n"
        f"{{ {t} *swap = {p}a; {p}a = {p}b; {p}b = swap; }}\n"
        + print_value(f"{p}dot", f"{p}dot<{t}>({p}a, {p}x, {p}n)", True)
        + "\n"
    )
    return Piece(
        shape="cxx_template",
        header=header,
        kernels=kernels,
        arrays=arrays,
        params=(Param(f"{p}n", n),),
        setup="",
        step=step,
        cxx_only=True,
    )


CXX_SHAPES = {"cxx_class": signal_class, "cxx_template": templates}
