"""`idiom-cc` and `idiom-c++`: clang-22 and clang++-22 that accelerate what they compile.

A legacy build uses them unchanged (`make CC=idiom-cc CXX=idiom-c++`,
`cmake -DCMAKE_C_COMPILER=idiom-cc`). A compile is the plain compile, upgraded unit by
unit (wrapper/compile_step.py); a link is the plain link, with the whole-program steps
and the runtime when accelerated objects take part (wrapper/link_step.py); every other
command is clang's. The build never breaks for idiom: its failures fall back to the
plain command, with one warning line.

Environment: IDIOM_CC_VERBOSE=1 says what was replaced; IDIOM_CC_DISABLE=1 makes the
wrapper a plain clang.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from wrapper.args import Invocation, Kind, classify, default_object
from wrapper.messages import first_line, warn

__all__ = ["main", "main_c", "main_cxx", "run"]

_TOOLS = {"clang": "idiom-cc", "clang++": "idiom-c++"}


def main_c() -> None:
    sys.exit(run("clang", sys.argv[1:]))


def main_cxx() -> None:
    sys.exit(run("clang++", sys.argv[1:]))


def main(argv: list[str] | None = None) -> int:
    """`python -m wrapper cc|c++ ARGS...`; also what the server runs (cli/server.py)."""
    arguments = sys.argv[1:] if argv is None else argv
    if not arguments or arguments[0] not in _DRIVERS:
        print("usage: python -m wrapper cc|c++ [compiler arguments...]", file=sys.stderr)
        return 2
    return run(_DRIVERS[arguments[0]], arguments[1:], served=argv is not None)


_DRIVERS = {"cc": "clang", "c++": "clang++"}


def run(driver: str, argv: list[str], *, served: bool = False) -> int:
    """The compiler command `argv` (without the program name), through idiom. A compile or
    a link goes to the warm server when one answers (unless this is the server's run),
    so that a build's many invocations do not each load the idiom library."""
    clang = _clang(driver)
    tool = _TOOLS[driver]
    if os.environ.get("IDIOM_CC_DISABLE", "") not in ("", "0"):
        return _pass(clang, argv)
    call = classify(argv)
    if call.kind is Kind.PASS:
        return _pass(clang, argv)
    if not served:
        from cli import client  # noqa: PLC0415 - the interpreter's built-in modules only

        name = next(key for key, value in _DRIVERS.items() if value == driver)
        code = client.run_served([name, *argv], entry="wrapper.main")
        if code is not None:
            return code
        try:
            return _run_here(tool, driver, clang, argv, call)
        finally:
            client.start_wanted()  # for the build's next invocation
    return _run_here(tool, driver, clang, argv, call)


def _run_here(tool: str, driver: str, clang: str, argv: list[str], call: Invocation) -> int:
    if call.kind is Kind.COMPILE:
        return _compile(tool, driver, clang, argv, call)
    return _link(tool, driver, clang, argv, call)


def _clang(driver: str) -> str:
    for candidate in (f"{driver}-22", f"/usr/lib/llvm-22/bin/{driver}"):
        found = shutil.which(candidate)
        if found:
            return found
    return f"{driver}-22"  # exec reports it missing, as a shell would


def _pass(clang: str, argv: list[str]) -> int:
    """clang itself, same arguments, same standard streams, same exit status."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(clang, [clang, *argv])
    except OSError as error:
        print(f"{clang}: {error.strerror}", file=sys.stderr)
        return 127
    return 0  # not reached


def _compile(tool: str, driver: str, clang: str, argv: list[str], call: Invocation) -> int:
    status = subprocess.run([clang, *argv], check=False).returncode
    if status != 0:
        return status
    for source in call.sources:
        target = Path(call.output) if call.output else default_object(source)
        _upgrade(tool, driver, source, target, call)
    return 0


def _upgrade(tool: str, driver: str, source: Path, target: Path, call: Invocation) -> None:
    try:  # the tool itself may not load (a broken installation): the plain object stays
        from wrapper.compile_step import upgrade_object  # noqa: PLC0415
    except Exception as error:
        warn(tool, f"{source}: not accelerated: {first_line(error)}")
        return
    upgrade_object(tool, driver, source, target, call)


def _link(tool: str, driver: str, clang: str, argv: list[str], call: Invocation) -> int:
    """Link objects; sources among the inputs are compiled first, each to its own object
    (plain, then upgraded), as clang would do in one command."""
    if call.dependency_flags and call.sources:  # the dependency files clang writes
        status = subprocess.run([clang, *argv], check=False).returncode
        if status != 0:
            return status
    with tempfile.TemporaryDirectory(prefix="idiom-cc-") as tmp:
        objects: dict[str, str] = {}
        for number, source in enumerate(call.sources):
            target = Path(tmp) / f"{number}-{source.stem}.o"
            compile_command = [clang, *call.compile_flags, "-c", str(source), "-o", str(target)]
            status = subprocess.run(compile_command, check=False).returncode
            if status != 0:
                return status
            _upgrade(tool, driver, source, target, call)
            objects[str(source)] = str(target)
        command = [objects.get(argument, argument) for _, argument in call.order]
        if call.output is not None:
            command += ["-o", call.output]
        if call.sources:
            command.append("-Wno-unused-command-line-argument")  # the compile flags
        inputs = [objects.get(i, i) for i in call.inputs]
        return _linked(tool, driver, clang, command, inputs)


def _linked(tool: str, driver: str, clang: str, command: list[str], inputs: list[str]) -> int:
    try:
        from wrapper.link_step import link  # noqa: PLC0415

        return link(tool, driver, command, inputs)
    except Exception as error:  # idiom could not even look: the plain link
        warn(tool, f"link: {first_line(error)}; linked plainly")
        return subprocess.run([clang, *command], check=False).returncode
