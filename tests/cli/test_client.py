"""The warm server's client: cheap to start, and speaking the server's protocol."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli import client

ROOT = Path(__file__).resolve().parents[2]

# Modules whose import costs a client milliseconds; `idiom` must not load them before it
# knows whether the server runs the command.
HEAVY = ("argparse", "hashlib", "json", "pathlib", "signal", "socket", "typing")


def test_the_client_imports_nothing_heavy() -> None:
    # -S: only what `idiom`'s entry imports itself, not what site or an install adds.
    probe = f"import sys, cli.main; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-S", "-c", probe],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == []


@pytest.mark.parametrize(
    "fields",
    [
        {"entry": "cli.main", "argv": ["detect", "a b.c", 'q"uote', "back\\slash"], "umask": 18},
        {"env": {"LANG": "fr_FR.UTF-8", "NAME": "été ☃", "RAW": "\udcff\udc80"}, "argv": []},
        {"cwd": "/tmp/\n\t", "argv": ["\x00\x1f"], "umask": 0},
    ],
)
def test_requests_are_the_json_the_server_reads(fields: dict[str, object]) -> None:
    encoded = client._json_object(fields)
    assert encoded == json.dumps(fields)
    assert json.loads(encoded) == fields


def test_only_what_json_carries_is_sent() -> None:
    with pytest.raises(TypeError, match="float"):
        client._json_object({"x": 1.5})


def test_socket_path_is_stable_and_private(runtime: Path) -> None:
    first = client.socket_path()
    assert first is not None and first == client.socket_path()
    folder = Path(first).parent
    assert folder == runtime / "idiom"
    assert folder.stat().st_mode & 0o777 == 0o700


def test_no_server_answering_means_the_command_runs_here(
    runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IDIOM_SERVER", "1")
    monkeypatch.setattr(client, "start_server", lambda path: None)
    assert client.run_served(["detect", "x.c"]) is None
    assert client._WANTED, "a server is wanted for the next command"
    client.start_wanted()
    assert not client._WANTED


class _DyingServer:
    """A connection whose server sends `replies` and then dies, resetting it."""

    def __init__(self, *replies: bytes) -> None:
        self.replies = list(replies)

    def sendmsg(self, *_: object) -> None:
        pass

    def sendall(self, _: bytes) -> None:
        pass

    def recv(self, _: int) -> bytes:
        if self.replies:
            return self.replies.pop(0)
        raise ConnectionResetError(104, "Connection reset by peer")


def test_a_server_dying_before_the_command_starts_means_it_runs_here() -> None:
    assert client._request(_DyingServer(), "idiom", ["detect", "x.c"]) is None  # type: ignore[arg-type]
    dying = _DyingServer(b"pi")
    assert client._request(dying, "idiom", ["detect", "x.c"]) is None  # type: ignore[arg-type]


def test_a_server_dying_mid_command_is_a_failure_with_a_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    dying = _DyingServer(b"pid 2147483646\n")
    assert client._request(dying, "idiom", ["detect", "x.c"]) == 1  # type: ignore[arg-type]
    assert "ended without an exit status" in capsys.readouterr().err
