"""One file's searches on two processors: a helper process standing by to share them.

A served `idiom detect FILE` analyses one file, and most of its time goes to the search
of every (function, idiom) pair, each independent of the others. The warm server
(cli/server.py) forks, beside the process that will take the next command, a helper
that waits (`Helper.forked`); forking it on the command's path would cost more than it
saves (a fork and an exit of the server's large heap take 30-60 ms). When the command
has the file's IR, it sends it to the helper (`begin`), which builds its own model from
it while the command builds its own: the build is deterministic, so their functions
line up by position. Then both take pairs from one queue until none is left
(`detect_pairs`). The helper sends back what it found, the instances without their IR
solution (the plain data a report needs) and each region's loop by its header block;
the command puts everything in the order a lone process would have produced it.
Sharing changes the time, never the report.

The queue is a pipe holding every pair's number as 4 bytes, written in one go before
either process reads: a read of 4 bytes takes one whole number, so no pair is taken
twice. Whatever the helper does not report (it died, say) the command searches itself.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from idl.program import Program
from matcher.analysis import Loop
from matcher.detect import Detection, Instance, PairFound, detect_pair
from matcher.ir import Function, Module
from matcher.ir_builder import build_module

__all__ = ["Helper", "Pair", "readable", "stand_by", "standing"]

Pair = tuple[int, int]  # (function number, program number)
_NUMBER = struct.Struct("!I")
# The queue is written in one go, so it must fit a pipe's buffer (64 KiB on Linux).
_MOST_PAIRS = 16_000
# A pair as the helper reports it: its cut-short search, and its instances, each with
# the index of its loop's header block (-1: none).
_Reported = tuple[Detection | None, list[tuple[Instance, int]]]
# The programs of a job's idiom folders (matcher.pipeline.exported_programs).
ProgramsOf = Callable[[tuple[str, ...]], Sequence[Program]]


class Helper:
    """The two ends of a command's helper, in the command's process."""

    def __init__(self, job: int, queue_read: int, queue_write: int, results: int) -> None:
        self.job = job  # the command writes the file's IR here
        self.queue_read = queue_read
        self.queue_write = queue_write
        self.results = results  # the helper's report comes from here

    @classmethod
    def forked(
        cls, programs_of: ProgramsOf, rehearse: Callable[[Callable[[], bool]], None]
    ) -> tuple[Helper, int]:
        """Forks the helper; in the parent, the command's ends of its pipes (to be
        inherited by the command's process, forked next) and the helper's pid. The
        helper calls `rehearse` with a test of whether its job has come, then waits for
        the job, does it and exits; it exits at once when the job's pipe is closed
        unused."""
        job_read, job_write = os.pipe()
        queue_read, queue_write = os.pipe()
        results_read, results_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the helper's code runs in the forked process
            code = 1
            try:
                for descriptor in (job_write, queue_write, results_read):
                    os.close(descriptor)
                rehearse(lambda: readable(job_read))
                _help(job_read, queue_read, results_write, programs_of)
                code = 0
            finally:
                os._exit(code)
        for descriptor in (job_read, results_write):
            os.close(descriptor)
        return cls(job_write, queue_read, queue_write, results_read), pid

    def close(self) -> None:
        """Lets go of the helper (in a process that is not the command's)."""
        for descriptor in (self.job, self.queue_read, self.queue_write, self.results):
            with contextlib.suppress(OSError):
                os.close(descriptor)

    def begin(self, ir: str | bytes, source: str, idiom_dirs: tuple[str, ...]) -> bool:
        """Sends the job; False when the helper is gone (the command then works alone).
        The command's folder goes with it: a source given by a relative path is named
        from there (matcher/debuginfo.py), and the helper started in the server's."""
        job = (ir, source, idiom_dirs, os.getcwd())
        payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            _write_all(self.job, _NUMBER.pack(len(payload)) + payload)
        except OSError:
            self.close()
            return False
        os.close(self.job)
        return True

    def detect_pairs(self, module: Module, programs: Sequence[Program]) -> dict[Pair, PairFound]:
        """Every (function, program) pair of `module` searched, shared with the helper
        (its instances without their IR solutions)."""
        pairs = _pairs_costliest_first(module, programs)
        numbers = b"".join(_NUMBER.pack(n) for n in range(min(len(pairs), _MOST_PAIRS)))
        _write_all(self.queue_write, numbers)
        os.close(self.queue_write)
        found: dict[Pair, PairFound] = {}
        for number in _taken(self.queue_read):
            f, p = pairs[number]
            found[pairs[number]] = _stripped(
                detect_pair(programs[p], module.functions[f], module.source)
            )
        os.close(self.queue_read)
        loops: dict[int, dict[int, Loop]] = {}  # each function's loops by header block
        for number, (cut, reported) in _read_report(self.results).items():
            if 0 <= number < len(pairs) and pairs[number] not in found:
                f = pairs[number][0]
                if f not in loops:
                    loops[f] = _loops_by_header(module.functions[f])
                found[pairs[number]] = (cut, [(i, loops[f].get(h)) for i, h in reported])
        return found


# The helper of the command that this process may run (`stand_by`).
_STANDING: list[Helper] = []


def stand_by(helper: Helper) -> None:
    """Makes `helper` the one this process's command may take (`standing`)."""
    _STANDING[:] = [helper]


def standing() -> Helper | None:
    """The helper standing by for this process's command, taken (at most once)."""
    return _STANDING.pop() if _STANDING else None


def _help(  # pragma: no cover - forked
    job: int, queue: int, results: int, programs_of: ProgramsOf
) -> None:
    """The helper's work: the job read, the model built, pairs taken until none is left."""
    header = _read_exactly(job, _NUMBER.size)
    if header is None:
        return  # the command's process ended without a job
    payload = _read_exactly(job, _NUMBER.unpack(header)[0])
    if payload is None:
        return
    ir, source, idiom_dirs, folder = pickle.loads(payload)
    try:
        os.chdir(folder)
    except OSError:
        return  # no pair taken: the command searches them all
    programs = programs_of(idiom_dirs)
    module = build_module(ir, source)
    pairs = _pairs_costliest_first(module, programs)
    parent = os.getppid()
    done: dict[int, _Reported] = {}
    for number in _taken(queue):
        if os.getppid() != parent:
            return  # the server is gone
        f, p = pairs[number]
        function = module.functions[f]
        cut, found = detect_pair(programs[p], function, module.source)
        done[number] = (cut, [(_strip(i), _header_index(loop)) for i, loop in found])
    payload = pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL)
    _write_all(results, payload)
    os.close(results)


