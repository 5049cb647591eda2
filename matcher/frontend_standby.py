"""A front end started ahead: clang-22 and opt-22 waiting for the next compile.

Half of a small file's front end is clang starting, not compiling: loading and
relocating libclang-cpp and libLLVM takes 20-30 ms of the 45 a 40-line file costs
(`clang-22 --version` alone takes 22-27 ms; docs/startup.md). A process of the server
that waits for a request (cli/server.py) therefore starts both tools ahead, with
everything a fresh start would give them but the arguments:

- clang is started as `clang-22 @/dev/fd/N`: its driver reads its arguments from the
  response file, a pipe, once the libraries are loaded; the read waits until the
  arguments are written and the pipe closed. A C++ compile runs the same binary with
  `--driver-mode=g++`, which is what the name `clang++` selects.
- opt is started with the canonical passes (constant) and reads the IR from its input.

Soundness does not rest on guessing what clang reads: the tools are used only when the
compile would otherwise start them from the same folder, with the same environment (but
for `_` and `OLDPWD`, which name the shell's last command and folder), the same tool
paths naming the same files (device, inode, size and time: a tool upgraded meanwhile is
another file) and the same opt command; anything else compiles as before. An argument that a
response file cannot carry as it is (empty, a line break, a NUL, or starting with `@`,
which would be read as another response file) also compiles as before.

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

__all__ = ["Standby", "discard", "start", "take"]

# What the shell sets for each command and clang never reads.
_VOLATILE = frozenset({"_", "OLDPWD"})
# Characters a response file carries as they are; any other is escaped with a backslash
# (LLVM's GNU tokenizer, which clang uses on Linux).
_PLAIN = re.compile(r"[^A-Za-z0-9_./=,+:-]")


class Standby:
    """A clang waiting for its arguments and an opt waiting for its input."""

    def __init__(
        self,
        clang: str,
        clangxx: str,
        opt_command: Sequence[str],
        environment: Mapping[str, str],
        folder: str,
    ) -> None:
        self.owner = os.getpid()
        self.clang, self.clangxx = clang, clangxx
        self.opt_command = tuple(opt_command)
        self.environment = dict(environment)
        self.folder = folder
        self.files = _identities((clang, clangxx, opt_command[0]))
        self.clang_errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by front_end or discard
        reading, self.arguments = os.pipe()
        try:
            self.clang_process = subprocess.Popen(
                [clang, f"@/dev/fd/{reading}"],
                pass_fds=(reading,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=self.clang_errors,
                cwd=folder,
                env=self.environment,
            )
        finally:
            os.close(reading)
        try:
            self.opt_process = subprocess.Popen(
                list(opt_command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=folder,
                env=self.environment,
            )
        except OSError:
            self._end(self.clang_process)
            raise

    def serves(self, clang: str, opt_command: Sequence[str]) -> bool:
        """Whether a compile started here and now would start the same tools the same way."""
        return (
            os.getpid() == self.owner
            and clang in (self.clang, self.clangxx)
            and tuple(opt_command) == self.opt_command
            and os.getcwd() == self.folder
            and _relevant(os.environ) == _relevant(self.environment)
            and _identities((self.clang, self.clangxx, self.opt_command[0])) == self.files
            and self.clang_process.poll() is None
            and self.opt_process.poll() is None
        )

    def front_end(self, clang: str, arguments: Sequence[str]) -> tuple[int, bytes, str]:
        """clang's exit status, output and diagnostics for `arguments` (those after the
        program's name), run as `clang` names it."""
        mode = ["--driver-mode=g++"] if clang == self.clangxx != self.clang else []
        os.write(self.arguments, _response_file([*mode, *arguments]))
        os.close(self.arguments)
        assert self.clang_process.stdout is not None
        with self.clang_process.stdout:
            output = self.clang_process.stdout.read()
        status = self.clang_process.wait()
        self.clang_errors.seek(0)
        diagnostics = self.clang_errors.read().decode(errors="replace").strip()
        self.clang_errors.close()
        return status, output, diagnostics

    def optimise(self, text: bytes) -> tuple[int, bytes, bytes]:
        """opt's exit status, output and diagnostics for the IR `text`."""
        output, errors = self.opt_process.communicate(text)
        return self.opt_process.returncode, output, errors

    def discard(self) -> None:
        """Both tools ended, unused (after `front_end`, only opt is left)."""
        with contextlib.suppress(OSError):
            os.close(self.arguments)
        self.clang_errors.close()
        for process in (self.clang_process, self.opt_process):
            self._end(process)

    @staticmethod
    def _end(process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()


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
    clang: str,
    clangxx: str,
    opt_command: Sequence[str],
    environment: Mapping[str, str],
    folder: str,
) -> None:
    """Starts the tools for this process's next compile, replacing any standing; a tool
    that cannot be started leaves none (the compile then starts its own)."""
    discard()
    # An ignored SIGCHLD would be inherited through exec: the tools start as they
    # would from a command's process, which restores the default.
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        _STANDING.append(Standby(clang, clangxx, opt_command, environment, folder))


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
