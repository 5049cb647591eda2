"""The compiled library on disk: found again, never stale, never trusted when damaged."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from idl.library import DEFAULT_FOLDER, Library
from idl.program import Program
from matcher import library_cache
from matcher.detect import detect_module
from matcher.frontend import compile_to_ir
from matcher.ir_builder import build_module
from matcher.library_cache import library_key, load_programs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def idioms(tmp_path: Path) -> Path:
    """A private copy of the shipped library, to edit."""
    folder = tmp_path / "idioms"
    shutil.copytree(DEFAULT_FOLDER, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return folder


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(folder))
    return folder


def _builder(folder: Path, calls: list[int]) -> Callable[[], list[Program]]:
    def build() -> list[Program]:
        calls.append(1)
        return Library.from_paths([folder]).exported_programs()

    return build


def test_second_load_reads_the_entry_and_gives_equal_programs(idioms: Path, cache: Path) -> None:
    calls: list[int] = []
    first = load_programs((str(idioms),), _builder(idioms, calls))
    assert calls == [1]
    assert len(list(cache.glob("library-*.pickle"))) == 1
    second = load_programs((str(idioms),), _builder(idioms, calls))
    assert calls == [1], "the second load must come from the cache"
    assert [p.name for p in second] == [p.name for p in first]
    assert [p.formula for p in second] == [p.formula for p in first]


def test_an_edited_idl_file_gives_another_key(idioms: Path, cache: Path) -> None:
    before = library_key((str(idioms),))
    spec = idioms / "histogram.idl"
    spec.write_text(spec.read_text() + "\n# a comment\n")
    assert library_key((str(idioms),)) != before
    assert library_key(()) != before  # the search path is part of the key too


def test_a_damaged_entry_is_rebuilt(idioms: Path, cache: Path) -> None:
    calls: list[int] = []
    load_programs((str(idioms),), _builder(idioms, calls))
    (entry,) = cache.glob("library-*.pickle")
    entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])
    programs = load_programs((str(idioms),), _builder(idioms, calls))
    assert calls == [1, 1]
    assert programs
    load_programs((str(idioms),), _builder(idioms, calls))
    assert calls == [1, 1], "the rebuilt entry is whole again"


def test_off_when_empty_or_open_to_others(
    idioms: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IDIOM_CACHE_DIR", "")
    assert library_cache.cache_dir() is None
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(shared))
    assert library_cache.cache_dir() is None
    calls: list[int] = []
    load_programs((str(idioms),), _builder(idioms, calls))
    load_programs((str(idioms),), _builder(idioms, calls))
    assert calls == [1, 1]
    assert not list(shared.iterdir())


def test_detection_with_cached_programs_equals_fresh(idioms: Path, cache: Path) -> None:
    calls: list[int] = []
    load_programs((str(idioms),), _builder(idioms, calls))
    cached = load_programs((str(idioms),), _builder(idioms, calls))
    fresh = Library.from_paths([idioms]).exported_programs()
    program = ROOT / "corpus" / "csr_struct.c"
    module = build_module(compile_to_ir(program), str(program))
    found = detect_module(module, cached).instances
    expected = detect_module(module, fresh).instances
    assert found, "the program has idioms"
    assert [(i.idiom, i.function, i.lines) for i in found] == [
        (i.idiom, i.function, i.lines) for i in expected
    ]


_WRITER = """
import sys
from idl.library import Library
from matcher.library_cache import load_programs
folder = sys.argv[1]
for _ in range(20):
    programs = load_programs((folder,), lambda: Library.from_paths([folder]).exported_programs())
    assert [p.name for p in programs] == ["Tiny"], programs
"""


def test_concurrent_runs_each_read_a_whole_entry(tmp_path: Path, cache: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.idl").write_text(
        "Export Constraint Tiny ( {x} is an argument and {y} is an argument ) End\n"
    )
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(folder)], cwd=ROOT) for _ in range(4)
    ]
    assert [w.wait(timeout=300) for w in writers] == [0, 0, 0, 0]
    assert len(list(cache.glob("library-*.pickle"))) == 1
    assert not list(cache.glob(".library-*")), "no temporary file left behind"
