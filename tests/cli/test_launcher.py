"""`idiom`'s native client (cli/launcher.c): the request the Python client would send,
to the same socket, and the Python `idiom` wherever that one would run the command."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cli import client

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = ROOT / "corpus" / "red_dot.c"

pytestmark = pytest.mark.skipif(
    not (shutil.which("cc") or shutil.which("clang-22")), reason="no C compiler"
)


# A Python that cannot start: a launcher falling back to Python fails (exit 1) rather
# than reach the server through the Python client.
_NO_PYTHON = {b"PYTHONHOME": b"/nonexistent-python-home"}


@pytest.fixture(autouse=True)
def utf8_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """A UTF-8 locale, where the launcher serves (in C or POSIX it leaves all to Python)."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


@pytest.fixture(scope="module")
def launcher() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="idiom-launcher-"))
    program = folder / "idiom"
    build = [sys.executable, str(ROOT / "scripts" / "build_launcher.py"), "--output", str(program)]
    subprocess.run(build, check=True, capture_output=True)
    yield program
    shutil.rmtree(folder, ignore_errors=True)


class _FakeServer:
    """A server at the Python client's socket that answers every request with
    `answer(connection, descriptors)` and keeps the first."""

    def __init__(self, answer: Callable[[socket.socket, list[int]], None]) -> None:
        path = client.socket_path()
        assert path is not None
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(4)
        self.listener.settimeout(0.1)
        self.requests: list[dict[str, object]] = []
        self.answer = answer
        self.open = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def request(self) -> dict[str, object]:
        return self.requests[0]

    def _serve(self) -> None:
        while self.open:
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            connection.settimeout(None)
            with connection:
                header, descriptors, _flags, _address = socket.recv_fds(connection, 4, 3)
                size = int.from_bytes(header, "big")
                payload = b""
                while len(payload) < size:
                    payload += connection.recv(size - len(payload))
                self.requests.append(json.loads(payload))
                self.answer(connection, descriptors)
                for descriptor in descriptors:
                    os.close(descriptor)

    def close(self) -> None:
        self.open = False
        self.thread.join(timeout=30)
        self.listener.close()


def _runs_and_exits(code: int) -> Callable[[socket.socket, list[int]], None]:
    def answer(connection: socket.socket, descriptors: list[int]) -> None:
        connection.sendall(b"pid 2147483646\n")
        os.write(descriptors[1], b"written by the command\n")
        connection.sendall(f"exit {code}\n".encode())

    return answer


