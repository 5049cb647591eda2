"""A warm process that runs `idiom` commands, so that a command starts in milliseconds.

An `idiom` invocation would otherwise spend most of its time before any work: importing
LLVM's bindings and the tool, then loading the compiled idiom library (from the disk cache,
matcher/library_cache.py, still a second or more). The server does that once and then,
for each request, forks: the child has everything loaded, takes the client's standard
streams, working folder, environment and umask, runs the command as `idiom` would and
sends back its exit code. Each command runs in a process of its own, as without the server.

The client (cli/client.py: `run_served`, called by `cli.main` before anything else is
imported) uses only modules built into the interpreter. It connects to the socket of the
server of its exact code (the socket's name is a hash of the path, size and time of every
file of the tool, and of the interpreter): after any change to the tool another server is
used, and the old one exits when idle. When none answers, the command runs in the
client's process, as without a server, and then a server is started in the background for
the next command.

Safety:
- the socket lives in a folder private to the user (`$XDG_RUNTIME_DIR/idiom`, else
  `/tmp/idiom-UID`, mode 0700, checked), and the server serves only its own user (the
  peer's credentials are checked);
- one server per socket (a lock held for its lifetime), so concurrent first runs start one;
- the client forwards SIGINT, SIGTERM and SIGHUP to the command's process;
- a server idle for `IDIOM_SERVER_IDLE` seconds (default 600) exits;
- `IDIOM_SERVER=0` turns it off (the command then always runs in its own process);
  `idiom server stop|status` manage it.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import gc
import importlib
import json
import os
import pickle
import select
import signal
import socket
import struct
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cli import client

if TYPE_CHECKING:
    from matcher.shared_solve import Helper

__all__ = ["register", "serve", "socket_path"]

_HEADER = struct.Struct("!I")  # the request's length (cli/client.py)
_DEFAULT_IDLE_SECONDS = 600


def socket_path() -> Path | None:
    """The socket of the server for this exact tool; None when there can be none."""
    path = client.socket_path()
    return None if path is None else Path(path)


# ---------------------------------------------------------------------------- server


def serve(path: Path) -> None:
    """Serve `path` until idle; returns at once when another server holds it."""
    lock = open(f"{path}.lock", "a+")  # noqa: SIM115 - held for the server's lifetime
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    signal.signal(signal.SIGTERM, lambda _n, _f: _leave(path))
    _preload()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # left by a server that died
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(path))
    except OSError:
        listener.close()
        return
    listener.listen(64)
    listener.settimeout(float(os.environ.get("IDIOM_SERVER_IDLE", _DEFAULT_IDLE_SECONDS)))
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    status = _learnt_file(path)
    try:
        _accept_until_idle(listener, status)
    finally:
        _remove_files(path)
        listener.close()
        lock.close()


def _remove_files(path: Path) -> None:
    """The socket and the files kept beside it; the lock stays, for the next server."""
    for leftover in (path, _learnt_file(path), Path(_request_file(str(path)))):
        with contextlib.suppress(OSError):
            leftover.unlink()


def _learnt_file(path: Path) -> Path:
    """Where the server keeps how many sources it has learnt its plans from."""
    return path.with_name(path.name + ".learnt")


# The child forked ahead of the next request, waiting in `accept` (see `_accept_until_idle`).
_SPARE: list[int] = []


def _leave(path: Path) -> None:
    """Asked to stop: the socket removed, the waiting child ended and the process gone at
    once (a command being run is a process of its own, and goes on)."""
    _remove_files(path)
    _end_spare()
    os._exit(0)


def _end_spare() -> None:
    while _SPARE:
        with contextlib.suppress(OSError):
            os.kill(_SPARE.pop(), signal.SIGKILL)


def _accept_until_idle(listener: socket.socket, status: Path) -> None:
    """Keeps one child forked ahead, waiting for the next request: the fork (tens of
    milliseconds for the server's large heap) is then off the command's path. The child
    that takes a request tells the server, which forks the next one. Returns once no
    request came for the idle time.

    Between requests the server learns: each command's child reports the sources it
    compiled, and once nothing has happened for `_LEARN_AFTER` seconds the server
    analyses one of them itself, which builds in its own heap the search plans that
    command built in a child and lost (`matcher.solver_plan`; a large function's take a
    second to build). The waiting child, forked before, is then retired (unless it has
    just taken a request) and a new one forked with them."""
    idle = listener.gettimeout() or _DEFAULT_IDLE_SECONDS
    listener.settimeout(None)
    taken, tell = os.pipe()
    retired, retire = os.pipe()
    os.set_blocking(retired, False)
    learner = _Learner(status, retire)
    server_ends = (taken, tell, retired, retire, learner.reports, learner.report)
    try:
        while True:
            helper, helper_pid = _fork_helper(listener, server_ends)
            child = os.fork()
            if child == 0:
                # Only the server holds `retire`'s end: its death retires the child too.
                for descriptor in (taken, retire, learner.reports):
                    os.close(descriptor)
                from matcher.shared_solve import stand_by  # preloaded by the server

                stand_by(helper)
                os._exit(_serve_next(listener, tell, learner.report, retired))
            helper.close()
            _SPARE.extend((child, helper_pid))
            what = _wait_for_request(taken, learner, idle)
            if what is None:
                return
            _SPARE.remove(child)
            _SPARE.remove(helper_pid)  # it ends with the command's process
            with contextlib.suppress(BlockingIOError):
                os.read(retired, 64)  # a retirement the child did not need
            if what == _TAKEN:
                _wait_for_end_or_request(listener, learner)
    finally:
        _end_spare()
        for descriptor in (taken, tell, retired, retire, learner.reports, learner.report):
            os.close(descriptor)


def _fork_helper(listener: socket.socket, server_ends: Sequence[int]) -> tuple[Helper, int]:
    """The helper of the next command (matcher/shared_solve.py), forked and rehearsed
    like the command's process; it holds none of the server's own descriptors, so that
    it never keeps a pipe of the server open, and it ends with the command's process."""
    from matcher.pipeline import exported_programs  # preloaded by the server
    from matcher.shared_solve import Helper

    def rehearse(job_waiting: Callable[[], bool]) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        listener.close()
        for descriptor in server_ends:
            os.close(descriptor)
        _rehearse(job_waiting, print_table=False)

    return Helper.forked(exported_programs, rehearse)


def _wait_for_request(taken: int, learner: _Learner, idle: float) -> bytes | None:
    """What the waiting child said once it has taken a request (`_TAKEN`) or retired;
    None after `idle` seconds without a request. Learns meanwhile."""
    from matcher.shared_solve import readable  # preloaded by the server

    last_request = last_event = time.monotonic()
    while True:
        now = time.monotonic()
        if now - last_request >= idle:
            return None
        wait = idle - (now - last_request)
        if learner.pending:
            wait = min(wait, max(0.0, _LEARN_AFTER - (now - last_event)))
        ready, _, _ = select.select([taken, learner.reports], [], [], wait)
        if taken in ready:
            return os.read(taken, 1)
        if ready:
            learner.receive()
            last_event = time.monotonic()
        elif learner.pending and time.monotonic() - last_event >= _LEARN_AFTER:
            learner.learn_one(lambda: readable(taken))
            last_event = time.monotonic()


def _wait_for_end_or_request(listener: socket.socket, learner: _Learner) -> None:
    """After a child has taken a request, the next child is forked once that command has
    ended (its report has come) or another request is waiting, at most `_BUSY_SECONDS`
    later: the new child's rehearsal then does not take a processor from the command."""
    deadline = time.monotonic() + _BUSY_SECONDS
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([listener.fileno(), learner.reports], [], [], left)
        if listener.fileno() in ready:
            return
        if ready:
            learner.receive()
            return


def _serve_next(listener: socket.socket, tell: int, report: int, retired: int) -> int:
    """In the child forked ahead: take the next request, tell the server, run it, and
    report to the server what it compiled; or retire when the server has learnt."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from matcher import frontend_standby  # preloaded by the server
    from matcher.shared_solve import readable  # preloaded by the server

    _rehearse(lambda: readable(listener.fileno()))
    requests = str(listener.getsockname())
    _stand_by_front_end(requests)
    ready, _, _ = select.select([listener.fileno(), retired], [], [])
    if listener.fileno() not in ready:
        frontend_standby.discard()
        with contextlib.suppress(OSError):  # the server may be gone
            os.write(tell, b"r")
        return 0
    connection, _ = listener.accept()
    os.write(tell, _TAKEN)
    os.close(tell)
    listener.close()
    if _peer_uid(connection) != os.getuid():
        return 1
    from matcher.frontend import record_sources  # preloaded by the server

    compiled = record_sources()
    code = _run_request(connection, requests)
    frontend_standby.discard()
    _Learner.send(report, compiled)
    return code


def _stand_by_front_end(requests: str) -> None:
    """clang and opt started ahead (matcher/frontend_standby.py) as the last request's
    compile would have started them: its environment, folder and umask. A request that
    differs compiles as without them."""
    from matcher import frontend, frontend_standby  # preloaded by the server

    try:
        with open(_request_file(requests), encoding="utf-8") as saved:
            request = json.load(saved)
        folder, environment, umask = request["cwd"], request["env"], request["umask"]
        if not (isinstance(folder, str) and isinstance(environment, dict)):
            return
        search = environment.get("PATH", os.defpath)
        tools = frontend.find_tool("clang", search), frontend.find_tool("clang++", search)
        opt = frontend.opt_command(search)
        environment = {str(k): str(v) for k, v in environment.items()}
        frontend_standby.start(tools, opt, environment, folder, int(umask))
    except (OSError, ValueError, TypeError, KeyError, frontend.FrontendError):
        return  # no request yet, or one that cannot be repeated: no standby


def _save_request(requests: str) -> None:
    """The folder, environment and umask this child adopted, kept (readable by the user
    only) for the next child's standby front end; written before the command runs, so
    that a server stopped by the command removes it after."""
    target = _request_file(requests)
    draft = f"{target}.{os.getpid()}"
    with contextlib.suppress(OSError):
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            umask = os.umask(0)
            os.umask(umask)
            json.dump({"cwd": os.getcwd(), "env": dict(os.environ), "umask": umask}, out)
        os.replace(draft, target)


def _request_file(requests: str) -> str:
    return f"{requests}.request"


# What a child forked ahead tells the server when it has taken a request.
_TAKEN = b"x"
# The longest the next child waits to be forked while a command runs.
_BUSY_SECONDS = 5.0
# Seconds without a request or a report before the server learns from a source.
_LEARN_AFTER = 0.3
# A source learnt from once is not analysed again until it changes; at most this many
# wait, the most recent kept.
_LEARN_PENDING = 32


class _Learner:
    """The sources the server's commands compiled, and the server's analysis of them."""

    def __init__(self, status: Path, retire: int) -> None:
        self.reports, self.report = os.pipe()
        self.retire = retire  # written to retire the child waiting with older plans
        self.pending: dict[tuple[object, ...], tuple[str, str, object]] = {}
        self.learnt: set[tuple[object, ...]] = set()
        self.status = status

    @staticmethod
    def send(report: int, compiled: Sequence[tuple[str, str, object]]) -> None:
        """In a child, once its command has ended: the sources it compiled, in one write
        (atomic below PIPE_BUF); an empty list when it compiled none, since the report
        also tells the server that the command has ended."""
        payload = pickle.dumps([])
        for count in range(min(len(compiled), 16), 0, -1):
            candidate = pickle.dumps(compiled[:count])
            if len(candidate) + _HEADER.size <= select.PIPE_BUF:
                payload = candidate
                break
        with contextlib.suppress(OSError):
            os.write(report, _HEADER.pack(len(payload)) + payload)

    def receive(self) -> None:
        data = os.read(self.reports, 1 << 16)
        while len(data) >= _HEADER.size:
            (size,) = _HEADER.unpack(data[: _HEADER.size])
            chunk, data = data[_HEADER.size : _HEADER.size + size], data[_HEADER.size + size :]
            with contextlib.suppress(Exception):  # from a child of this server: trusted
                for path, folder, options in pickle.loads(chunk):
                    self._add(path, folder, options)

    def _add(self, path: str, folder: str, options: object) -> None:
        with contextlib.suppress(OSError):
            key = (path, os.stat(path).st_mtime_ns, repr(options))
            if key not in self.learnt:
                self.pending.pop(key, None)
                self.pending[key] = (path, folder, options)
                while len(self.pending) > _LEARN_PENDING:
                    del self.pending[next(iter(self.pending))]

    def learn_one(self, request_taken: Callable[[], bool]) -> None:
        """Analyses the most recent pending source here, from its own folder. A command
        that starts meanwhile (`request_taken`) stops it between two searches, so that
        learning never takes a processor from a command: the source stays pending, and
        what was learnt of it so far is kept."""
        key = next(reversed(self.pending))
        path, folder, options = self.pending[key]
        here = os.getcwd()
        finished = True
        try:
            os.chdir(folder)
            finished = _learn_from(path, options, request_taken)
        except Exception:  # learning is best effort: a failure costs nothing
            pass
        finally:
            os.chdir(here)
        if not finished:
            return  # a child has the request: nothing to retire, no collection beside it
        del self.pending[key]
        self.learnt.add(key)
        gc.collect()
        gc.freeze()
        os.write(self.retire, b"r")
        with contextlib.suppress(OSError):
            self.status.write_text(f"{len(self.learnt)}\n", encoding="utf-8")


def _learn_from(path: str, options: object, stop: Callable[[], bool]) -> bool:
    """Every search of `path`'s detection made here, which builds their plans in the
    server's heap; False when `stop()` said to stop first."""
    from matcher.detect import detect_pair  # preloaded by the server
    from matcher.frontend import CompileOptions, canonical_ir
    from matcher.ir_builder import build_module
    from matcher.pipeline import exported_programs, paused_gc

    if not isinstance(options, CompileOptions):
        return True
    programs = exported_programs(())
    with paused_gc():
        module = build_module(canonical_ir(Path(path), options), path)
        for function in module:
            for program in programs:
                if stop():
                    return False
                detect_pair(program, function, module.source)
    return True


def _peer_uid(connection: socket.socket) -> int:
    credentials = connection.getsockopt(
        socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")
    )
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return int(uid)


def _preload() -> None:
    """Everything a command would load: the commands, LLVM's bindings, the library; then
    one small file analysed, which builds the solver's plans the first file would; its
    IR kept for the rehearsal of each child (`_rehearse`)."""
    import tempfile

    import cli.main
    from matcher.frontend import CompileOptions, canonical_ir
    from matcher.pipeline import analyse_file, exported_programs

    cli.main.build_parser()
    exported_programs(())
    with tempfile.TemporaryDirectory(prefix="idiom-server-") as folder:
        sample = Path(folder) / "warm.c"
        sample.write_text(_WARM_UP, encoding="utf-8")
        analyse_file(str(sample), CompileOptions())
        _REHEARSED_IR.append(canonical_ir(sample))
    gc.collect()
    gc.freeze()  # the children then leave these objects' pages unwritten


# The IR of `_WARM_UP`, which each child forked ahead detects on (`_rehearse`).
_REHEARSED_IR: list[str | bytes] = []


def _rehearse(waiting: Callable[[], bool], *, print_table: bool = True) -> None:
    """In the child forked ahead, before it waits for a request: what a detection does
    (the command parsed, the IR of `_WARM_UP` modelled and searched function by function,
    a table printed), its output thrown away. A forked child's first write to a page of
    the server's heap copies the page, and Python writes reference counts into every
    object it uses: without a rehearsal a command that did nothing took 10-20 ms in a
    child against 1 ms in the server. Each kind of loop of `_WARM_UP` (a dot product, a
    matrix product, a sparse product, a histogram, a stencil) touches the plans and
    library objects that files with such loops use: rehearsed on a dot product alone, a
    detection of a small corpus file still copied 5,000-8,000 pages, on the five loops
    450-1,100 (docs/startup.md). The rehearsal stops at the next function as soon as
    `waiting()` (a request, or a helper's job). A command's helper rehearses the same way,
    without the table, which it never prints."""
    import io

    import cli.main
    from cli import detect_cmd
    from matcher.detect import Instance, detect_module
    from matcher.ir import Module
    from matcher.ir_builder import build_module
    from matcher.pipeline import FileResult, exported_programs, paused_gc

    if not _REHEARSED_IR or waiting():
        return
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    try:
        cli.main.build_parser("detect").parse_args(["detect", "warm.c"])
        found: list[Instance] = []
        with paused_gc():
            module = build_module(_REHEARSED_IR[0], "warm.c")
            for function in module:
                if waiting():
                    return
                part = Module(module.source, (function,), module.text)
                found += detect_module(part, exported_programs(())).instances
        if print_table:
            detect_cmd.print_table([FileResult("warm.c", tuple(found))])
    except Exception:  # a rehearsal is best effort: the command itself reports failures
        pass
    finally:
        sys.stdout, sys.stderr = saved


_WARM_UP = """
double dot(int n, const double *x, const double *y) {
  double s = 0; for (int i = 0; i < n; i++) s += x[i] * y[i]; return s; }
void gemm(int n, double *c, const double *a, const double *b) {
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { double s = 0;
    for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j]; c[i * n + j] = s; } }
void spmv(int n, const int *r, const int *c, const double *v, const double *x, double *y) {
  for (int i = 0; i < n; i++) { double s = 0;
    for (int k = r[i]; k < r[i + 1]; k++) s += v[k] * x[c[k]]; y[i] = s; } }
void hist(int n, const int *k, int *h) { for (int i = 0; i < n; i++) h[k[i]]++; }
void jacobi(int n, const double *a, double *b) {
  for (int i = 1; i < n - 1; i++) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3; }
"""


def _run_request(connection: socket.socket, requests: str) -> int:
    """In the forked child: take over the client's process state, run, report."""
    try:
        message, fds, _flags, _address = socket.recv_fds(connection, _HEADER.size, 3)
        (size,) = _HEADER.unpack(message)
        request = json.loads(_receive(connection, size))
        _adopt(request, fds)
        connection.sendall(f"pid {os.getpid()}\n".encode())
    except (OSError, ValueError, KeyError, struct.error):
        return 1  # the client sees no pid line and runs the command itself
    _save_request(requests)
    code = _run_entry(request["entry"], request["argv"])
    _release_streams()
    with contextlib.suppress(OSError):
        connection.sendall(f"exit {code}\n".encode())
    return code


def _release_streams() -> None:
    """Lets go of the client's standard streams before the exit status is sent: a reader
    of the client's output then sees its end when the client exits, not once this
    process has been torn down (its large heap takes milliseconds)."""
    null = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target)
    os.close(null)


