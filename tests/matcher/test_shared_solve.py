"""One file's searches shared with a helper process: the report is a lone process's."""

from __future__ import annotations

import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from matcher import shared_solve
from matcher.detect import detect_module
from matcher.frontend import CompileOptions, canonical_ir
from matcher.ir_builder import build_module
from matcher.pipeline import FileResult, analyse_file, analyse_files, exported_programs

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
# Several functions, instances nested in others (`within`), and loops of each kind.
PROGRAMS = ("trsv_lu_flat.c", "gemv_pair_2d_inline.c", "stencil_prolong_odd.c")


def _no_rehearsal(_job_waiting: Callable[[], bool]) -> None:
    pass


@contextmanager
def _helper() -> Iterator[tuple[shared_solve.Helper, int]]:
    helper, pid = shared_solve.Helper.forked(exported_programs, _no_rehearsal)
    try:
        yield helper, pid
    finally:
        helper.close()
        with suppress(ChildProcessError):  # reaped by the test
            os.waitpid(pid, 0)


def _report(result: FileResult) -> tuple[object, ...]:
    return tuple(i.to_json() for i in result.instances), result.cut_short


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_file_analysed_with_a_helper_reports_what_one_alone_does(name: str) -> None:
    path = str(CORPUS / name)
    alone = analyse_file(path, CompileOptions())
    with _helper() as (helper, _pid):
        shared = analyse_file(path, CompileOptions(), helper=helper)
    assert shared.error is None and alone.instances
    assert _report(shared) == _report(alone)


def test_the_helper_names_files_from_the_commands_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper forked in another folder (the server's) reports a source given by a
    relative path as given, not as an absolute path."""
    with _helper() as (helper, _pid):
        work = tmp_path / "work"
        work.mkdir()
        (work / "k.c").write_text((CORPUS / PROGRAMS[1]).read_text())
        monkeypatch.chdir(work)
        alone = analyse_file("k.c", CompileOptions())
        shared = analyse_file("k.c", CompileOptions(), helper=helper)
    assert {i.source_file for i in alone.instances} == {"k.c"}
    assert _report(shared) == _report(alone)


def test_the_helper_works_in_the_folder_of_the_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper's work run here from another folder, every pair taken by it: it names
    the relative source from the job's folder."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "k.c").write_text((CORPUS / "red_dot.c").read_text())
    monkeypatch.chdir(work)
    ir = canonical_ir(Path("k.c"))
    programs = exported_programs()
    pairs = len(build_module(ir, "k.c").functions) * len(programs)
    monkeypatch.chdir(tmp_path)
    job_read, job_write = os.pipe()
    queue_read, queue_write = os.pipe()
    results_read, results_write = os.pipe()
    payload = pickle.dumps((ir, "k.c", (), str(work)))
    os.write(job_write, shared_solve._NUMBER.pack(len(payload)) + payload)
    os.write(queue_write, b"".join(shared_solve._NUMBER.pack(n) for n in range(pairs)))
    os.close(queue_write)
    reading = threading.Thread(target=lambda: found.update(shared_solve._read_report(results_read)))
    found: dict[int, object] = {}
    reading.start()
    shared_solve._help(job_read, queue_read, results_write, lambda _dirs: programs)
    reading.join()
    for descriptor in (job_read, job_write, queue_read):  # the others closed by the two
        os.close(descriptor)
    names = {i.source_file for _cut, instances in found.values() for i, _h in instances}  # type: ignore[attr-defined]
    assert names == {"k.c"}


def test_what_the_helper_found_comes_back_with_its_loops() -> None:
    """The helper's work run here, every pair taken by it: its report, decoded against
    this process's model, is what detection finds (regions, loops, nesting)."""
    path = str(CORPUS / "gemv_pair_2d_inline.c")
    ir = canonical_ir(Path(path))
    programs = exported_programs()
    module = build_module(ir, path)
    pairs = len(module.functions) * len(programs)
    job_read, job_write = os.pipe()
    queue_read, queue_write = os.pipe()
    results_read, results_write = os.pipe()
    payload = pickle.dumps((ir, path, (), os.getcwd()))
    job = shared_solve._NUMBER.pack(len(payload)) + payload
    # Written from a thread: `_help`, run here, reads it (a pipe holds only 64 KiB).
    writer = threading.Thread(target=shared_solve._write_all, args=(job_write, job))
    writer.start()
    os.write(queue_write, b"".join(shared_solve._NUMBER.pack(n) for n in range(pairs)))
    os.close(queue_write)
    shared_solve._help(job_read, queue_read, results_write, lambda _dirs: programs)
    writer.join()
    for descriptor in (job_read, job_write, queue_read):
        os.close(descriptor)
    report = shared_solve._read_report(results_read)
    assert sorted(report) == list(range(pairs))
    order = shared_solve._pairs_costliest_first(module, programs)
    done = {}
    for n, (cut, found) in report.items():
        loops = shared_solve._loops_by_header(module.functions[order[n][0]])
        done[order[n]] = (cut, [(instance, loops.get(header)) for instance, header in found])
    assert any(loop is not None for _cut, found in done.values() for _i, loop in found)
    helped = detect_module(module, programs, done=done)
    alone = detect_module(build_module(ir, path), programs)
    assert [i.to_json() for i in helped.instances] == [i.to_json() for i in alone.instances]
    assert any(i.within for i in alone.instances), "nesting is part of what is compared"


def test_a_helper_gone_before_the_job_leaves_the_command_to_work_alone() -> None:
    path = str(CORPUS / "trsv_lu_flat.c")
    alone = analyse_file(path, CompileOptions())
    with _helper() as (helper, pid):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        shared = analyse_file(path, CompileOptions(), helper=helper)
    assert _report(shared) == _report(alone)


def test_a_helper_stands_by_for_one_file_only(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[object] = []
    monkeypatch.setattr(shared_solve, "standing", lambda: taken.append(1))
    analyse_files([str(CORPUS / "red_dot.c")], CompileOptions())
    analyse_files([str(CORPUS / "red_dot.c")], CompileOptions(), jobs=1)
    assert taken == [1], "one file takes the standing helper, unless told one job"


def test_pairs_are_handed_out_costliest_first() -> None:
    """The largest function's stencil search first, the cheap sparse idioms of small
    functions last; an idiom of another library counts as the median; every pair once."""
    module = build_module(canonical_ir(CORPUS / "red_memory.c"), "red_memory.c")
    programs = list(exported_programs(()))
    order = shared_solve._pairs_costliest_first(module, programs)
    assert sorted(order) == [(f, p) for f in range(len(module.functions)) for p in range(17)]
    largest = max(range(len(module.functions)), key=lambda f: len(module.functions[f].values))
    assert order[0] == (largest, [p.name for p in programs].index("Stencil"))
    assert programs[order[-1][1]].name in ("SpMV_JDS", "TRSV")
    renamed = [*programs[:-1], _Renamed(programs[-1])]
    again = shared_solve._pairs_costliest_first(module, renamed)  # type: ignore[arg-type]
    typical = sorted(shared_solve._TYPICAL_SECONDS.values())
    assert typical[len(typical) // 2] == shared_solve._TYPICAL_SECONDS["SYRK"]
    syrk = [p.name for p in programs].index("SYRK")
    largest_pairs = [pair for pair in again if pair[0] == largest]
    assert largest_pairs.index((largest, 16)) == largest_pairs.index((largest, syrk)) + 1


class _Renamed:
    """A program of another library: its name not in the table."""

    def __init__(self, program: object) -> None:
        self.name = "NotShipped"
        self.program = program
