"""Launchers for idiom-cc and idiom-c++ that run this checkout's wrapper."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapper.launchers import write_launchers

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def launchers(tmp_path: Path) -> dict[str, Path]:
    """`idiom-cc` and `idiom-c++` shell scripts (the installed console scripts may be
    older than this checkout)."""
    folder = tmp_path / "launchers"
    folder.mkdir()
    return write_launchers(folder, ROOT)
