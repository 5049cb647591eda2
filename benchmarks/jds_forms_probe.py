"""A JDS product's kernel, four ways, on corpus jds_matrix.cpp's matrix shape.

`y[perm[r]] = sum over d < len[r] of V[J[d] + r] * X[C[J[d] + r]]`, one sorted row a
work-item, doubles, `long` diagonal offsets (the matrix of corpus/jds_matrix.cpp: a
diagonal of 6 and 0..7 couplings of -0.5 a row, rows sorted by length):

- `translated`: the form the kernels translated from the IR take (mappers/targets/jds.py
  `row_product`): the row's index bound by an early return, the diagonal loop counted in
  `long`, the strides read from a parameter buffer;
- `grid_int`: the form the Lift compiler generates with `int` sizes (a grid-stride loop
  over rows, the diagonal loop counted in `int` and added to a `long` start);
- `grid_long`: the same with `long` sizes;
- `return_int`: `grid_int`'s body bound by an early return instead of the loop;
- `grid_int_early` and `translated_late`: the row's place in y (perm[r]) read before
  the diagonals' loop, and after it;
- `grid_int_bound`: `grid_int_early` counting to the row's length as read (no segment
  bounds); `return_long_bound`: `translated` without its parameter buffer;
- `grid_long_bound`, `return_long_bound_late`, `return_long_segment`, `return_int_bound`:
  `return_long_bound` with one thing changed (the grid-stride loop; y's place read late;
  the segment's bounds; the diagonals counted in `int`);
- `grid_int_unroll1`, `grid_int_early_unroll1`: `grid_int` and `grid_int_early` with the
  diagonals' loop kept rolled (`#pragma unroll 1`);
- `return_introw_long_bound`: `return_long_bound` with the row's index an `int`;
- `return_introw_long_zero`, `return_introw_int_zero`, `grid_introw_long_zero`: the
  segment's bounds from 0 to the row's length (jd_ptr from its first entry: `jlo` 0), its
  length computed from them, y's place first; counted in `long` or `int`, bound by an
  early return or a grid-stride loop;
- `dual_long_bound`, `dual_introw_long_bound`, `dual_long_segment`: a row without a loop
  where the NDRange covers every row and a grid-stride loop otherwise (a test every item
  takes the same way: a kernel correct in any NDRange), with `return_long_bound`'s,
  `return_introw_long_bound`'s and `return_long_segment`'s bodies.

- `glc_*` and `gic_*`: `generated_long_covered` and `generated_int_covered` with traits
  of the hand-written forms (`_TRAITS`). With `--int-diagonals`, the generated forms of
  corpus/jds_struct.c's product instead (jd_ptr of ints).
- `generated_int`, `generated_int_covered`, `generated_long`, `generated_long_covered`:
  the kernels the Lift compiler generates for jds_matrix.cpp's product (its lowered
  expression, as `idiom lift` prints it, in `LOWERED`), with `int` and `long` indices, as
  a loop striding by the range and covering every row (`generate(covers_highest=True)`).

Every form launched in the driver's work-groups, 200 times after one, in a new random
order each round; min,
tenth percentile and median kernel times; every y compared with numpy's to the bit.

    python benchmarks/jds_forms_probe.py --device gpu [--rows 300000] [--binary FILE]
        [--forms translated,generated_int,...]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lift.exploration.device import open_device
from lift.ir.expr import Lambda as ir_lambda
from lift.ir.text import parse
from lift.ir.types import Size
from lift.opencl.generate import Output, generate

PARAMS = """long n0, __global const int* restrict L, __global const int* restrict perm,
  __global const long* restrict P, __global const long* restrict J,
  __global const double* restrict V, __global const int* restrict C,
  __global const double* restrict X, __global double* restrict Y,
  long jlo, long vlo, long xlo, long ylo, int in0"""
ROW = """
    const long lo = (long)((ulong)0L - (ulong)jlo);
    const long hi = (long)((ulong)(long)L[ROW] - (ulong)jlo);
    const COUNT diagonals = hi > lo ? (COUNT)(hi - lo) : 0;
    EARLY
    double acc = 0.0;
    for (COUNT d = 0; d < diagonals; d++) {
      const long j = (long)((ulong)J[lo + d] + (ulong)((long)(uint)(int)ROW));
      acc = acc + V[(long)((ulong)j - (ulong)vlo)]
                * X[(long)((ulong)(long)C[j - vlo] - (ulong)xlo)];
    }
    Y[AT] = acc;"""
AT = "(long)((ulong)(long)perm[ROW] - (ulong)ylo)"


def row(at: str, count: str, *, early: bool = False) -> str:
    """The row's code over row index `at`, counting diagonals in `count`; with `early`,
    its place in y read before the diagonals' loop."""
    place = AT.replace("ROW", at)
    text = ROW.replace("EARLY", f"const long at = {place};" if early else "")
    return text.replace("AT", "at" if early else place).replace("ROW", at).replace("COUNT", count)


