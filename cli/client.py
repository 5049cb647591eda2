"""The client half of the warm server (cli/server.py): what every `idiom` command and
every `idiom-cc` compile runs before anything else.

A served command's whole cost beyond the server's work is this module and the
interpreter's start, so it imports only modules built into the interpreter (`_socket`,
`_json`, `_signal`, a SHA-256): `socket`, `json`, `signal` and `hashlib` would cost
5-10 ms each, mostly in building their enums. The protocol, which cli/server.py reads:
a 4-byte big-endian length sent with the client's descriptors 0, 1 and 2 (SCM_RIGHTS),
then that many bytes of JSON (`entry`, `argv`, `cwd`, `env`, `umask`); the server
answers `pid N` once the command's process has the streams, then `exit N`.
"""

from __future__ import annotations

import _json
import _signal  # type: ignore[import-not-found]  # no stubs: `signal` without its enums
import _socket
import os
import sys

try:  # the interpreter's own SHA-256, without hashlib's OpenSSL loading
    if sys.version_info >= (3, 12):
        from _sha2 import sha256
    else:
        from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - an interpreter built without them
    from hashlib import sha256  # type: ignore[assignment, unused-ignore]

__all__ = [
    "HEADER_BYTES",
    "PACKAGES",
    "ROOT",
    "code_key",
    "connect",
    "run_served",
    "socket_path",
    "start_wanted",
]

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# The tool's packages: any change to one of their files gives another server.
PACKAGES = ("cli", "idl", "matcher", "mappers", "measure", "fuzz", "ci", "wrapper")
_SOURCE_SUFFIXES = (".py", ".lark", ".idl", ".c", ".h", ".json")
# Commands that never go through the server: its own management, and the measurements
# (their timings should not depend on whether a server happened to be warm).
_UNSERVED = frozenset({"server", "bench", "demo"})
HEADER_BYTES = 4
_SOCKET_PATH_LIMIT = 104


def socket_path() -> str | None:
    """The socket of the server for this exact tool; None when there can be none."""
    folder = _private_folder()
    if folder is None:
        return None
    path = os.path.join(folder, f"server-{code_key()[:24]}.sock")
    # A socket's path has a small limit (108 bytes on Linux): past it, no server.
    return path if len(os.fsencode(path)) < _SOCKET_PATH_LIMIT else None


def _private_folder() -> str | None:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        base = os.path.join(runtime, "idiom")
    else:
        base = os.path.join(os.environ.get("TMPDIR") or "/tmp", f"idiom-{os.getuid()}")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
        info = os.stat(base)
    except OSError:
        return None
    if info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return base


def code_key() -> str:
    """A hash of the interpreter and of the path, size and time of every file of the
    tool's packages: another tool, or this one edited, has another server."""
    digest = sha256(f"{sys.executable} {sys.version} {ROOT}".encode())
    for package in PACKAGES:
        for path, info in sorted(_files_of(os.path.join(ROOT, package))):
            digest.update(f"{path} {info.st_size} {info.st_mtime_ns}\n".encode())
    # The compiled engine (matcher/native.py): its build, and whether it is turned off.
    try:
        info = os.stat(os.path.join(ROOT, ".native", "stamp"))
        digest.update(f"native {info.st_size} {info.st_mtime_ns}\n".encode())
    except OSError:
        pass  # no build: the sources run as Python
    digest.update(f"IDIOM_NATIVE={os.environ.get('IDIOM_NATIVE')}\n".encode())
    return str(digest.hexdigest())


def _files_of(folder: str) -> list[tuple[str, os.stat_result]]:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    found = []
    for entry in entries:
        if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
            found += _files_of(entry.path)
        elif entry.name.endswith(_SOURCE_SUFFIXES):
            found.append((entry.path, entry.stat()))
    return found


def run_served(argv: list[str], entry: str = "cli.main") -> int | None:
    """Run `entry`'s `main(argv)` in the server: its exit code, or None when the command
    is to run here (server off or absent, or a command that is never served); a server is
    then started for the next command (`start_wanted`)."""
    if os.environ.get("IDIOM_SERVER", "1") == "0" or (argv and argv[0] in _UNSERVED):
        return None
    if not argv or argv[0] in ("-h", "--help"):
        return None
    path = socket_path()
    if path is None:
        return None
    connection = connect(path)
    if connection is None:
        _WANTED.append(path)
        return None
    try:
        return _request(connection, entry, argv)
    finally:
        connection.close()


