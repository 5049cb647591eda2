"""Fixtures of the command-line tests."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private runtime folder with a short path (a socket's path is limited), the
    server on: the folder where this test's server, if any, has its socket."""
    folder = Path(tempfile.mkdtemp(prefix="idiom-t-"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("IDIOM_SERVER", "1")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
