"""Files to check: folders searched recursively for C/C++ sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from ci.units import discover, units_from_paths


def test_folders_are_searched_recursively(tmp_path: Path) -> None:
    for name in ("a.c", "sub/b.cpp", "sub/deeper/c.cc", "notes.txt", ".git/d.c", "sub/e.h"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found = discover([tmp_path, tmp_path / "a.c"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "a.c",
        "sub/b.cpp",
        "sub/deeper/c.cc",
    ]


def test_units_from_paths_are_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.c").write_text("")
    monkeypatch.chdir(tmp_path)
    (unit,) = units_from_paths([Path("a.c")], ["-DX"])
    assert (unit.source, unit.directory, unit.flags, unit.driver) == (
        tmp_path / "a.c",
        tmp_path,
        ("-DX",),
        "clang",
    )