def _receive(connection: socket.socket, size: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        chunk = connection.recv(min(size, 1 << 20))
        if not chunk:
            raise ValueError("request cut short")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _adopt(request: dict[str, object], fds: list[int]) -> None:
    if len(fds) != 3:
        raise ValueError("expected the client's three standard streams")
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    for number in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.chdir(str(request["cwd"]))
    os.umask(int(str(request["umask"])))
    environment = request["env"]
    if not isinstance(environment, dict):
        raise ValueError("bad environment")
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in environment.items()})
    # New streams over the client's descriptors: the inherited objects may hold buffered
    # bytes of the server and the server's notion of whether they are terminals.
    sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115


def _run_entry(entry: str, argv: list[str]) -> int:
    sys.argv = [entry, *argv]
    try:
        code = importlib.import_module(entry).main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except KeyboardInterrupt:
        code = 130
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    return int(code)


# ---------------------------------------------------------------------------- command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "server",
        help="the background process that makes commands start fast",
        description="Commands run in a warm background process, started by the first "
        "command and ended after IDIOM_SERVER_IDLE seconds idle (default 600); "
        "IDIOM_SERVER=0 turns it off. `start` returns once the server answers.",
    )
    parser.add_argument("action", choices=("status", "stop", "start"))
    parser.set_defaults(handler=_command)


