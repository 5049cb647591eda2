"""The compiled search engine (matcher/native.py): in use when current, never when stale,
and detecting exactly what the plain Python modules detect."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import matcher.solver
from matcher import native

ROOT = Path(__file__).resolve().parents[2]
# One program of each family the engine's hot paths serve: stencil, sparse, dense, SYMM,
# histogram, reduction.
PROGRAMS = (
    "stencil_3d7_heat.c",
    "csr_struct.c",
    "gemm_kij_flat_float.c",
    "symm_rows.c",
    "hist_keys.c",
    "red_stats.c",
)


def test_the_compiled_engine_is_in_use() -> None:
    """The test command builds it (scripts/setup.sh): the tests run what users run."""
    if os.environ.get("IDIOM_NATIVE") == "0":
        assert not native.active()
        return
    assert native.active(), "no current build: run scripts/build_native.py (setup does)"
    for name in native.MODULES:
        module = importlib.import_module(f"matcher.{name}")
        assert Path(str(module.__file__)).suffix == ".so", name
    assert Path(str(matcher.solver.__file__)).is_relative_to(native.BUILD_FOLDER)


def test_a_build_is_used_only_with_the_stamp_of_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stamp = tmp_path / "stamp"
    monkeypatch.setattr(native, "STAMP_FILE", stamp)
    monkeypatch.setattr(native, "_STATUS", native._Status())
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delenv("IDIOM_NATIVE", raising=False)
    path: list[str] = ["sources"]
    assert not native.install(path)  # no build
    stamp.write_text("0" * 64 + "\n")
    assert not native.install(path)  # a build of other sources
    assert path == ["sources"] and not native.active()
    stamp.write_text(native.source_stamp() + "\n")
    monkeypatch.setenv("IDIOM_NATIVE", "0")
    assert not native.install(path)  # turned off
    monkeypatch.delenv("IDIOM_NATIVE")
    assert native.install(path)
    assert path == [str(native.BUILD_FOLDER / "matcher"), "sources"] and native.active()


def _detected(native_setting: str) -> list[dict[str, Any]]:
    environment = {**os.environ, "IDIOM_NATIVE": native_setting, "IDIOM_SERVER": "0"}
    command = [sys.executable, "-m", "cli.main", "detect", "--json"]
    paths = [str(ROOT / "corpus" / name) for name in PROGRAMS]
    result = subprocess.run(
        [*command, *paths], cwd=ROOT, env=environment, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    files = json.loads(result.stdout)
    for file in files:
        del file["seconds"]
    return files  # type: ignore[no-any-return]  # json


def test_compiled_and_plain_engines_detect_the_same() -> None:
    assert native.build_is_current(), "no current build: run scripts/build_native.py"
    compiled, plain = _detected("1"), _detected("0")
    assert compiled == plain
    assert sum(len(file["instances"]) for file in compiled) >= len(PROGRAMS)