def _pairs_costliest_first(module: Module, programs: Sequence[Program]) -> list[Pair]:
    """Every pair, the costliest first (the function's size times its idiom's typical
    search time): the last pairs taken are then short, and neither process waits long
    for the other at the end. In the library's order the stencil idiom, the costliest,
    came last, and the process that took it searched on alone for up to a fifth of a
    large function's searches. Both processes compute the same order: the sort is stable
    and reads only the model and the programs' names."""
    weights = [_TYPICAL_SECONDS.get(program.name, _UNLISTED_SECONDS) for program in programs]
    sizes = [len(function.values) for function in module.functions]
    pairs = [(f, p) for f in range(len(sizes)) for p in range(len(programs))]
    return sorted(pairs, key=lambda pair: -sizes[pair[0]] * weights[pair[1]])


# Each shipped idiom's seconds of searching over every eighth corpus file, its plans
# built (`benchmarks/profile_idioms.py --passes 2`, 2026-12-04): only their order matters.
# An idiom of another library counts as the median.
_TYPICAL_SECONDS = {
    "Stencil": 0.65,
    "Map": 0.48,
    "GEMV": 0.36,
    "SYMM": 0.34,
    "Reduction": 0.32,
    "GEMM": 0.19,
    "TRMM": 0.17,
    "Scan": 0.11,
    "SYRK": 0.10,
    "SYR2K": 0.08,
    "SpMV_CSR": 0.07,
    "Histogram": 0.03,
    "GER": 0.02,
    "SpMV_COO": 0.02,
    "SpMV_ELL": 0.02,
    "SpMV_JDS": 0.01,
    "TRSV": 0.01,
}
_UNLISTED_SECONDS = sorted(_TYPICAL_SECONDS.values())[len(_TYPICAL_SECONDS) // 2]


def _taken(queue: int) -> Iterator[int]:
    """The pair numbers this process takes from the queue, until it is empty."""
    while True:
        chunk = os.read(queue, _NUMBER.size)
        if len(chunk) < _NUMBER.size:
            return
        yield _NUMBER.unpack(chunk)[0]


def _read_report(results: int) -> dict[int, _Reported]:
    """The helper's report once it has ended; empty when it failed."""
    with open(results, "rb") as source:
        payload = source.read()
    try:
        found = pickle.loads(payload) if payload else {}
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        return {}
    return found if isinstance(found, dict) else {}


def _strip(instance: Instance) -> Instance:
    return replace(instance, solution={}, solutions=())


def _stripped(pair: PairFound) -> PairFound:
    cut, found = pair
    return cut, [(_strip(i), loop) for i, loop in found]


def _header_index(loop: Loop | None) -> int:
    return -1 if loop is None else loop.header.index


def _loops_by_header(function: Function) -> dict[int, Loop]:
    return {loop.header.index: loop for loop in function.loops.loops}


def readable(descriptor: int) -> bool:
    """Whether reading `descriptor` would not block now (data, a connection, or EOF)."""
    import select  # noqa: PLC0415 - asked by the rehearsals and the learning only

    return bool(select.select([descriptor], [], [], 0)[0])


def _read_exactly(descriptor: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    while size > 0:
        chunk = os.read(descriptor, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
