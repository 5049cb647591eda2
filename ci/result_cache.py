"""Per-unit results kept on disk, so that checking an unchanged tree costs a preprocessing
of each unit and nothing else.

A unit's key hashes what its result depends on: the preprocessed source (`clang-22 -E`
with the unit's flags, run from its folder: every header's text is in it), the flags, the
idiom library (`library_key`) and the code of the analysis and mapping packages
(`code_digest`). Entries are JSON under `cache_dir()/check/`, written to a private
temporary file and renamed into place; an entry that cannot be read back is ignored and
rebuilt. A unit clang rejects is stored too, with its diagnostics. This module imports
neither LLVM nor the library nor the mappers.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

from ci.findings import UnitResult
from ci.units import Unit, is_ir
from idl.errors import IdiomError
from matcher.frontend import find_tool
from matcher.library_cache import cache_dir, code_digest, library_key

__all__ = ["ANALYSIS_CODE", "COMPILER_FAILED", "ResultCache"]

FORMAT = "idiom-check-1"
ANALYSIS_CODE = ("idl", "matcher", "mappers", "ci")
# What the front end's message for a unit clang rejects contains (matcher/frontend.py).
COMPILER_FAILED = ": clang-22 failed:\n"
# Entries kept: the newest, pruned when a run has written new ones.
KEEP = 5000


class ResultCache:
    """The cache of one run: `folder` None when caching is off or unusable."""

    def __init__(self, folder: Path | None, idiom_dirs: tuple[str, ...] = ()) -> None:
        self.folder = folder / "check" if folder is not None else None
        self.idiom_dirs = idiom_dirs
        self.written = 0

    @staticmethod
    def for_run(enabled: bool, idiom_dirs: tuple[str, ...] = ()) -> ResultCache:
        return ResultCache(cache_dir() if enabled else None, idiom_dirs)

    def key(self, unit: Unit) -> str | UnitResult | None:
        """The unit's key; None when caching is off; the unit's error result when it does
        not preprocess (a missing header, a malformed directive: clang's own message)."""
        if self.folder is None:
            return None
        content = _unit_content(unit)
        if isinstance(content, UnitResult):
            return content
        digest = hashlib.sha256(FORMAT.encode())
        for part in (
            _static_key(self.idiom_dirs),
            unit.driver,
            str(unit.source),
            str(unit.directory),
            "\0".join(unit.flags),
        ):
            digest.update(part.encode() + b"\0")
        digest.update(content)
        return digest.hexdigest()

    def get(self, key: str | None) -> UnitResult | None:
        if key is None or self.folder is None:
            return None
        entry = self.folder / f"{key}.json"
        try:
            data = json.loads(entry.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:
                return None
            result = UnitResult.from_json(data["result"])
        except FileNotFoundError:
            return None
        except Exception:  # a corrupt entry of any kind is rebuilt, never trusted
            return None
        with contextlib.suppress(OSError):
            os.utime(entry)  # recently used: kept by `prune`
        return result

    def put(self, key: str | None, result: UnitResult) -> None:
        """Store a result. Of errors, only the compiler's diagnostics are stored (they follow
        from what the key covers); others (a tool missing, a crash) are found afresh."""
        if key is None or self.folder is None:
            return
        if result.error is not None and COMPILER_FAILED not in result.error:
            return
        text = json.dumps({"format": FORMAT, "result": result.to_json()})
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(
                "w", encoding="utf-8", dir=self.folder, prefix=".entry-", delete=False
            ) as stream:
                stream.write(text)
            os.replace(stream.name, self.folder / f"{key}.json")
            self.written += 1
        except OSError:
            with contextlib.suppress(OSError, NameError):
                os.unlink(stream.name)

    def prune(self, keep: int = KEEP) -> None:
        if self.folder is None or not self.written:
            return
        entries = sorted(self.folder.glob("*.json"), key=_modified, reverse=True)
        for old in entries[keep:]:
            with contextlib.suppress(OSError):
                old.unlink()


@functools.cache
def _static_key(idiom_dirs: tuple[str, ...]) -> str:
    """What every unit's result depends on besides its own text: the library and the
    code of the packages that analyse and map."""
    return f"{library_key(idiom_dirs)} {code_digest(ANALYSIS_CODE)}"


def _unit_content(unit: Unit) -> bytes | UnitResult:
    """The preprocessed source (an IR file's own bytes), or the unit's error."""
    source = str(unit.source)
    try:
        if is_ir(unit.source):
            return unit.source.read_bytes()
        command = [find_tool(unit.driver), *unit.flags, "-E", source]
        done = subprocess.run(command, cwd=unit.directory, capture_output=True, check=False)
    except IdiomError as error:
        return UnitResult(source, error=str(error))
    except OSError as error:
        return UnitResult(source, error=f"{source}: {error.strerror or error}")
    if done.returncode != 0:
        diagnostics = done.stderr.decode(errors="replace").strip()
        return UnitResult(source, error=f"{source}{COMPILER_FAILED}{diagnostics}")
    return done.stdout


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