# The server that `run_served` found absent, started by `start_wanted` once the command
# has run here: started before, it would compile the library beside the command, both
# on a cold cache; after, it reads the library the command left in the disk cache.
_WANTED: list[str] = []


def start_wanted() -> None:
    """Start the server `run_served` found absent, if any."""
    while _WANTED:
        start_server(_WANTED.pop())


def connect(path: str) -> _socket.socket | None:
    """A connection to the server at `path`; None when none answers."""
    client = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        client.connect(path)
    except OSError:
        client.close()
        return None
    return client


def _request(connection: _socket.socket, entry: str, argv: list[str]) -> int | None:
    umask = os.umask(0)
    os.umask(umask)
    payload = _json_object(
        {
            "entry": entry,
            "argv": list(argv),
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "umask": umask,
        }
    ).encode()
    descriptors = b"".join(fd.to_bytes(4, sys.byteorder) for fd in (0, 1, 2))
    try:
        connection.sendmsg(
            [len(payload).to_bytes(HEADER_BYTES, "big")],
            [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, descriptors)],
        )
        connection.sendall(payload)
    except OSError:
        return None  # nothing ran yet: run here
    replies = _Lines(connection)
    first = replies.next().split()
    if len(first) != 2 or first[0] != "pid":
        return None  # the server refused before starting the command: run here
    child = int(first[1])
    previous = _forward_signals(child)
    try:
        last = replies.next().split()
    finally:
        for number, handler in previous.items():
            _signal.signal(number, handler)
    if len(last) == 2 and last[0] == "exit":
        return int(last[1])
    print("idiom: the command's process ended without an exit status", file=sys.stderr)
    return 1


def _json_object(fields: dict[str, object]) -> str:
    """JSON of strings, integers, lists of strings and string-keyed dicts of strings, as
    `json.dumps` writes them (non-ASCII and surrogates escaped)."""
    quote = _json.encode_basestring_ascii

    def value(item: object) -> str:
        if isinstance(item, str):
            return str(quote(item))
        if isinstance(item, int):
            return str(item)
        if isinstance(item, list):
            return "[" + ", ".join(value(element) for element in item) + "]"
        if isinstance(item, dict):
            return "{" + ", ".join(f"{quote(k)}: {value(v)}" for k, v in item.items()) + "}"
        raise TypeError(f"not sent to the server: {type(item).__name__}")

    return value(fields)


class _Lines:
    """The server's reply lines, read from the connection without `socket.makefile`."""

    def __init__(self, connection: _socket.socket) -> None:
        self.connection = connection
        self.pending = b""

    def next(self) -> str:
        """The next line, or what is left when the connection ends or breaks first ("" at
        the end): a server that died mid-command resets the connection."""
        while b"\n" not in self.pending:
            try:
                chunk = self.connection.recv(4096)
            except InterruptedError:  # pragma: no cover - retried by Python itself
                continue
            except OSError:
                chunk = b""
            if not chunk:
                line, self.pending = self.pending, b""
                return line.decode(errors="replace")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace")


def _forward_signals(child: int) -> dict[int, object]:
    """SIGINT, SIGTERM and SIGHUP sent on to the command's process; the handlers before."""

    def forward(number: int, _frame: object) -> None:
        try:  # noqa: SIM105 - contextlib costs this module's start a few milliseconds
            os.kill(child, number)
        except OSError:
            pass

    forwarded = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
    return {number: _signal.signal(number, forward) for number in forwarded}


def start_server(path: str) -> None:
    """A server for `path`, detached from this process and its terminal."""
    import subprocess  # noqa: PLC0415 - a served command's client never needs it

    try:  # noqa: SIM105 - as in `forward`
        subprocess.Popen(
            [sys.executable, "-m", "cli.server", path],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, "PYTHONPATH": _python_path()},
        )
    except OSError:
        pass


def _python_path() -> str:
    """The client's import path first, so that the server imports this very tool."""
    rest = os.environ.get("PYTHONPATH")
    return f"{ROOT}{os.pathsep}{rest}" if rest else ROOT
