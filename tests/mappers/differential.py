"""What the differential tests share: a test program built twice (clang -O2 and idiom
accelerate), and a run of either binary with extra environment."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from mappers.accelerate import Accelerated, accelerate
from matcher.frontend import CompileOptions, find_tool


def build_pair(program: Path, folder: Path) -> tuple[Path, Path, Accelerated]:
    """The original and the accelerated binary of `program` in `folder`, and the report."""
    original, accelerated = folder / "original", folder / "accelerated"
    subprocess.run(
        [find_tool("clang"), "-O2", str(program), "-o", str(original), "-lm"], check=True
    )
    report = accelerate([program], accelerated, CompileOptions())
    return original, accelerated, report


def run_binary(
    binary: Path, args: list[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(binary), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, **env},
    )
