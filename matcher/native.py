"""The search engine's modules compiled to C with mypyc, used when a current build is there.

The solver, its plan, the atoms, the function index and the cost estimates run about
twice as fast compiled (docs/startup.md). `scripts/build_native.py` compiles them (setup
does) into `.native/` at the project root, with a stamp: the hash of the compiled
modules' sources and of the interpreter. At the package's import (`matcher/__init__.py`)
the build is used only when its stamp is that of the sources as they are now, so an
edited module runs as written until the next build, never a stale binary of it; and a
missing or failed build leaves the modules as plain Python, which behave the same.

`IDIOM_NATIVE=0` turns the build off (the sources run as written).
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import MutableSequence
from pathlib import Path

__all__ = [
    "BUILD_FOLDER",
    "MODULES",
    "STAMP_FILE",
    "active",
    "build_is_current",
    "install",
    "source_stamp",
]

# The modules compiled; the rest of the package stays Python (the compiled programs are
# pickled by the library cache: they keep the plain classes of matcher.solver_program).
MODULES = ("atoms", "function_index", "solver", "solver_cost", "solver_plan")
# The name of the one shared library that holds the compiled modules' code.
GROUP = "idiom_native"

_PACKAGE = Path(__file__).resolve().parent
BUILD_FOLDER = _PACKAGE.parent / ".native"
STAMP_FILE = BUILD_FOLDER / "stamp"


class _Status:
    active = False  # set by `install`


_STATUS = _Status()


def source_stamp() -> str:
    """What a build depends on: the interpreter, and each compiled module's source."""
    digest = hashlib.sha256(f"{sys.version} {sys.implementation.cache_tag}\n".encode())
    for name in MODULES:
        digest.update(f"{name}\n".encode())
        digest.update((_PACKAGE / f"{name}.py").read_bytes())
    return digest.hexdigest()


def build_is_current() -> bool:
    """Whether `.native/` holds a build of the sources as they are now."""
    try:
        return STAMP_FILE.read_text().strip() == source_stamp()
    except OSError:
        return False


def install(package_path: MutableSequence[str]) -> bool:
    """Puts a current build ahead of the sources on the package's path; whether it did."""
    if os.environ.get("IDIOM_NATIVE") == "0" or not build_is_current():
        return False
    package_path.insert(0, str(BUILD_FOLDER / "matcher"))
    if str(BUILD_FOLDER) not in sys.path:
        sys.path.append(str(BUILD_FOLDER))  # the shared library, imported by name
    _STATUS.active = True
    return True


def active() -> bool:
    """Whether the compiled modules are the ones imported."""
    return _STATUS.active
