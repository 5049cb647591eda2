"""A front end started ahead: clang-22 and opt-22 waiting for the next compile.

Half of a small file's front end is clang starting, not compiling: loading and
relocating libclang-cpp and libLLVM takes 20-30 ms of the 45 a 40-line file costs
(`clang-22 --version` alone takes 22-27 ms; docs/startup.md). A process of the server
that waits for a request (cli/server.py) therefore starts the tools ahead, with
everything a fresh start would give them but the arguments:

- clang, once per driver (`clang-22` and `clang++-22`: the name selects the driver's mode
  and the configuration files it reads), is started as `clang-22 @/dev/fd/N`: its driver
  reads its arguments from the response file, a pipe, once the libraries are loaded; the
  read waits until the arguments are written and the pipe closed. Its standard input is
  empty, as is a fresh clang's (matcher/frontend.py).
- opt is started with the canonical passes (constant) and reads the IR from its input.

Soundness does not rest on guessing what clang reads: the tools are used only when the
compile would otherwise start them with the same umask, in the same folder (the very
directory, compared by device and inode with each tool's own working directory: a
folder removed and made again under the same name is another), with the same environment
(but for `_` and `OLDPWD`, which name the shell's last command and folder), the same tool
paths naming the same files (device, inode, size and time: a tool upgraded meanwhile is
another file) and the same opt command; anything else compiles as before. An argument
that a response file cannot carry as it is (empty, a line break, a NUL, or starting with
`@`, which would be read as another response file) also compiles as before, and so does
a compile whose clang ended before it could take its arguments.

One process uses a standby once: `take` hands it over and forgets it, and a process
forked from its owner (a pool's worker) never sees it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from typing import IO

__all__ = ["Standby", "StandbyLost", "discard", "expressible", "start", "take"]

# What the shell sets for each command and clang never reads.
_VOLATILE = frozenset({"_", "OLDPWD"})
# Characters a response file carries as they are; any other is escaped with a backslash
# (LLVM's GNU tokenizer, which clang uses on Linux).
_PLAIN = re.compile(r"[^A-Za-z0-9_./=,+:-]")


class StandbyLost(Exception):
    """The standing clang ended before it took its arguments: compile afresh."""


class _Clang:
    """One driver's clang, waiting for its response file."""

    def __init__(self, program: str, environment: dict[str, str], folder: str) -> None:
        self.program = program
        self.errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by end()
        reading, writing = os.pipe()
        # A file object: its close, unlike a descriptor's, may be repeated safely.
        self.arguments = os.fdopen(writing, "wb")
        try:
            self.process = subprocess.Popen(
                [program, f"@/dev/fd/{reading}"],
                pass_fds=(reading,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=self.errors,
                cwd=folder,
                env=environment,
            )
        except OSError:
            self.arguments.close()
            self.errors.close()
            raise
        finally:
            os.close(reading)

    def run(self, arguments: Sequence[str]) -> tuple[int, bytes, str]:
        """clang's exit status, output and diagnostics for `arguments`."""
        try:
            with self.arguments:
                self.arguments.write(_response_file(arguments))
        except OSError as error:
            raise StandbyLost from error
        assert self.process.stdout is not None
        with self.process.stdout:
            output = self.process.stdout.read()
        status = self.process.wait()
        self.errors.seek(0)
        diagnostics = self.errors.read().decode(errors="replace").strip()
        return status, output, diagnostics

    def end(self) -> None:
        with contextlib.suppress(OSError):
            self.arguments.close()
        self.errors.close()
        _end(self.process)


class Standby:
    """A clang per driver waiting for its arguments and an opt waiting for its input."""

    def __init__(
        self,
        clangs: Sequence[str],
        opt_command: Sequence[str],
        environment: Mapping[str, str],
        folder: str,
        umask: int,
    ) -> None:
        self.owner = os.getpid()
        self.opt_command = tuple(opt_command)
        self.environment = dict(environment)
        self.umask = umask
        programs = list(dict.fromkeys(clangs))
        self.files = _identities([*programs, opt_command[0]])
        self.clangs: dict[str, _Clang] = {}
        previous = os.umask(umask)
        try:
            for program in programs:
                self.clangs[program] = _Clang(program, self.environment, folder)
            self.opt_process = subprocess.Popen(
                list(opt_command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=folder,
                env=self.environment,
            )
        except OSError:
            for clang in self.clangs.values():
                clang.end()
            raise
        finally:
            os.umask(previous)

    def serves(self, clang: str, opt_command: Sequence[str]) -> bool:
        """Whether a compile started here and now would start the same tools the same way."""
        chosen = self.clangs.get(clang)
        return (
            os.getpid() == self.owner
            and chosen is not None
            and tuple(opt_command) == self.opt_command
            and _current_umask() == self.umask
            and _relevant(os.environ) == _relevant(self.environment)
            and _identities([*self.clangs, self.opt_command[0]]) == self.files
            and chosen.process.poll() is None
            and self.opt_process.poll() is None
            and _in_this_folder(chosen.process.pid, self.opt_process.pid)
        )

    def front_end(self, clang: str, arguments: Sequence[str]) -> tuple[int, bytes, str]:
        """clang's exit status, output and diagnostics for `arguments` (those after the
        program's name), run as `clang` names it; StandbyLost if it had ended."""
        return self.clangs[clang].run(arguments)

    def optimise(self, text: bytes) -> tuple[int, bytes, bytes]:
        """opt's exit status, output and diagnostics for the IR `text`."""
        output, errors = self.opt_process.communicate(text)
        return self.opt_process.returncode, output, errors

    def discard(self) -> None:
        """Every tool ended, used or not."""
        for clang in self.clangs.values():
            clang.end()
        _end(self.opt_process)


def _end(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _in_this_folder(*processes: int) -> bool:
    """Whether each process works in the very directory this process works in."""
    try:
        here = os.stat(".")
        folders = [os.stat(f"/proc/{pid}/cwd") for pid in processes]
    except OSError:
        return False
    return all((f.st_dev, f.st_ino) == (here.st_dev, here.st_ino) for f in folders)


def expressible(arguments: Sequence[str]) -> bool:
    """Whether a response file carries `arguments` as they are."""
    return all(a and not a.startswith("@") and not set(a) & {"\n", "\r", "\0"} for a in arguments)


def _response_file(arguments: Sequence[str]) -> bytes:
    return "\n".join(_PLAIN.sub(r"\\\g<0>", a) for a in arguments).encode(errors="surrogateescape")


def _identities(paths: Sequence[str]) -> list[tuple[int, ...] | None]:
    """What tells the files `paths` name apart from any other (None: no such file)."""
    found: list[tuple[int, ...] | None] = []
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            found.append(None)
            continue
        found.append((info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns))
    return found


def _relevant(environment: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in environment.items() if k not in _VOLATILE}


_STANDING: list[Standby] = []


def start(
    clangs: Sequence[str],
    opt_command: Sequence[str],
    environment: Mapping[str, str],
    folder: str,
    umask: int,
) -> None:
    """Starts the tools for this process's next compile, replacing any standing; a tool
    that cannot be started leaves none (the compile then starts its own)."""
    discard()
    # An ignored SIGCHLD would be inherited through exec: the tools start as they
    # would from a command's process, which restores the default.
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        _STANDING.append(Standby(clangs, opt_command, environment, folder, umask))


def take(clang: str, arguments: Sequence[str], opt_command: Sequence[str]) -> Standby | None:
    """The standing tools, if they serve this compile exactly; they are this process's
    to use or discard from then on, and no later compile sees them."""
    if not _STANDING:
        return None
    standby = _STANDING.pop()
    if standby.serves(clang, opt_command) and expressible(arguments):
        return standby
    if os.getpid() == standby.owner:
        standby.discard()
    return None


def discard() -> None:
    """Ends the standing tools, if any."""
    while _STANDING:
        standby = _STANDING.pop()
        if os.getpid() == standby.owner:
            standby.discard()