BOUND_ROW = """
    const int v1 = L[ROW];
    EARLY
    double acc = 0.0;
    for (COUNT d = 0; d < (COUNT)v1; d++) {
      const long j = (long)((ulong)J[d - jlo] + (ulong)((long)(uint)(int)ROW));
      acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
    }
    Y[AT] = acc;"""


def bound_row(at: str, count: str, *, early: bool) -> str:
    """`row` counting to the row's length as read, without the segment's bounds."""
    place = AT.replace("ROW", at)
    text = BOUND_ROW.replace("EARLY", f"const long at = {place};" if early else "")
    text = text.replace("AT", "at" if early else place)
    return text.replace("ROW", at).replace("COUNT", count)


ZERO_ROW = """
    const long at = (long)((ulong)(long)perm[ROW] - (ulong)ylo);
    const long lo = (long)0;
    const long hi = (long)L[ROW];
    const long diagonals = hi > lo ? (long)(hi - lo) : 0;
    double acc = 0.0;
    for (COUNT d = 0; d < (COUNT)diagonals; d++) {
      const long j = (long)((ulong)J[lo + d] + (ulong)((long)(uint)(int)ROW));
      acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
    }
    Y[at] = acc;"""


def zero_row(at: str, count: str) -> str:
    """A row as the generator writes it with its diagonals' bounds read from 0 (jd_ptr
    passed from its first entry): the segment's length from the bounds, y's place first."""
    return ZERO_ROW.replace("ROW", at).replace("COUNT", count)


def grid(name: str, body: str) -> str:
    return f"""__kernel void {name}({PARAMS}) {{
  for (long r = get_global_id(0); r < n0; r += get_global_size(0)) {{{body}
  }}
}}
"""


def int_grid(name: str, body: str) -> str:
    return f"""__kernel void {name}({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{{body}
  }}
}}
"""


def rolled(body: str) -> str:
    """`body` with its diagonals' loop kept rolled."""
    return body.replace("    for (", "    #pragma unroll 1\n    for (")


def by_return(name: str, body: str) -> str:
    return f"""__kernel void {name}({PARAMS}) {{
  const long r = get_global_id(0);
  if (r >= n0) return;{body}
}}
"""


def dual(name: str, body: str) -> str:
    """`body` once, without a loop, where the NDRange covers every row (a test every item
    takes the same way), and in a grid-stride loop otherwise."""
    return f"""__kernel void {name}({PARAMS}) {{
  if (get_global_size(0) >= n0) {{
    const long r = get_global_id(0);
    if (r >= n0) return;{body}
  }} else {{
    for (long r = get_global_id(0); r < n0; r += get_global_size(0)) {{{body}
    }}
  }}
}}
"""


def translated(name: str, *, early: bool) -> str:
    """The translated kernel's form; with `early`, y's place read before the loop (as the
    tool's translated kernel reads it)."""
    place = "(long)perm[i1_o + t0 * i1_s0]"
    first = f"  const long v3 = {place};\n" if early else ""
    return f"""__kernel void {name}({PARAMS}) {{
  const long i0_o = P[0], i0_s0 = P[1], i1_o = P[2], i1_s0 = P[3];
  const long t0 = get_global_id(0);
  if (t0 >= n0) return;
  const int it0 = (int)t0;
  const int v1 = L[i0_o + t0 * i0_s0];
{first}  double acc = 0.0;
  for (long qq = 0; qq < (long)v1; qq++) {{
    const long v8 = (long)((ulong)J[qq - jlo] + (ulong)((long)(uint)it0));
    const long v11 = (long)C[v8 - vlo];
    acc = acc + V[v8 - vlo] * X[v11 - xlo];
  }}
  Y[{"v3" if early else place} - ylo] = acc;
}}
"""