def test_the_request_is_the_python_clients_at_the_same_socket(
    launcher: Path, runtime: Path, tmp_path: Path
) -> None:
    fake = _FakeServer(_runs_and_exits(7))
    odd = b'caf\xc3\xa9 \xff\xfe \xf0\x9f\x98\x80 "quoted\\" \t\x01 \xed\xa0\x80'
    environment = {**os.environb, b"IDIOM_ODD": odd, b"EMPTY": b"", **_NO_PYTHON}
    arguments = [b"detect", b"x.c", odd, b""]
    result = subprocess.run(
        [bytes(launcher), *arguments],
        env=environment,
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    fake.close()
    assert result.returncode == 7
    assert result.stdout == b"written by the command\n", "the command has the client's streams"
    expected_environment = {os.fsdecode(k): os.fsdecode(v) for k, v in environment.items()}
    assert fake.request == {
        "entry": "cli.main",
        "argv": [os.fsdecode(a) for a in arguments],
        "cwd": str(tmp_path),
        "env": expected_environment,
        "umask": _umask(),
    }
    env = fake.request["env"]
    assert isinstance(env, dict)
    assert os.fsencode(env["IDIOM_ODD"]) == odd, "the server sees the very bytes"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_server_dying_mid_command_is_a_failure_with_a_message(
    launcher: Path, runtime: Path
) -> None:
    fake = _FakeServer(lambda connection, _: connection.sendall(b"pid 2147483646\n"))
    result = subprocess.run(
        [launcher, "detect", "x.c"], capture_output=True, text=True, check=False
    )
    fake.close()
    assert result.returncode == 1
    assert "ended without an exit status" in result.stderr


def test_a_refusing_server_means_the_python_idiom_runs_it(
    launcher: Path, runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No pid line: the command never started, and runs through Python (which also finds
    the server refusing, and runs it itself)."""
    monkeypatch.setenv("IDIOM_SERVER", "1")
    fake = _FakeServer(lambda connection, _: None)
    command = ["detect", str(PROGRAM), "--json"]
    result = subprocess.run(
        [launcher, *command], capture_output=True, text=True, cwd=ROOT, check=False
    )
    fake.close()
    assert len(fake.requests) == 2, "the launcher's, then the Python idiom's"
    expected = _python_idiom(command)
    assert result.returncode == expected.returncode == 0
    assert _timeless(result.stdout) == _timeless(expected.stdout)


@pytest.mark.parametrize(
    "command",
    [["detect", str(PROGRAM), "--json"], ["detect", "missing.c"], ["--help"], [], ["bogus"]],
    ids=["detect", "missing", "help", "none", "bogus"],
)
def test_unserved_commands_are_the_python_idioms(
    launcher: Path, runtime: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setenv("IDIOM_SERVER", "0")
    result = subprocess.run(
        [launcher, *command], capture_output=True, text=True, cwd=ROOT, check=False
    )
    expected = _python_idiom(command)
    assert result.returncode == expected.returncode
    assert _timeless(result.stdout) == _timeless(expected.stdout)
    assert result.stderr == expected.stderr


# What the launcher runs in Python: the tool of its own folder.
_PYTHON_IDIOM = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); from cli.main import main; sys.exit(main())"
)


def _python_idiom(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-Pc",
            "import sys; from cli.main import main; sys.exit(main())",
            *command,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def _timeless(report: str) -> object:
    try:
        files = json.loads(report)
    except ValueError:
        return report
    return [{k: v for k, v in f.items() if k != "seconds"} for f in files]


def test_the_launchers_lists_are_the_clients() -> None:
    """What names the socket and what is never served, as cli/client.py has them."""
    source = (ROOT / "cli" / "launcher.c").read_text()

    def strings_of(name: str) -> list[str]:
        match = re.search(rf"{name}\[\] = \{{([^}}]*)\}}", source)
        assert match, name
        return re.findall(r'"([^"]*)"', match.group(1))

    assert strings_of("PACKAGES") == list(client.PACKAGES)
    assert strings_of("SOURCE_SUFFIXES") == list(client._SOURCE_SUFFIXES)
    assert set(strings_of("UNSERVED")) == {*client._UNSERVED, "-h", "--help"}


def test_a_locale_python_may_change_leaves_the_command_to_python(
    launcher: Path, runtime: Path
) -> None:
    """In the C locale Python adds LC_CTYPE to its environment (PEP 538): the launcher
    then sends nothing and runs the Python `idiom` (here one that cannot start)."""
    fake = _FakeServer(_runs_and_exits(7))
    plain = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
    plain.update({os.fsdecode(k): os.fsdecode(v) for k, v in _NO_PYTHON.items()})
    for locale, expected in ((None, 1), ("C", 1), ("C.UTF-8", 7)):
        environment = dict(plain) if locale is None else {**plain, "LC_ALL": locale}
        result = subprocess.run(
            [launcher, "detect", "x.c"], env=environment, capture_output=True, check=False
        )
        assert result.returncode == expected, locale
    fake.close()


def test_the_fallback_never_imports_the_current_folders_modules(
    launcher: Path, runtime: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IDIOM_SERVER", "0")
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "__init__.py").write_text("raise SystemExit('the wrong cli')\n")
    result = subprocess.run(
        [launcher, "--help"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "usage: idiom" in result.stdout
