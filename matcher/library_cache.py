"""The compiled idiom library, kept on disk between runs.

Parsing the `.idl` files and compiling their exported specifications to the solver's form
takes seconds, on every invocation; the result depends only on the `.idl` texts, the
folders they were found in and the code that compiles them. So it is stored, pickled,
under a name that is the hash of all three (`library_key`), in a private folder
(`cache_dir`): a later run with the same key loads it in a fraction of that time.

Rules, so that a cache can only save time, never change an answer:
- the key covers everything the programs depend on: a changed `.idl` file, search path
  or compiler module gives another key, so a stale entry is never found;
- an entry is written to a private temporary file and renamed into place: concurrent runs
  each write a whole entry, and a reader sees an old one or a new one, never half;
- an entry that cannot be read back (truncated, corrupt, another format) is ignored and
  rebuilt; the folder must be the user's own and closed to others, since unpickling runs
  code; otherwise nothing is cached.

`IDIOM_CACHE_DIR` names the folder (default `$XDG_CACHE_HOME/idiom`, else
`~/.cache/idiom`); `IDIOM_CACHE_DIR=` (empty) turns the cache off.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import pickle
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from idl.files import DEFAULT_FOLDER, idl_files
from matcher import native

if TYPE_CHECKING:
    from idl.program import Program
    from matcher.solver_program import CompiledProgram

__all__ = ["cache_dir", "code_digest", "library_key", "load_programs"]

# Bumped when the pickled layout changes in a way the code digest would not show.
FORMAT = b"idiom-library-1"

# Library entries kept in the folder: the newest ones.
KEEP = 4

_ROOT = Path(__file__).resolve().parents[1]
# The code whose output is cached: the IDL front end and compiler, and the solver's form.
_COMPILER_CODE = ("idl", "matcher")


def cache_dir() -> Path | None:
    """The cache folder, created private to the user; None when caching is off or the
    folder is unusable (not ours, or open to others)."""
    configured = os.environ.get("IDIOM_CACHE_DIR")
    if configured == "":
        return None
    if configured is not None:
        folder = Path(configured)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = Path(base) / "idiom"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return folder


def code_digest(packages: Iterable[str] = _COMPILER_CODE) -> str:
    """A hash of the source of `packages` (each `.py` and `.lark` file, by content)."""
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted((_ROOT / package).rglob("*")):
            if path.suffix in (".py", ".lark") and path.is_file():
                digest.update(str(path.relative_to(_ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def library_key(idiom_dirs: tuple[str, ...] = ()) -> str:
    """What the compiled library depends on, hashed: the tool's code, the search paths
    (as given, and resolved) and every `.idl` file's name and text."""
    digest = hashlib.sha256(FORMAT)
    digest.update(f"python {sys.version_info[:2]}".encode())
    digest.update(code_digest().encode())
    digest.update(f"native {native.active()}".encode())  # compiled engine or not
    folders = idiom_dirs or (str(DEFAULT_FOLDER),)
    for folder in folders:
        digest.update(f"path {folder} {Path(folder).resolve()}\n".encode())
    for path in idl_files(folders):
        digest.update(f"file {path}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def load_programs(idiom_dirs: tuple[str, ...], build: Callable[[], list[Program]]) -> list[Program]:
    """The exported programs of the library at `idiom_dirs`, compiled to the solver's form:
    from the cache when an entry with their key is there, else from `build()` (which
    raises the library's errors as usual), stored for the next run."""
    folder = cache_dir()
    if folder is None:
        return _compiled(build())
    key = library_key(idiom_dirs)
    entry = folder / f"library-{key[:32]}.pickle"
    cached = _read(entry)
    if cached is not None:
        return cached
    from matcher.solver_program import compile_program

    programs = _compiled(build())
    _write(entry, [compile_program(p) for p in programs])
    return programs


def _compiled(programs: list[Program]) -> list[Program]:
    from matcher.solver_program import compile_program

    for program in programs:
        compile_program(program)
    return programs


def _read(entry: Path) -> list[Program] | None:
    from matcher.solver_program import CompiledProgram, adopt_compiled

    try:
        with entry.open("rb") as stream:
            if stream.read(len(FORMAT)) != FORMAT:
                return None
            compiled = _unpickled(stream)
    except FileNotFoundError:
        return None
    except Exception:  # a corrupt entry of any kind is rebuilt, never trusted
        return None
    if not isinstance(compiled, list) or not all(isinstance(c, CompiledProgram) for c in compiled):
        return None
    with contextlib.suppress(OSError):
        os.utime(entry)  # recently used: kept by `_prune`
    return [adopt_compiled(c) for c in compiled]


def _prune(folder: Path, keep: int = KEEP) -> None:
    """All but the `keep` newest library entries removed (each key's entry is large; old
    keys are those of edited libraries). A run still reading one keeps its open file."""
    entries = sorted(folder.glob("library-*.pickle"), key=_modified, reverse=True)
    for old in entries[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _unpickled(stream: BinaryIO) -> object:
    """One pickle, with the cyclic collector paused: it would otherwise scan the growing
    heap over and over while hundreds of thousands of objects are made."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.load(stream)
    finally:
        if enabled:
            gc.enable()


def _write(entry: Path, compiled: list[CompiledProgram]) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))  # the formulas nest deeply
    try:
        with tempfile.NamedTemporaryFile(
            dir=entry.parent, prefix=".library-", delete=False
        ) as stream:
            stream.write(FORMAT)
            pickle.dump(compiled, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(stream.name, entry)
        _prune(entry.parent)
    except (OSError, pickle.PicklingError, RecursionError):
        with contextlib.suppress(OSError, NameError):
            os.unlink(stream.name)
    finally:
        sys.setrecursionlimit(limit)
