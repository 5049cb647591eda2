"""`idiom detect`: a loop is placed in the file its lines are in, as `accelerate --report`
places it."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from cli.detect_cmd import print_table
from tests.cli.test_cli_errors import idiom

HEADER = """\
static double total(const double *a, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
"""
UNIT = '#include "kernel.h"\ndouble use(const double *a, int n) { return total(a, n); }\n'


def test_a_kernel_from_a_header_is_shown_in_the_header(tmp_path: Path) -> None:
    (tmp_path / "kernel.h").write_text(HEADER)
    unit = tmp_path / "unit.c"
    unit.write_text(UNIT)
    table = idiom("detect", str(unit))
    assert table.returncode == 0, table.stderr
    header, row = table.stdout.splitlines()[:2]
    assert header.split() == ["file", "function", "line", "idiom", "note", "facts"]
    assert row.split()[:4] == ["kernel.h", "total", "3-4", "Reduction"]
    (entry,) = json.loads(idiom("detect", "--json", str(unit)).stdout)
    (found,) = entry["instances"]
    assert (found["file"], found["source_file"]) == (str(unit), str(tmp_path / "kernel.h"))


def test_the_table_keeps_long_names_whole_and_prints_messages_as_they_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    long_name = "a_function_name_much_longer_than_a_terminal_column_would_leave_" * 2
    found = SimpleNamespace(
        source_file="/x/k.c",
        function=long_name,
        lines="3-4",
        idiom="Reduction",
        within="",
        facts=(("bounds", "0 .. n"), ("type", "double")),
    )
    cut = SimpleNamespace(message="search cut short [budget] in f")
    result = SimpleNamespace(path="/x/k.c", instances=(found,), error=None, cut_short=(cut,))
    print_table([result])  # type: ignore[list-item]
    header, row, count, warning = capsys.readouterr().out.splitlines()
    assert row.split()[:4] == ["k.c", long_name, "3-4", "Reduction"]
    assert row.endswith("bounds: 0 .. n; type: double")
    assert header.index("facts") == row.index("bounds")  # columns aligned
    assert count == "1 idiom instance(s) in 1 file(s)"
    assert warning == "warning: k.c: search cut short [budget] in f"
