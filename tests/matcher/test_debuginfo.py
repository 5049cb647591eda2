"""Source files as the user named them, whatever folder clang wrote them against."""

from __future__ import annotations

from pathlib import Path

import pytest

from matcher.debuginfo import DebugInfo
from matcher.frontend import CompileOptions
from matcher.pipeline import analyse_file
from tests.matcher.inlined_programs import SQUARES_IN_MAIN

KERNEL_HEADER = """\
static double kern(const double *a, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
"""
USES_HEADER = '#include "k.h"\ndouble use(const double *a, int n) { return kern(a, n); }\n'


def metadata(filename: str, directory: str) -> str:
    """A location (!3) in a function of the file clang names `filename` in `directory`."""
    return (
        f'!1 = !DIFile(filename: "{filename}", directory: "{directory}")\n'
        '!2 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1)\n'
        "!3 = !DILocation(line: 4, column: 2, scope: !2)\n"
    )


def file_of(text: str, source: str) -> str:
    location = DebugInfo(text, source).location(3)
    assert location is not None
    return location.file


def test_the_translation_unit_keeps_the_users_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    unit = tmp_path / "src" / "k.c"
    # clang shortens a path under its working folder, or under the file's own folder.
    assert file_of(metadata("src/k.c", str(tmp_path)), str(unit)) == str(unit)
    assert file_of(metadata("k.c", str(unit.parent)), str(unit)) == str(unit)
    assert file_of(metadata(str(unit), str(tmp_path)), "src/../src/k.c") == "src/../src/k.c"


def test_other_files_follow_the_units_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    header = metadata("k.h", str(tmp_path / "src"))
    assert file_of(header, str(tmp_path / "src" / "k.c")) == str(tmp_path / "src" / "k.h")
    assert file_of(header, "../src/k.c") == "../src/k.h"
    # IR compiled in a folder of its own: its relative names are resolved there, and a
    # path with nothing but the root in common with the working folder stays absolute.
    assert file_of(metadata("k.h", str(tmp_path / "build")), "k.ll") == "../build/k.h"
    assert file_of(metadata("k.h", "/elsewhere/build"), "k.ll") == "/elsewhere/build/k.h"
    assert file_of(metadata("k.h", ""), "k.ll") == "k.h"


def source_files(path: str) -> set[str]:
    result = analyse_file(path, CompileOptions())
    assert result.error is None and result.instances
    return {str(instance.to_json()["source_file"]) for instance in result.instances}


def test_detect_names_a_file_outside_the_working_folder_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "squares.c").write_text(SQUARES_IN_MAIN)
    (tmp_path / "k.h").write_text(KERNEL_HEADER)
    (tmp_path / "use.c").write_text(USES_HEADER)
    monkeypatch.chdir(tmp_path / "sub")
    assert source_files(str(tmp_path / "squares.c")) == {str(tmp_path / "squares.c")}
    assert source_files("../squares.c") == {"../squares.c"}
    assert source_files(str(tmp_path / "use.c")) == {str(tmp_path / "k.h")}
    assert source_files("../use.c") == {"../k.h"}
