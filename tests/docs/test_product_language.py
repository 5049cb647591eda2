"""The repository speaks of the product: no history of how it was built.

Dated measurements live in `docs/results/` under dated or descriptive names, and the
docs cite them; nothing names the work sessions that produced them.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = (
    "README.md",
    "docs",
    "idl",
    "matcher",
    "mappers",
    "measure",
    "cli",
    "fuzz",
    "benchmarks",
    "scripts",
    "corpus",
    "tests",
)
# "session 8", "Session8", "sessions 5-7", "session_6", "this session", "last session".
HISTORY = re.compile(
    r"(?<![a-z])sessions?[ _-]*\d|\b(?:this|last|previous|next|earlier|later) session\b",
    re.IGNORECASE,
)
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()


def tracked_files() -> list[str]:
    """The tracked files under the scanned paths (every file there, outside a checkout)."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--", *SCANNED],
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        return [name for name in listed.stdout.decode().split("\0") if name]
    return [
        path.relative_to(ROOT).as_posix()
        for top in SCANNED
        for path in ([ROOT / top] if (ROOT / top).is_file() else (ROOT / top).rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    ]


def history_mentions(name: str, text: str) -> list[str]:
    return [
        f"{name}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), 1)
        if HISTORY.search(line)
    ]


def test_the_scan_sees_the_repository() -> None:
    files = tracked_files()
    assert "README.md" in files and "tests/conftest.py" in files
    assert any(name.startswith("docs/results/") for name in files)


def test_no_file_is_named_after_a_session() -> None:
    assert [name for name in tracked_files() if "session" in Path(name).name.lower()] == []


def test_no_text_tells_which_session_built_it() -> None:
    found: list[str] = []
    for name in tracked_files():
        if name == THIS_FILE:
            continue  # its patterns would match themselves
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue  # binary (bitcode, images), or deleted but not yet committed
        found += history_mentions(name, text)
    assert found == []


def test_the_pattern_tells_history_from_product_words() -> None:
    for history in (
        "see session 8",
        "Session8:",
        "sessions 5-7",
        "in this session's run",
        "cpu_2core_session5_gemm.json",
        "the last session",
    ):
        assert history_mentions("x", history), history
    for product in ("once per test session", "an OpenCL session", "the pre-commit session"):
        assert not history_mentions("x", product), product
