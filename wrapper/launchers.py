"""`idiom-cc` and `idiom-c++` as shell scripts running a given checkout's wrapper: for
builds that must use this very code (tests, benchmarks), where the installed console
scripts may be older."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["write_launchers"]


def write_launchers(folder: Path, root: Path) -> dict[str, Path]:
    """Scripts `idiom-cc` and `idiom-c++` in `folder`, running the wrapper of the checkout
    at `root` with this interpreter; name -> path."""
    made: dict[str, Path] = {}
    for name, language in (("idiom-cc", "cc"), ("idiom-c++", "c++")):
        script = folder / name
        script.write_text(
            f'#!/bin/sh\nPYTHONPATH={root} exec {sys.executable} -m wrapper {language} "$@"\n'
        )
        script.chmod(0o755)
        made[name] = script
    return made
