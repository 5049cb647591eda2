"""The corpus markers: `// expect: Kind in function`, with `(in place)` for a stencil
sweeping in place, which eval matches only against an instance marked so."""

from __future__ import annotations

from pathlib import Path

import pytest

from matcher.detect import IN_PLACE, Instance
from matcher.evaluate import score_program
from matcher.expectations import ExpectationError, read_program

SOURCE = """// corpus: two sweeps
// args: test=4 bench=8
void sweeps(double *u, double *v, int n) {
    for (int i = 1; i < n - 1; i++)   // expect: Stencil in sweeps (in place)
        u[i] = 0.5 * (u[i - 1] + u[i + 1]);
    for (int i = 1; i < n - 1; i++)   // expect: Stencil in sweeps
        v[i] = 0.5 * (u[i - 1] + u[i + 1]);
}
"""


def _instance(line: int, *, in_place: bool) -> Instance:
    facts = ((IN_PLACE, "reads what other points write (line 5)"),) if in_place else ()
    return Instance("Stencil", "sweeps", "sweeps", "s.c", "s.c", line, line, line + 1, {},
                    facts=facts)  # fmt: skip


def test_in_place_markers_are_read_and_matched(tmp_path: Path) -> None:
    path = tmp_path / "s.c"
    path.write_text(SOURCE)
    program = read_program(path)
    assert [(e.line, e.in_place) for e in program.expected] == [(4, True), (6, False)]
    right = score_program(program, [_instance(4, in_place=True), _instance(6, in_place=False)])
    assert right.perfect
    swapped = score_program(program, [_instance(4, in_place=False), _instance(6, in_place=True)])
    assert [e.line for e in swapped.misses] == [4, 6]
    assert [i.line for i in swapped.false_positives] == [4, 6]


def test_a_line_may_carry_several_markers(tmp_path: Path) -> None:
    path = tmp_path / "m.c"
    path.write_text(
        "// corpus: one loop, two statements\n// args: test=4 bench=8\n"
        "void f(double *s, const double *x, int n) {\n"
        "    for (int i = 0; i < n; i++)   // expect-none: Stencil; expect: Map in f\n"
        "        s[i] = x[i] * x[i];\n}\n"
    )
    program = read_program(path)
    assert [(e.kind, e.function, e.line) for e in program.expected] == [("Map", "f", 4)]
    assert [(e.kind, e.line) for e in program.expectations if not e.present] == [("Stencil", 4)]


def test_an_unreadable_marker_among_several_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.c"
    path.write_text(
        "// corpus: x\n// args: test=4 bench=8\n"
        "void f(void) {\n    for (;;) {}   // expect: Map in f; expect Stencil\n}\n"
    )
    with pytest.raises(ExpectationError, match=r"bad\.c:4: unreadable expectation marker"):
        read_program(path)
