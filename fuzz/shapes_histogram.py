"""Histograms: plain counts `h[key[i]]++`, weighted `h[k[i]] += w[i]` (integer bins of
8 to 64 bits and floating-point bins), conditional counts over a range, and the
saturating count (a near-miss: its test reads the bins)."""

from __future__ import annotations

from fuzz.ctypes_c import DOUBLE, FLOAT, INT, LONG, SHORT, UCHAR, UNSIGNED
from fuzz.loops_c import choose_loop
from fuzz.piece import Array, Chooser, Param, Piece, choose_size

__all__ = ["HISTOGRAM_SHAPES"]


def histogram(ch: Chooser, p: str, kind: str) -> Piece:
    """kind: "plain", "weighted", "cond" or "saturate"."""
    n = choose_size(ch, "n", (3000, 40000))
    bins = ch.pick("bins", (1, 2, 7, 64, 256) if kind != "cond" else (1, 5, 64))
    # Bytes and shorts too: their counts wrap, and their kernels' adds swap the word that
    # holds each bin.
    narrow = (UCHAR, SHORT)
    bin_type = ch.pick(
        "bin-type",
        (INT, LONG, UNSIGNED, FLOAT, DOUBLE, *narrow)
        if kind == "weighted"
        else (INT, LONG, UNSIGNED, *narrow),
    )
    key_type = ch.pick("key-type", (INT, UCHAR, LONG) if bins <= 256 else (INT, LONG))
    loop = choose_loop(ch, "loop")
    b, k = bin_type.name, key_type.name
    i = loop.index("i")
    weights = ""
    arrays = [Array(f"{p}h", bin_type, f"{p}nb", bin_type.literal(0))]
    if kind == "cond":
        # values in [-8, bins + 8): only those in [lo, lo + bins) are counted
        value_type = ch.pick("value-type", (INT, LONG))
        v = value_type.name
        params = (
            f"const {v} *v, {loop.counter_type} lo_i, {loop.counter_type} n, {v} lo, {v} hi, {b} *h"
        )
        test = ch.pick("test", ("and", "nested", "continue"))
        if test == "and":
            body = f"if (v[{i}] >= lo && v[{i}] < hi)\n            h[v[{i}] - lo]++;"
        elif test == "nested":
            body = (
                f"{v} x = v[{i}];\n        if (x >= lo) {{\n"
                "            if (x < hi)\n                h[x - lo] += 1;\n        }"
            )
        else:
            body = (
                f"{v} x = v[{i}];\n        if (x < lo || x >= hi)\n"
                "            continue;\n        ++h[x - lo];"
            )
        lo = ch.pick("range-lo", (-3, 0, 2))
        args = f"{p}v, {p}lo_i, {p}n, ({v}){lo}, ({v})({lo} + {p}nb), {p}h"
        arrays.append(
            Array(
                f"{p}v",
                value_type,
                f"{p}n",
                f"({v})(((long)i * {ch.number(3, 11)} + {ch.number(0, 5)}) % ({p}nb + 16)) - 8",
            )
        )
    else:
        key_fill = f"({k})(((long)i * {ch.number(3, 17)} + {ch.number(0, 9)}) % {p}nb)"
        arrays.append(Array(f"{p}key", key_type, f"{p}n", key_fill, role="index", bound=f"{p}nb"))
        if kind == "weighted":
            weight_type = bin_type
            weights = f", const {weight_type.name} *w"
            arrays.append(
                Array(f"{p}w", weight_type, f"{p}n", weight_type.small_value("i", ch.number(0, 30)))
            )
        params = f"const {k} *key{weights}, {loop.counter_type} lo_i, {loop.counter_type} n, {b} *h"
        update = ch.pick("update", ("++", "+= 1", "pre++", "= h + 1"))
        if kind == "weighted":
            body = f"h[key[{i}]] += w[{i}];"
        elif kind == "saturate":
            body = f"if (h[key[{i}]] < {bin_type.literal(3)})\n            h[key[{i}]]++;"
        elif update == "pre++":
            body = f"++h[key[{i}]];"
        elif update == "= h + 1":
            body = f"{k} c = key[{i}];\n        h[c] = h[c] + 1;"
        else:
            body = f"h[key[{i}]]{update};"
        alias = kind == "weighted" and ch.chance("alias-weights-bins", 0.2)
        if alias:  # the bins array also holds the n weights read through w
            weights_fill = bin_type.small_value("i", ch.number(0, 30))
            arrays[0] = Array(f"{p}h", bin_type, f"{p}nb + {p}n", weights_fill)
        w_arg = (f", {p}h" if alias else f", {p}w") if kind == "weighted" else ""
        if alias and ch.chance("alias-odd-steps", 0.5):
            w_arg = f", (t % 2 == 1 ? {p}h : {p}w)"
        args = f"{p}key{w_arg}, {p}lo_i, {p}n, {p}h"
    signature = f"void {p}hist({params})"
    kernels = (
        f"{signature}\n{{\n    {loop.header('i', 'lo_i', 'n')} {{\n        {body}\n    }}\n}}\n"
    )
    reset = ch.chance("reset-bins", 0.4)
    step = ""
    if reset:
        step += f"for (int j = 0; j < {p}nb; j++) {p}h[j] = 0;\n"
    step += f"{p}hist({args});\n"
    lo_i = ch.pick("lo", (0, 0, 1, 2))
    params_ = (Param(f"{p}n", n), Param(f"{p}nb", bins))
    setup = f"int {p}lo_i = {p}n < {lo_i} ? {p}n : {lo_i};\n"
    return Piece(
        shape={"plain": "hist_plain", "weighted": "hist_weighted", "cond": "hist_cond"}.get(
            kind, "nm_hist_saturate"
        ),
        header=signature + ";\n",
        kernels=kernels,
        arrays=tuple(arrays),
        params=params_,
        setup=setup,
        step=step,
    )


HISTOGRAM_SHAPES = {
    "hist_plain": lambda ch, p: histogram(ch, p, "plain"),
    "hist_weighted": lambda ch, p: histogram(ch, p, "weighted"),
    "hist_cond": lambda ch, p: histogram(ch, p, "cond"),
    "nm_hist_saturate": lambda ch, p: histogram(ch, p, "saturate"),
}