def _command(args: argparse.Namespace) -> int:
    path = socket_path()
    if path is None:
        print("idiom: no private folder for the server's socket", file=sys.stderr)
        return 1
    connection = client.connect(str(path))
    running = connection is not None
    if connection is not None:
        connection.close()
    if args.action == "status":
        print(f"{'running' if running else 'not running'}: {path}")
        with contextlib.suppress(OSError, ValueError):
            learnt = int(_learnt_file(path).read_text(encoding="utf-8"))
            print(f"search plans learnt from {learnt} source(s)")
    elif args.action == "start":
        if not running and not _started(path, _START_SECONDS):
            print(f"idiom: the server did not answer within {_START_SECONDS} s", file=sys.stderr)
            return 1
        print(f"running: {path}")
    elif args.action == "stop" and running:
        _stop(path)
        print(f"stopped: {path}")
    return 0


# How long `idiom server start` waits for the server to answer: loading the library from
# an empty cache takes a minute on a slow machine.
_START_SECONDS = 600


def _started(path: Path, seconds: float) -> bool:
    """A server started for `path`, waited for until it answers."""
    client.start_server(str(path))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        connection = client.connect(str(path))
        if connection is not None:
            connection.close()
            return True
        time.sleep(0.2)
    return False


def _stop(path: Path) -> None:
    """The server holding `path`'s lock (its pid is written in the lock file) sent
    SIGTERM; a lock nobody holds names no server."""
    try:
        with open(f"{path}.lock", "a+") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return  # free: no server
            except OSError:
                lock.seek(0)
                pid = int(lock.read().strip() or "0")
    except (OSError, ValueError):
        return
    if pid <= 0:
        return
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)
    for _ in range(50):
        if not _alive(pid):
            return
        time.sleep(0.1)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
