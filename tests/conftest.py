"""Shared helpers: compile small C/C++/IR snippets into the IR model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from matcher.frontend import compile_to_ir
from matcher.ir import Module
from matcher.ir_builder import build_module

ROOT = Path(__file__).resolve().parents[1]

BuildModule = Callable[..., Module]


@pytest.fixture
def build(tmp_path: Path) -> BuildModule:
    """build(source_text, suffix='.c') -> Module, through the real front end."""

    def _build(source: str, suffix: str = ".c") -> Module:
        path = tmp_path / f"input{suffix}"
        path.write_text(source)
        return build_module(compile_to_ir(path), str(path))

    return _build