SOURCE = f"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
{translated("translated", early=True)}{translated("translated_late", early=False)}\
__kernel void grid_int({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{
{row("r", "int")}
  }}
}}
__kernel void grid_int_early({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{
{row("r", "int", early=True)}
  }}
}}
__kernel void grid_long({PARAMS}) {{
  for (long r = get_global_id(0); r < n0; r += get_global_size(0)) {{
{row("r", "long")}
  }}
}}
__kernel void return_int({PARAMS}) {{
  const int r = get_global_id(0);
  if (r >= in0) return;
{row("r", "int")}
}}
__kernel void grid_int_bound({PARAMS}) {{
  for (int r = get_global_id(0); r < in0; r += get_global_size(0)) {{
    const int v1 = L[r];
    const long at = (long)((ulong)(long)perm[r] - (ulong)ylo);
    double acc = 0.0;
    for (int d = 0; d < v1; d++) {{
      const long j = (long)((ulong)J[d - jlo] + (ulong)((long)(uint)r));
      acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
    }}
    Y[at] = acc;
  }}
}}
__kernel void return_long_bound({PARAMS}) {{
  const long t0 = get_global_id(0);
  if (t0 >= n0) return;
  const int v1 = L[t0];
  const long at = (long)perm[t0] - ylo;
  double acc = 0.0;
  for (long d = 0; d < (long)v1; d++) {{
    const long j = (long)((ulong)J[d - jlo] + (ulong)((long)(uint)(int)t0));
    acc = acc + V[j - vlo] * X[(long)C[j - vlo] - xlo];
  }}
  Y[at] = acc;
}}
"""
SOURCE += int_grid("grid_int_unroll1", rolled(row("r", "int")))
SOURCE += by_return("return_introw_long_bound", bound_row("(int)r", "long", early=True))
SOURCE += by_return("return_introw_long_zero", zero_row("(int)r", "long"))
SOURCE += by_return("return_introw_int_zero", zero_row("(int)r", "int"))
SOURCE += grid("grid_introw_long_zero", zero_row("(int)r", "long"))
SOURCE += dual("dual_long_bound", bound_row("r", "long", early=True))
SOURCE += dual("dual_introw_long_bound", bound_row("(int)r", "long", early=True))
SOURCE += dual("dual_long_segment", row("r", "long", early=True))
SOURCE += int_grid("grid_int_early_unroll1", rolled(row("r", "int", early=True)))
SOURCE += grid("grid_long_bound", bound_row("r", "long", early=True))
SOURCE += by_return("return_long_bound_late", bound_row("r", "long", early=False))
SOURCE += by_return("return_long_segment", row("r", "long", early=True))
SOURCE += by_return("return_int_bound", bound_row("r", "int", early=True))
KERNELS = (
    "translated",
    "translated_late",
    "grid_int",
    "grid_int_early",
    "grid_long",
    "return_int",
    "grid_int_bound",
    "return_long_bound",
    "grid_long_bound",
    "return_long_bound_late",
    "return_long_segment",
    "return_int_bound",
    "grid_int_unroll1",
    "grid_int_early_unroll1",
    "return_introw_long_bound",
    "return_introw_long_zero",
    "return_introw_int_zero",
    "grid_introw_long_zero",
    "dual_long_bound",
    "dual_introw_long_bound",
    "dual_long_segment",
)


# corpus/jds_matrix.cpp's product, lowered (`idiom lift corpus/jds_matrix.cpp --function
# JdsMatrix::apply`): g0 the rows' lengths, g1 perm.
LOWERED = """
(lambda ((g0 (array i32 g0_len)) (g1 (array i32 g1_len)) (J (array i64 J_len))
         (V (array f64 V_len)) (C (array i32 V_len)) (X (array f64 X_len)) (xlo i64)
         (Y (array f64 Y_len)) (jlo i64) (vlo i64) (ylo i64))
  (permute
    (map (lambda (p) (- (i64 (i64 (get 2 p))) ylo))
      (zip (strided i0_o (i0_s0) (n0) g0) (indices 0 (n0)) (strided i1_o (i1_s0) (n0) g1)))
    (map-global 0
      (lambda (p)
        ((lambda (row)
           (get 0 (reduce-seq (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
                    (zip row (gather (map (lambda (ce) (- (i64 (get 1 ce)) xlo)) row) X)))))
          (gather
            (map (lambda (s) (- (i64 (+ s (u64 (i32 (+ (i64 0:i32) (* (get 1 p) 1:i64)))))) vlo))
              (segment diagonals (- (i64 0:i32) jlo) (- (i64 (get 0 p)) jlo) J))
            (zip V C))))
      (zip (strided i0_o (i0_s0) (n0) g0) (indices 0 (n0)) (strided i1_o (i1_s0) (n0) g1)))
    Y))
"""
GENERATED = {
    f"generated_{index}{'_covered' if covered else ''}": (index, covered)
    for index in ("int", "long")
    for covered in (False, True)
}


# `generated_long_covered` with one trait of the hand-written forms each, and all four:
# the rows' lengths and perm read at the row (their strides 1 and offsets 0), the row's
# length as read for the diagonals' count, jd_ptr indexed `d - jlo`, the length read first.
_ROW = "((lk_i1)*(i0_s0)) + (i0_o)"
_PLACE = "((lk_i1)*(i1_s0)) + (i1_o)"
_COUNT = f"max((((long)g0[{_ROW}]) - ((long)0)), 0L)"
_AT = f"    const long lk_at4 = ((long)((ulong)((long)((long)g1[{_PLACE}])) - (ulong)ylo));\n"
_TRAITS = {
    "unit": [(_ROW, "lk_i1"), (_PLACE, "lk_i1")],
    "raw": [(_COUNT, f"(long)g0[{_ROW}]")],
    "jd": [("J[lk_lo5 + (lk_j8)]", "J[lk_j8 - jlo]")],
    "lfirst": [(_AT, ""), ("    double lk_p6[1];\n", _AT + "    double lk_p6[1];\n")],
}
_LONG, _INT = "generated_long_covered", "generated_int_covered"
DERIVED = {f"glc_{trait}": (_LONG, [trait]) for trait in _TRAITS}
DERIVED["glc_all"] = (_LONG, ["raw", "jd", "lfirst", "unit"])  # each's text kept in turn
DERIVED |= {
    "gic_raw": (_INT, ["raw"]),
    "gic_jd": (_INT, ["jd"]),
    "gic_raw_jd": (_INT, ["raw", "jd"]),
}
# And the slices' first indices subtracted signed, as the translated kernels do (`signed_moves`).
DERIVED |= {"gic_signed": (_INT, ["signed"]), "glc_signed": (_LONG, ["signed"])}

# The translated kernel's form for jd_ptr of ints (corpus/jds_struct.c): its position the
# wrapped int sum of jd_ptr[d] and the row, widened.
INT_DIAGONALS_SOURCE = f"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void translated_int({PARAMS.replace("const long* restrict J", "const int* restrict J")}) {{
  const long i0_o = P[0], i0_s0 = P[1], i1_o = P[2], i1_s0 = P[3];
  const long t0 = get_global_id(0);
  if (t0 >= n0) return;
  const int it0 = (int)t0;
  const int v1 = L[i0_o + t0 * i0_s0];
  const long v3 = (long)perm[i1_o + t0 * i1_s0];
  double acc = 0.0;
  for (long qq = 0; qq < (long)v1; qq++) {{
    const int v7 = (int)((uint)J[qq - jlo] + (uint)it0);
    const long v8 = (long)v7;
    const long v11 = (long)C[v8 - vlo];
    acc = acc + V[v8 - vlo] * X[v11 - xlo];
  }}
  Y[v3 - ylo] = acc;
}}
"""

# corpus/jds_struct.c's product: jd_ptr of ints, a row's position their wrapped int sum.
LOWERED_INT_DIAGONALS = LOWERED.replace("(J (array i64 J_len))", "(J (array i32 J_len))").replace(
    "(- (i64 (+ s (u64 (i32 (+ (i64 0:i32) (* (get 1 p) 1:i64)))))) vlo)",
    "(- (i64 (i64 (+ s (i32 (+ (i64 0:i32) (* (get 1 p) 1:i64)))))) vlo)",
)


def generated_sources(int_diagonals: bool = False) -> dict[str, str]:
    """Each generated form's OpenCL source, its kernel named as the form; with
    `int_diagonals`, of jds_struct.c's product (`LOWERED_INT_DIAGONALS`)."""
    program = parse(LOWERED_INT_DIAGONALS if int_diagonals else LOWERED)
    assert isinstance(program, ir_lambda)
    output = Output("Y", True, Size.of(0), (Size.of(1),))
    sources = {
        name: generate(program, name, output, index=index, covers_highest=covered,
                       packed_sizes=True).source
        for name, (index, covered) in GENERATED.items()
    }  # fmt: skip
    for name, (base, traits) in DERIVED.items():
        text = sources[base]
        for trait in traits:
            if trait == "signed":
                text = signed_moves(text)
                continue
            for old, new in _TRAITS[trait]:
                if old not in text:
                    raise SystemExit(f"{name}: the generated kernel no longer has {old!r}")
                text = text.replace(old, new)
        sources[name] = text.replace(base, name)
    return sources


def jagged(rows: int, seed: int = 3, banded: bool = False) -> tuple[np.ndarray, ...]:
    """jds_matrix.cpp's matrix: row i has 6.0 at i and 0..7 couplings of -0.5 at random
    columns; or, `banded`, jds_struct.c's: row i has 2 + 5i mod 9 entries, its d-th at
    column i + 3d for odd d and i - 3d for even d (mod the rows). Rows sorted by length,
    longest first (stable); diagonal d holds the d-th entry of every row longer than d."""
    rng = np.random.default_rng(seed)
    if banded:
        lengths = 2 + (np.arange(rows) * 5) % 9
        columns = [
            np.array([(i + (d if d % 2 else -d) * 3) % rows for d in range(k)])
            for i, k in enumerate(lengths)
        ]
    else:
        lengths = 1 + rng.integers(0, 8, rows)
        columns = [
            np.concatenate(([i], rng.integers(0, rows, k - 1))) for i, k in enumerate(lengths)
        ]
    perm = np.argsort(-lengths, kind="stable").astype(np.int32)
    sorted_lengths = lengths[perm].astype(np.int32)
    jd_ptr, cols, vals = [0], [], []
    for d in range(int(sorted_lengths[0])):
        live = int(np.count_nonzero(sorted_lengths > d))
        jd_ptr.append(jd_ptr[-1] + live)
        cols.append(np.array([columns[perm[r]][d] for r in range(live)], np.int32))
        vals.append(np.full(live, 6.0 if d == 0 else -0.5))
    return (sorted_lengths, perm, np.array(jd_ptr, np.int64), np.concatenate(vals),
            np.concatenate(cols))  # fmt: skip


def tool_sources(accelerated: Path, translated: Path) -> dict[str, str]:
    """The JDS product's kernels as the tool built them into two binaries of a program:
    `tool_generated` (the covered twin of the `int` kernel, which the runtime launches
    where every row has an item) and `tool_translated`."""
    found = {}
    for form, binary, marker, kernel in (
        ("tool_generated", accelerated, b"typedef struct { int v[11]; } idiom_jds_spmv_sizes;",
         "idiom_jds_spmv_covered("),
        ("tool_translated", translated, b"__global const long* restrict P", "idiom_jds_spmv("),
    ):  # fmt: skip
        texts = [t for t in binary.read_bytes().split(b"\0")
                 if marker in t and b"#define" in t and kernel.encode() in t]  # fmt: skip
        if not texts:
            sys.exit(f"{binary}: no JDS product kernel of the expected form")
        source = texts[0][texts[0].index(b"#define") :].decode()
        found[form] = source.replace(kernel, f"{form}(")
        variant = f"{form}_locals"
        found[variant] = defines_as_locals(source).replace(kernel, f"{variant}(")
    generated = found["tool_generated"]
    variants = {
        "signed": signed_moves(generated),
        "elements": re.sub(
            r"#define (\w+) \(\((__global (?:const )?(\w+)\*)\)\((\w+) \+ (\w+)\)\)",
            r"#define \1 (((\2)\4) + \5 / (long)sizeof(\3))", generated,
        ),  # the byte offsets as element offsets of typed buffers
    }  # fmt: skip
    for trait in ("raw", "jd", "unit"):
        text = generated
        for old, new in _TRAITS[trait]:
            text = text.replace(old, new)
        variants[trait] = text
    for name, text in variants.items():
        found[f"tool_generated_{name}"] = text.replace("tool_generated(", f"tool_generated_{name}(")
    return found


def defines_as_locals(source: str) -> str:
    """`source` with its buffers' `#define NAME ((T*)(NAME_mem + NAME_at))` lines made
    constant pointers declared first in each kernel."""
    lines = source.splitlines(keepends=True)
    defines = [line.split(None, 2)[1:] for line in lines if line.startswith("#define ")]
    pointers = "".join(
        f"  {text.strip()[2 : text.strip().index('*') + 1]} const {name} = {text.strip()[1:-1]};\n"
        for name, text in defines
    )  # `((__global const int*)(J_mem + J_at))` gives `__global const int* const J = ...`
    body = "".join(line for line in lines if not line.startswith("#define "))
    return re.sub(r"(__kernel void [^{]*\{\n)", lambda m: m.group(1) + pointers, body)


def signed_moves(text: str) -> str:
    """`text` with each wrapped subtraction of a slice's first index,
    `((long)((ulong)A - (ulong)lo))` for lo one of jlo, vlo, xlo, ylo, written signed:
    `((long)(A) - lo)`."""
    head = "((long)((ulong)"
    out, at = [], 0
    while (start := text.find(head, at)) >= 0:
        end = _closing(text, start)
        inner = text[start + len("((long)(") : _closing(text, start + len("((long)"))]
        moved = next(
            (lo for lo in ("jlo", "vlo", "xlo", "ylo") if inner.endswith(f" - (ulong){lo}")), None
        )
        if moved is None:
            out.append(text[at : start + 1])
            at = start + 1
            continue
        left = inner[len("(ulong)") : -len(f" - (ulong){moved}")]
        out.append(text[at:start] + f"((long)({signed_moves(left)}) - {moved})")
        at = end + 1
    return "".join(out) + text[at:]


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at `start`."""
    depth = 0
    for k in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return k
    raise ValueError("unbalanced parentheses")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--binary", type=Path, help="write the built program here (PTX on NVIDIA)")
    parser.add_argument("--forms", help="only these forms, comma-separated")
    parser.add_argument(
        "--int-diagonals", action="store_true",
        help="jds_struct.c's product (jd_ptr of ints): the generated forms and translated_int",
    )  # fmt: skip
    parser.add_argument("--banded", action="store_true", help="jds_struct.c's matrix")
    parser.add_argument(
        "--tool-binaries", nargs=2, type=Path, metavar=("ACCELERATED", "TRANSLATED"),
        help="also time the kernels built into these (tool_generated, tool_translated)",
    )  # fmt: skip
    args = parser.parse_args()
    forms = [*KERNELS, *GENERATED, *DERIVED] if args.forms is None else args.forms.split(",")
    tool = {} if args.tool_binaries is None else tool_sources(*args.tool_binaries)
    forms += list(tool)
    device = open_device(args.device)
    cl, context, queue = device.cl, device.context, device.queue
    program = cl.Program(context, SOURCE).build()
    if args.binary is not None:
        args.binary.write_bytes(program.binaries[0])
    generated = {name: cl.Program(context, text).build()
                 for name, text in generated_sources(args.int_diagonals).items()}  # fmt: skip
    n = args.rows
    lengths, perm, jd_ptr, values, columns = jagged(n, banded=args.banded)
    x = np.cos(0.05 * np.arange(n))
    expected = np.zeros(n)
    for d in range(len(jd_ptr) - 1):
        live = slice(int(jd_ptr[d]), int(jd_ptr[d + 1]))
        expected[: live.stop - live.start] += values[live] * x[columns[live]]
    expected_y = np.empty(n)
    expected_y[perm] = expected
    strides = np.array([0, 1, 0, 1], np.int64)
    inputs = [lengths, perm, strides, jd_ptr, values, columns, x]
    buffers = [cl.Buffer(context, cl.mem_flags.COPY_HOST_PTR, hostbuf=a) for a in inputs]
    y = cl.Buffer(context, cl.mem_flags.READ_WRITE, 8 * n)
    zeros = [np.int64(0)] * 4
    print(f"device {device.name}; {n} rows, {len(values)} entries", flush=True)
    hand = [np.int64(n), *buffers, y, *zeros, np.int32(n)]
    # The generated kernels' sizes: J_len V_len X_len Y_len g0_len g1_len i0_o i0_s0 i1_o
    # i1_s0 n0, in the index type.
    sizes = [len(jd_ptr), len(values), n, n, n, n, 0, 1, 0, 1, n]
    lengths_buffer, perm_buffer, _, jd_buffer, values_buffer, columns_buffer, x_buffer = buffers
    hand_kernels: tuple[str, ...] = KERNELS
    if args.int_diagonals:
        if any(name in KERNELS for name in forms):
            sys.exit("--int-diagonals times the generated forms and translated_int only")
        int_starts = jd_ptr.astype(np.int32)
        jd_buffer = cl.Buffer(context, cl.mem_flags.COPY_HOST_PTR, hostbuf=int_starts)
        program = cl.Program(context, INT_DIAGONALS_SOURCE).build()
        hand_kernels = ("translated_int",)
        hand = [np.int64(n), *buffers[:3], jd_buffer, *buffers[4:], y, *zeros, np.int32(n)]
    reads = [lengths_buffer, perm_buffer, jd_buffer, values_buffer, columns_buffer, x_buffer]

    def generated_args(index: str) -> list[object]:
        packed = np.array(sizes, np.int32 if index == "int" else np.int64)
        return [*reads, np.int64(0), y, *[np.int64(0)] * 3, packed]

    kernels = {name: cl.Kernel(program, name) for name in forms if name in hand_kernels}
    kernels |= {
        name: cl.Kernel(cl.Program(context, text).build(), name) for name, text in tool.items()
    }
    kernels |= {name: cl.Kernel(generated[name], name) for name in forms if name in generated}
    bases = {name: DERIVED[name][0] if name in DERIVED else name for name in forms}
    index_of = {name: GENERATED.get(bases[name], ("long", False))[0] for name in forms}
    launch_args = {name: hand if name in hand_kernels else generated_args(index_of[name])
                   for name in forms if name not in tool}  # fmt: skip
    if tool:  # every buffer at offset 0 of its own; the translated kernel's strides in P
        at = np.int64(0)
        lengths_mem, perm_mem, strides_mem = buffers[:3]
        data = [jd_buffer, values_buffer, columns_buffer, x_buffer]
        launch_args["tool_generated"] = launch_args["tool_generated_locals"] = [
            *[a for b in (lengths_mem, perm_mem, *data) for a in (b, at)],
            np.int64(0),
            y,
            at,
            *[np.int64(0)] * 3,
            np.array(sizes, np.int32),
        ]
        for name in ("signed", "elements", "raw", "jd", "unit"):
            launch_args[f"tool_generated_{name}"] = launch_args["tool_generated"]
        launch_args["tool_translated"] = launch_args["tool_translated_locals"] = [
            np.int64(n),
            lengths_mem,
            at,
            perm_mem,
            at,
            strides_mem,
            jd_buffer,
            at,
            at,
            values_buffer,
            at,
            at,
            columns_buffer,
            at,
            at,
            x_buffer,
            at,
            at,
            y,
            at,
            at,
        ]
    times: dict[str, list[float]] = {name: [] for name in forms}
    order = np.random.default_rng(1)
    for run in range(args.runs + 1):
        for name in order.permutation(forms):  # no form always after another
            event = kernels[name](queue, (n,), None, *launch_args[name])
            event.wait()
            if run:
                times[name].append((event.profile.end - event.profile.start) * 1e-9)
        if run == args.runs:
            for name in forms:  # each form's y from a y of NaNs
                cl.enqueue_fill_buffer(queue, y, np.float64(np.nan), 0, 8 * n)
                kernels[name](queue, (n,), None, *launch_args[name])
                out = np.empty(n)
                cl.enqueue_copy(queue, out, y)
                equal = bool(np.array_equal(out, expected_y))
                t = sorted(times[name])
                low, p10, median = t[0] * 1e6, t[len(t) // 10] * 1e6, statistics.median(t) * 1e6
                print(f"{name:17s} min {low:7.2f} us  p10 {p10:7.2f}  median {median:7.2f}"
                      f"  equal: {equal}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
