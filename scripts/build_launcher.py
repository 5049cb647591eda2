"""Compiles `idiom`'s native client (cli/launcher.c) in place of the `idiom` script.

    .venv/bin/python scripts/build_launcher.py [--if-stale] [--output PROGRAM]

A served command's client is then a small program that starts in about a millisecond
instead of a Python interpreter's 20 (docs/startup.md); whenever it would not reach the
server it runs the Python `idiom`, so that nothing else changes. The interpreter
running this script, its version and the project's folder are compiled in: they are
part of the server's socket name (cli/client.py). The program is compiled beside the
script it replaces and renamed over it, so that a command started meanwhile runs one
or the other. With `--if-stale`, nothing is done when the program there is that of
these sources; `--output` compiles it elsewhere (the tests do). Exit status: 0 built or
current, 1 not built (the Python script stays).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cli import client  # noqa: E402  (the project root is put on the path above)

SOURCE = ROOT / "cli" / "launcher.c"
SCRIPT = Path(sysconfig.get_path("scripts")) / "idiom"
# The start of an ELF file: the script is already a compiled program.
_ELF = b"\x7fELF"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--if-stale", action="store_true", help="build only when stale")
    parser.add_argument("--output", type=Path, help="the program to write (default: idiom)")
    args = parser.parse_args()
    target = args.output or SCRIPT
    compiler = shutil.which("cc") or shutil.which("clang-22")
    if compiler is None:
        print("build_launcher: not built: no C compiler (cc or clang-22)", file=sys.stderr)
        return 1
    command = [compiler, "-O2", "-std=c11", *_definitions(), str(SOURCE)]
    stamp = hashlib.sha256(SOURCE.read_bytes() + "\0".join(command).encode()).hexdigest()
    if args.if_stale and _is_current(target, stamp):
        return 0
    try:
        descriptor, draft = tempfile.mkstemp(prefix=".idiom-launcher-", dir=target.parent)
    except OSError as error:
        print(f"build_launcher: not built: {error}", file=sys.stderr)
        return 1
    os.close(descriptor)
    try:
        result = subprocess.run(
            [*command, "-o", draft], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            sys.stderr.write(result.stderr[-4000:])
            print("build_launcher: the compile failed; idiom stays a script", file=sys.stderr)
            return 1
        os.chmod(draft, 0o755)
        os.replace(draft, target)
    finally:
        if os.path.exists(draft):
            os.unlink(draft)
    _stamp_of(target).write_text(stamp + "\n")
    print(f"build_launcher: compiled {SOURCE.relative_to(ROOT)} into {target}")
    return 0


def _definitions() -> list[str]:
    """What the program must agree on with cli/client.py, as C string literals."""
    values = {
        "IDIOM_PYTHON": sys.executable,
        "IDIOM_PYTHON_VERSION": sys.version,
        "IDIOM_ROOT": client.ROOT,
    }
    return [f"-D{name}={_c_string(value)}" for name, value in values.items()]


def _c_string(text: str) -> str:
    """`text` as a C string literal, every byte but letters and digits in octal."""
    encoded = os.fsencode(text)
    return '"' + "".join(chr(b) if chr(b).isalnum() else f"\\{b:03o}" for b in encoded) + '"'


def _stamp_of(program: Path) -> Path:
    return program.with_name(f".{program.name}-launcher")


def _is_current(program: Path, stamp: str) -> bool:
    try:
        with program.open("rb") as built:
            compiled = built.read(4) == _ELF
        return compiled and _stamp_of(program).read_text().strip() == stamp
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
