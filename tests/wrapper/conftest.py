"""Launchers for idiom-cc and idiom-c++ that run this checkout's wrapper."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def launchers(tmp_path: Path) -> dict[str, Path]:
    """`idiom-cc` and `idiom-c++` shell scripts (the installed console scripts may be
    older than this checkout)."""
    folder = tmp_path / "launchers"
    folder.mkdir()
    made: dict[str, Path] = {}
    for name, language in (("idiom-cc", "cc"), ("idiom-c++", "c++")):
        script = folder / name
        script.write_text(
            f'#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -m wrapper {language} "$@"\n'
        )
        script.chmod(0o755)
        made[name] = script
    return made
