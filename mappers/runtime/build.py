"""Compile the C runtime (`mappers/runtime/*.c`) on demand, into a per-user cache.

The runtime is built with clang-22 against the OpenBLAS of the `scipy-openblas32` wheel and
the system's OpenCL ICD loader. Objects, a static archive of them and a shared library land in
`<cache>/runtime/<key>/`, where `<cache>` is `$IDIOM_CACHE_DIR`, else `$XDG_CACHE_HOME/idiom`,
else `~/.cache/idiom`, and `<key>` hashes the sources, the compiler's version, the flags and
the OpenBLAS it builds against: a change to any of them builds afresh, next to the old build.
A build happens in a private temporary folder renamed into place, so concurrent builders never
see a half-written runtime (the loser of a race uses the winner's).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from idl.errors import IdiomError
from matcher.frontend import find_tool

__all__ = [
    "RUNTIME_DIR",
    "RuntimeBuildError",
    "RuntimeLibrary",
    "cache_root",
    "cblas_program_args",
    "runtime_library",
    "shared_runtime",
]

RUNTIME_DIR = Path(__file__).resolve().parent
"""The runtime's sources; `idiom_runtime.h` there is the header a caller includes."""

_SOURCES = (
    "idiom_runtime.c",
    "idiom_blas.c",
    "idiom_opencl.c",
    "idiom_resident.c",
    "idiom_guard.c",
    "idiom_cache.c",
    "idiom_rows.c",
    "idiom_scan.c",
    "idiom_policy.c",
    "idiom_memo.c",
    "idiom_watch.c",
    "idiom_tune.c",
)
_HEADERS = (
    "idiom_runtime.h",
    "idiom_internal.h",
    "idiom_resident.h",
    "idiom_policy.h",
    "idiom_memo.h",
    "idiom_watch.h",
    "idiom_tune.h",
)
_SHARED_NAME = "libidiom_runtime.so"
_ARCHIVE_NAME = "libidiom_runtime.a"
# No -Werror: a newer compiler's new warning must not stop a user's build (tests use it).
_CFLAGS = ("-std=c11", "-O2", "-fPIC", "-Wall", "-Wextra")
_DEFAULT_BLAS_PREFIX = "scipy_"


class RuntimeBuildError(IdiomError):
    """The runtime could not be built: a missing tool or library, or a failed compile."""


@dataclass(frozen=True)
class RuntimeLibrary:
    """What a link step needs to link a program against the runtime."""

    archive: Path
    """The runtime as a static archive, to pass to the linker after the program's objects:
    the linker takes only the members the program calls into, so a program without GEMM or
    GEMV gets neither the BLAS member nor OpenBLAS (whose threads start when it is loaded)."""
    link_args: tuple[str, ...]
    """Libraries the runtime may need (OpenBLAS with an rpath, OpenCL, pthread, libm), each
    kept only if a member taken from the archive uses it (`--as-needed`)."""
    library_dirs: tuple[Path, ...]
    """Folders an `LD_LIBRARY_PATH` would need where the rpath does not hold (OpenBLAS)."""


@dataclass(frozen=True)
class _OpenBlas:
    include_dir: Path
    lib_dir: Path
    library: str
    prefix: str
    version: str


def cache_root() -> Path:
    """The per-user cache folder of the tool (the runtime goes into its `runtime/`)."""
    for variable, tail in (("IDIOM_CACHE_DIR", ()), ("XDG_CACHE_HOME", ("idiom",))):
        value = os.environ.get(variable)
        if value:
            return Path(value).joinpath(*tail)
    return Path.home() / ".cache" / "idiom"


def runtime_library() -> RuntimeLibrary:
    """The runtime, built if needed, as objects plus the link arguments they need."""
    folder = _built(cache_root() / "runtime")
    blas = _openblas()
    return RuntimeLibrary(
        archive=folder / _ARCHIVE_NAME,
        link_args=_link_args(blas),
        library_dirs=(blas.lib_dir,),
    )


# The CBLAS routines a hand-written program may call by their plain names (corpus/direct/).
_CBLAS_NAMES = (
    "cblas_sgemm",
    "cblas_dgemm",
    "cblas_sgemv",
    "cblas_dgemv",
    "cblas_sger",
    "cblas_dger",
    "cblas_ssyrk",
    "cblas_dsyrk",
    "cblas_ssyr2k",
    "cblas_dsyr2k",
    "cblas_ssymm",
    "cblas_dsymm",
    "cblas_strmm",
    "cblas_dtrmm",
    "cblas_strsv",
    "cblas_dtrsv",
)


def cblas_program_args() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Compile and link arguments for a program that calls CBLAS itself (`#include
    <cblas.h>`, `cblas_dgemm`, ...) against the runtime's OpenBLAS: its header folder, each
    plain name defined as the wheel's prefixed one, and the library with an rpath."""
    blas = _openblas()
    renames = tuple(f"-D{name}={blas.prefix}{name}" for name in _CBLAS_NAMES)
    compile_args = (f"-I{blas.include_dir}", *renames)
    link_args = (f"-L{blas.lib_dir}", f"-l{blas.library}", f"-Wl,-rpath,{blas.lib_dir}", "-lm")
    return compile_args, link_args


