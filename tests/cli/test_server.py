"""The warm server: a served command behaves as one run in its own process."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli import client, server
from matcher.frontend import CompileOptions

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = ROOT / "corpus" / "csr_struct.c"


def _wait(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def running(runtime: Path) -> Iterator[Path]:
    """A server of this tool, its socket in the test's runtime folder."""
    path = server.socket_path()
    assert path is not None
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.server", str(path)],
        cwd=ROOT,
        env={**os.environ, "IDIOM_SERVER_IDLE": "120"},
    )
    try:
        assert _wait(path.exists, 300), "the server did not start"
        yield path
        stop = [sys.executable, "-m", "cli.main", "server", "stop"]
        subprocess.run(stop, cwd=ROOT, check=True, capture_output=True)
        assert process.wait(timeout=30) == 0, "`idiom server stop` ends it"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
    assert not path.exists(), "a stopped server removes its socket"
    assert not Path(f"{path}.request").exists(), "and the last request's environment"


def test_served_detect_prints_what_an_unserved_one_does(
    running: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert client.run_served(["detect", str(PROGRAM), "--json"]) == 0
    served = capfd.readouterr().out
    alone = subprocess.run(
        [sys.executable, "-m", "cli.main", "detect", str(PROGRAM), "--json"],
        cwd=ROOT,
        env={**os.environ, "IDIOM_SERVER": "0"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert '"instances"' in served
    assert _timeless(served) == _timeless(alone)


def _timeless(report: str) -> list[dict[str, object]]:
    files: list[dict[str, object]] = json.loads(report)
    return [{k: v for k, v in f.items() if k != "seconds"} for f in files]


def test_the_command_takes_the_clients_folder_environment_and_exit_code(
    running: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "dot.c").write_text(
        "double dot(int n, const double *x, const double *y) {\n"
        "  double s = 0;\n  for (int i = 0; i < n; i++) s += x[i] * y[i];\n  return s;\n}\n"
    )
    monkeypatch.chdir(work)
    assert client.run_served(["detect", "dot.c", "-D", "UNUSED=1"]) == 0
    assert "1 idiom instance(s)" in capfd.readouterr().out
    assert client.run_served(["detect", "missing.c"]) == 1
    assert "missing.c" in capfd.readouterr().err
    monkeypatch.setenv("COLUMNS", "200")
    assert client.run_served(["idl", "check", "no-such-folder"]) != 0
    assert "no-such-folder" in capfd.readouterr().err


def test_off_or_absent_means_the_command_runs_here(
    runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IDIOM_SERVER", "0")
    assert client.run_served(["detect", str(PROGRAM)]) is None
    assert not list(runtime.rglob("*.sock*")), "off starts nothing"
    monkeypatch.setenv("IDIOM_SERVER", "1")
    assert client.run_served(["bench", str(PROGRAM)]) is None, "measurements run here"
    assert client.run_served(["--help"]) is None


def test_a_folder_open_to_others_is_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "run" / "idiom"
    shared.mkdir(parents=True)
    shared.chmod(0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    assert server.socket_path() is None
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / ("x" * 120)))
    assert server.socket_path() is None, "a path past a socket's limit: no server"


def test_a_changed_tool_file_gives_another_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = tmp_path / "tool"
    (tool / "cli").mkdir(parents=True)
    source = tool / "cli" / "x.py"
    source.write_text("A = 1\n")
    monkeypatch.setattr(client, "ROOT", str(tool))
    before = client.code_key()
    source.write_text("A = 22\n")
    assert client.code_key() != before


def test_one_server_per_socket_and_idle_exit(runtime: Path) -> None:
    path = server.socket_path()
    assert path is not None
    environment = {**os.environ, "IDIOM_SERVER_IDLE": "3"}
    command = [sys.executable, "-m", "cli.server", str(path)]
    first = subprocess.Popen(command, cwd=ROOT, env=environment)
    assert _wait(path.exists, 300)
    second = subprocess.run(command, cwd=ROOT, env=environment, timeout=60, check=False)
    assert second.returncode == 0, "a second server leaves at once"
    assert first.poll() is None
    assert first.wait(timeout=60) == 0, "an idle server exits"
    assert not path.exists()
    assert _wait(lambda: not _processes_of(path), 30), "with the child it forked ahead"


def _processes_of(path: Path) -> list[int]:
    """The processes of the server of `path`: the server and the children it forked."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if os.fsencode(path) in command:
                found.append(int(entry.name))
    return found


def test_a_killed_server_leaves_no_child_waiting(runtime: Path) -> None:
    """The child forked ahead of the next request, and its helper, go with their server,
    even one killed without a chance to end it."""
    path = server.socket_path()
    assert path is not None
    command = [sys.executable, "-m", "cli.server", str(path)]
    process = subprocess.Popen(command, cwd=ROOT)
    try:
        assert _wait(lambda: len(_processes_of(path)) == 3, 300), "a server, a child, a helper"
    finally:
        process.kill()
        process.wait(timeout=30)
    assert _wait(lambda: not _processes_of(path), 30)


def test_the_server_learns_its_plans_from_what_its_commands_compiled(running: Path) -> None:
    command = [sys.executable, "-m", "cli.main", "detect", str(PROGRAM), "--json"]
    first = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    status = [sys.executable, "-m", "cli.main", "server", "status"]

    def learnt() -> bool:
        time.sleep(1)  # the server learns once no request came for a moment
        shown = subprocess.run(status, cwd=ROOT, capture_output=True, text=True, check=True)
        return "search plans learnt from 1 source(s)" in shown.stdout

    assert _wait(learnt, 120), "the server analysed the source itself"
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    assert _timeless(again.stdout) == _timeless(first.stdout)
    assert _wait(lambda: len(_processes_of(running)) == 3, 60), "a server, a child, a helper"


def test_the_next_child_starts_clang_and_opt_for_a_request_like_the_last(
    running: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder and environment of a request are kept, private, for the next child,
    which starts the front end's tools ahead as that request's compile would have."""
    monkeypatch.chdir(tmp_path)
    command = [sys.executable, "-m", "cli.main", "detect", str(PROGRAM)]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(command, env=environment, capture_output=True, check=True)
    saved = Path(f"{running}.request")
    assert _wait(saved.exists, 60)
    assert saved.stat().st_mode & 0o777 == 0o600
    request = json.loads(saved.read_text())
    assert request["cwd"] == str(tmp_path) and request["env"]["PYTHONPATH"] == str(ROOT)

    def standing() -> list[str]:
        children = [_parent_and_command(p) for p in Path("/proc").iterdir()]
        ours = set(_processes_of(running))
        return [c for parent, c in children if parent in ours and "clang-22" in c]

    assert _wait(lambda: len(standing()) == 1, 60), "a clang waits in the next child"
    assert "@/dev/fd/" in standing()[0]
    again = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    assert "idiom instance(s)" in again.stdout


def _parent_and_command(entry: Path) -> tuple[int, str]:
    try:
        status = (entry / "stat").read_text()
        command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (OSError, UnicodeDecodeError):
        return -1, ""
    return int(status.rsplit(")", 1)[1].split()[1]), command


def test_a_first_command_runs_here_then_leaves_a_server(runtime: Path) -> None:
    path = server.socket_path()
    assert path is not None
    command = [sys.executable, "-m", "cli.main", "detect", str(PROGRAM)]
    first = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    assert "idiom instance(s)" in first.stdout
    try:
        assert _wait(path.exists, 300), "the first command started a server"
        second = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        assert second.stdout == first.stdout
    finally:
        stop = [sys.executable, "-m", "cli.main", "server", "stop"]
        subprocess.run(stop, cwd=ROOT, check=True, capture_output=True)
    assert _wait(lambda: not path.exists(), 30)


def test_the_compiler_wrapper_is_served(
    running: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("IDIOM_CC_VERBOSE", "1")
    source = ROOT / "corpus" / "red_dot.c"
    target = tmp_path / "red_dot.o"
    command = ["cc", "-O2", "-c", str(source), "-o", str(target)]
    assert client.run_served(command, entry="wrapper.main") == 0
    assert "Reduction in dot" in capfd.readouterr().err
    assert target.stat().st_size > 0


def test_the_next_child_is_forked_once_the_command_has_ended_or_another_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server forks the child for the next request when the running command reports
    its end (an empty report for a command that compiled nothing), or at once when
    another request is waiting, so that the new child's rehearsal does not compete with
    the command; a command that never reports delays it by `_BUSY_SECONDS` at most."""
    monkeypatch.setattr(server, "_BUSY_SECONDS", 0.5)
    _retired, retire = os.pipe()
    learner = server._Learner(tmp_path / "learnt", retire)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / "s"))
    listener.listen(4)

    def waited() -> float:
        start = time.monotonic()
        server._wait_for_end_or_request(listener, learner)
        return time.monotonic() - start

    assert waited() >= 0.5, "no report and no request: the whole delay"
    server._Learner.send(learner.report, [])
    assert waited() < 0.25, "an empty report ends the wait"
    assert not learner.pending
    server._Learner.send(learner.report, [(str(PROGRAM), str(ROOT), None)])
    assert waited() < 0.25
    assert learner.pending, "a report's sources are received as before"
    caller = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    caller.connect(str(tmp_path / "s"))
    assert waited() < 0.25, "a waiting request ends it"
    for descriptor in (_retired, retire, learner.reports, learner.report):
        os.close(descriptor)
    caller.close()
    listener.close()


def test_learning_stops_when_a_command_starts_and_the_source_stays_pending(
    tmp_path: Path,
) -> None:
    """Between two searches the server's learning asks whether a command has started;
    stopped, it leaves the source pending (learnt later), finished, it marks it learnt."""
    _retired, retire = os.pipe()
    learner = server._Learner(tmp_path / "learnt", retire)
    learner._add(str(PROGRAM), str(ROOT), CompileOptions())
    asked: list[int] = []

    def taken_at_third_ask() -> bool:
        asked.append(1)
        return len(asked) >= 3

    learner.learn_one(taken_at_third_ask)
    assert len(asked) == 3 and learner.pending and not learner.learnt
    learner.learn_one(lambda: False)
    assert not learner.pending and len(learner.learnt) == 1
    assert (tmp_path / "learnt").read_text() == "1\n"
    for descriptor in (_retired, retire, learner.reports, learner.report):
        os.close(descriptor)
