"""`idiom detect`: a loop is placed in the file its lines are in, as `accelerate --report`
places it."""

from __future__ import annotations

import json
from pathlib import Path

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
    (row,) = [line for line in table.stdout.splitlines() if "Reduction" in line]
    assert [cell.strip() for cell in row.split("│")][1:4] == ["kernel.h", "total", "3-4"]
    (entry,) = json.loads(idiom("detect", "--json", str(unit)).stdout)
    (found,) = entry["instances"]
    assert (found["file"], found["source_file"]) == (str(unit), str(tmp_path / "kernel.h"))