def shared_runtime() -> Path:
    """The runtime as a shared library (linked like a program would be), for ctypes users."""
    return _built(cache_root() / "runtime") / _SHARED_NAME


def _object_name(source: str) -> str:
    return Path(source).with_suffix(".o").name


def _link_args(blas: _OpenBlas) -> tuple[str, ...]:
    return (
        "-Wl,--as-needed",
        f"-L{blas.lib_dir}",
        f"-l{blas.library}",
        f"-Wl,-rpath,{blas.lib_dir}",
        "-lOpenCL",
        "-lpthread",
        "-lm",
        "-Wl,--no-as-needed",
    )


@cache
def _openblas() -> _OpenBlas:
    try:
        import scipy_openblas32 as wheel  # type: ignore[import-untyped]  # noqa: PLC0415
    except ImportError as error:
        raise RuntimeBuildError(
            "the runtime needs OpenBLAS from the scipy-openblas32 wheel: "
            "pip install scipy-openblas32"
        ) from error
    # The wheel prefixes every symbol; its pkg-config text says with what.
    found = re.search(r"-DBLAS_SYMBOL_PREFIX=(\w+)", wheel.get_pkg_config())
    return _OpenBlas(
        include_dir=Path(wheel.get_include_dir()),
        lib_dir=Path(wheel.get_lib_dir()),
        library=wheel.get_library(),
        prefix=found.group(1) if found else _DEFAULT_BLAS_PREFIX,
        version=getattr(wheel, "__version__", "unknown"),
    )


@cache
def _clang() -> tuple[str, str]:
    """The clang-22 path and its version text (part of the cache key)."""
    clang = _tool("clang")
    version = _run([clang, "--version"], "clang-22 --version failed").stdout
    return clang, version


def _tool(name: str) -> str:
    try:
        return find_tool(name)
    except IdiomError as error:
        raise RuntimeBuildError(f"cannot build the idiom runtime: {error}") from error


def _compile_flags(blas: _OpenBlas) -> list[str]:
    return [*_CFLAGS, f"-I{blas.include_dir}", f"-DIDIOM_BLAS_PREFIX={blas.prefix}"]


def _build_key(clang_version: str, blas: _OpenBlas) -> str:
    digest = hashlib.sha256()
    for name in (*_SOURCES, *_HEADERS):
        digest.update(name.encode() + b"\0" + (RUNTIME_DIR / name).read_bytes() + b"\0")
    digest.update(clang_version.encode() + b"\0")
    digest.update("\0".join(_compile_flags(blas) + list(_link_args(blas))).encode())
    digest.update(f"\0{blas.version}\0".encode())
    digest.update((blas.include_dir / "cblas.h").read_bytes())
    return digest.hexdigest()[:24]


def _complete(folder: Path) -> bool:
    names = [_object_name(source) for source in _SOURCES] + [_SHARED_NAME, _ARCHIVE_NAME]
    return all((folder / name).is_file() for name in names)


@cache
def _built(root: Path) -> Path:
    """The folder holding a complete build of the runtime under `root`, built if needed."""
    clang, version = _clang()
    blas = _openblas()
    final = root / _build_key(version, blas)
    if _complete(final):
        return final
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".build-", dir=root))  # private (0700)
    except OSError as error:
        raise RuntimeBuildError(f"cannot create the runtime cache in {root}: {error}") from error
    try:
        _compile_into(staging, clang, blas)
        if final.exists() and not _complete(final):
            shutil.rmtree(final, ignore_errors=True)  # a damaged earlier build
        try:
            staging.rename(final)
        except OSError:
            if not _complete(final):  # not a lost race: a real failure
                raise
    except OSError as error:
        raise RuntimeBuildError(f"cannot store the runtime in {final}: {error}") from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return final


def _compile_into(folder: Path, clang: str, blas: _OpenBlas) -> None:
    flags = _compile_flags(blas)
    objects: list[str] = []
    for source in _SOURCES:
        target = folder / _object_name(source)
        _run(
            [clang, *flags, "-c", str(RUNTIME_DIR / source), "-o", str(target)],
            f"cannot compile the idiom runtime ({source})",
        )
        objects.append(str(target))
    _run(
        [_tool("llvm-ar"), "rcs", str(folder / _ARCHIVE_NAME), *objects],
        "cannot archive the idiom runtime",
    )
    _run(
        [clang, "-shared", *objects, *_link_args(blas), "-o", str(folder / _SHARED_NAME)],
        "cannot link the idiom runtime",
    )


def _run(command: Sequence[str], what: str) -> subprocess.CompletedProcess[str]:
    try:
        result = subprocess.run(list(command), capture_output=True, text=True, check=False)
    except OSError as error:
        raise RuntimeBuildError(f"{what}: {error}") from error
    if result.returncode != 0:
        diagnostics = result.stderr.strip() or result.stdout.strip()
        raise RuntimeBuildError(f"{what}:\n{diagnostics}")
    return result
