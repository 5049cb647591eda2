"""Shared helpers: compile small C/C++/IR snippets into the IR model."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from matcher.frontend import compile_to_ir
from matcher.ir import Module
from matcher.ir_builder import build_module

if TYPE_CHECKING:
    from lift.exploration.device import Device

ROOT = Path(__file__).resolve().parents[1]

# The tool's caches (matcher/library_cache.py) go to a folder of the test runs, shared by
# the workers and by the `idiom` processes the tests start, never to the user's own.
os.environ["IDIOM_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / f"idiom-tests-{os.getuid()}")
# Every `idiom` process a test starts runs on its own: no warm server (cli/server.py) is
# started or used, except by the server's own tests.
os.environ["IDIOM_SERVER"] = "0"

BuildModule = Callable[..., Module]


@pytest.fixture
def build(tmp_path: Path) -> BuildModule:
    """build(source_text, suffix='.c') -> Module, through the real front end."""

    def _build(source: str, suffix: str = ".c") -> Module:
        path = tmp_path / f"input{suffix}"
        path.write_text(source)
        return build_module(compile_to_ir(path), str(path))

    return _build


@pytest.fixture(scope="module")
def device() -> Device:
    """The OpenCL device kernels are run on in tests: PoCL's CPU device (skipped where
    pyopencl or an OpenCL platform is missing; scripts/setup.sh installs both)."""
    devices = pytest.importorskip("lift.exploration.device")  # imports pyopencl
    try:
        return devices.open_device("cpu")  # type: ignore[no-any-return]
    except Exception as error:  # no OpenCL platform here
        pytest.skip(f"no OpenCL device: {error}")


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private runtime folder with a short path (a socket's path is limited), the
    server on: the folder where this test's server, if any, has its socket."""
    folder = Path(tempfile.mkdtemp(prefix="idiom-t-"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("IDIOM_SERVER", "1")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
