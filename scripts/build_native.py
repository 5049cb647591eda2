"""Compiles the search engine's modules with mypyc into `.native/` (see matcher/native.py).

    .venv/bin/python scripts/build_native.py [--if-stale]

With `--if-stale`, nothing is done when the build there is that of the sources as they
are. The build is made in a private folder beside `.native/` and renamed into place, so
a process importing the package meanwhile sees the old build, the new one or none,
never half of one. Needs a C compiler (`cc`, else clang-22) and the interpreter's
headers. Exit status: 0 built or current, 1 the build failed (the sources then run as
plain Python).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from matcher import native  # noqa: E402  (the project root is put on the path above)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--if-stale", action="store_true", help="build only when stale")
    args = parser.parse_args()
    if args.if_stale and native.build_is_current():
        return 0
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    compiler = _compiler()
    if not headers.is_file() or compiler is None:
        missing = "a C compiler (cc or clang-22)" if compiler else f"{headers} (python3-dev)"
        print(f"build_native: not built: no {missing}", file=sys.stderr)
        return 1
    work = Path(tempfile.mkdtemp(prefix=".native-", dir=ROOT))
    try:
        result = _compile(work, compiler)
        if result.returncode != 0:
            sys.stderr.write(result.stdout[-4000:])
            print("build_native: mypyc failed; the sources run as Python", file=sys.stderr)
            return 1
        (work / "lib" / "stamp").write_text(native.source_stamp() + "\n")
        _replace(work / "lib")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"build_native: compiled {', '.join(native.MODULES)} into {native.BUILD_FOLDER}")
    return 0


def _compiler() -> str | None:
    configured = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    if shutil.which(configured.split()[0]):
        return configured
    return shutil.which("clang-22") or shutil.which("cc")


def _compile(work: Path, compiler: str) -> subprocess.CompletedProcess[str]:
    """mypyc over the modules, in a child (setuptools prints much, and may exit)."""
    paths = [f"matcher/{name}.py" for name in native.MODULES]
    script = (
        "from mypyc.build import mypycify\n"
        "from setuptools import setup\n"
        f"modules = mypycify({paths!r}, opt_level='3', group_name={native.GROUP!r},"
        f" target_dir={str(work / 'c')!r})\n"
        "setup(name='idiom-native', ext_modules=modules, script_name='build_native',"
        f" script_args=['build_ext', '--build-lib', {str(work / 'lib')!r},"
        f" '--build-temp', {str(work / 'temp')!r}])\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "CC": compiler},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )


def _replace(built: Path) -> None:
    """The new build renamed into place; the old one, renamed aside first, removed."""
    old = None
    if native.BUILD_FOLDER.exists():
        old = Path(tempfile.mkdtemp(prefix=".native-old-", dir=ROOT))
        os.replace(native.BUILD_FOLDER, old / "build")
    os.replace(built, native.BUILD_FOLDER)
    if old is not None:
        with contextlib.suppress(OSError):
            shutil.rmtree(old)


if __name__ == "__main__":
    sys.exit(main())
