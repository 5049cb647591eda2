"""The front end started ahead: the same IR and the same errors as a fresh start, and
never used where a fresh start could differ."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from matcher import frontend, frontend_standby
from matcher.frontend import CompileOptions, FrontendError, canonical_ir, compile_to_ir

ROOT = Path(__file__).resolve().parents[2]
C_PROGRAM = ROOT / "corpus" / "gemv_trans_flat.c"
CXX_PROGRAM = ROOT / "corpus" / "coo_matrix.cpp"


@pytest.fixture
def used(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The clang each standby front end ran as, in order; no standby is left behind."""
    calls: list[str] = []
    original = frontend_standby.Standby.front_end

    def counted(
        self: frontend_standby.Standby, clang: str, arguments: list[str]
    ) -> tuple[int, bytes, str]:
        calls.append(clang)
        return original(self, clang, arguments)

    monkeypatch.setattr(frontend_standby.Standby, "front_end", counted)
    yield calls
    frontend_standby.discard()


def _stand_by(folder: Path | None = None) -> None:
    umask = os.umask(0)
    os.umask(umask)
    frontend_standby.start(
        (frontend.find_tool("clang"), frontend.find_tool("clang++")),
        frontend.opt_command(),
        dict(os.environ),
        str(folder or Path.cwd()),
        umask,
    )


@pytest.mark.parametrize("program", [C_PROGRAM, CXX_PROGRAM], ids=["c", "c++"])
def test_the_standby_gives_the_ir_of_a_fresh_start(program: Path, used: list[str]) -> None:
    # Bitcode, not text: llvmlite renames a second module's types in its context.
    fresh = canonical_ir(program)
    _stand_by()
    assert canonical_ir(program) == fresh
    assert used == [frontend.find_tool("clang++" if program.suffix == ".cpp" else "clang")]
    assert canonical_ir(program) == fresh
    assert len(used) == 1, "a standby serves one compile"


def test_user_flags_with_spaces_and_quotes_reach_clang_as_they_are(
    tmp_path: Path, used: list[str]
) -> None:
    source = tmp_path / "odd name's.c"
    source.write_text("const char *label(void) { return NAME; }\n")
    options = CompileOptions(defines=("NAME=\"a b\\\\c 'd'\"",))
    fresh = compile_to_ir(source, options)
    _stand_by()
    assert compile_to_ir(source, options) == fresh
    assert used, "the standby served the compile"
    assert "c\"a b\\\\c 'd'\\00\"" in fresh


def test_clangs_message_is_the_same_on_a_standby(tmp_path: Path, used: list[str]) -> None:
    broken = tmp_path / "broken.c"
    broken.write_text("int f(void) { return }\n")
    with pytest.raises(FrontendError) as fresh:
        compile_to_ir(broken)
    _stand_by()
    with pytest.raises(FrontendError) as standing:
        compile_to_ir(broken)
    assert used
    assert str(standing.value) == str(fresh.value)
    assert "expected expression" in str(fresh.value)


def test_another_folder_or_environment_compiles_as_before(
    tmp_path: Path, used: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stand_by(tmp_path)
    compile_to_ir(C_PROGRAM)
    _stand_by()
    monkeypatch.setenv("CPATH", str(tmp_path))
    compile_to_ir(C_PROGRAM)
    assert used == []
    monkeypatch.delenv("CPATH")
    monkeypatch.setenv("OLDPWD", str(tmp_path))  # the shell's, never read by clang
    _stand_by()
    compile_to_ir(C_PROGRAM)
    assert len(used) == 1


def test_arguments_a_response_file_cannot_carry_compile_as_before(used: list[str]) -> None:
    options = CompileOptions(defines=("SPLIT=1\n",))
    _stand_by()
    assert "define" in compile_to_ir(C_PROGRAM, options)
    assert used == []
    assert not frontend_standby.expressible(["-DA=1\n"])
    assert not frontend_standby.expressible([""])
    assert not frontend_standby.expressible(["@more-arguments"])
    assert frontend_standby.expressible(["-DA=a b", "x's.c"])


def test_a_forked_process_never_takes_its_parents_standby(used: list[str]) -> None:
    _stand_by()
    child = os.fork()
    if child == 0:
        try:
            compile_to_ir(C_PROGRAM)
            os._exit(0 if not used else 3)
        except BaseException:
            os._exit(4)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    compile_to_ir(C_PROGRAM)
    assert len(used) == 1, "the parent still had its standby"


def test_a_tool_replaced_meanwhile_is_started_afresh(
    tmp_path: Path, used: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stand_by()
    replaced = [None, *frontend_standby._identities([frontend.find_tool("opt")] * 2)]
    monkeypatch.setattr(frontend_standby, "_identities", lambda _paths: replaced)
    assert "define" in compile_to_ir(C_PROGRAM)
    assert used == []
    monkeypatch.undo()
    tool = tmp_path / "tool"
    tool.write_bytes(b"one")
    before = frontend_standby._identities([str(tool)])
    (tmp_path / "new").write_bytes(b"one")
    (tmp_path / "new").replace(tool)  # as a package upgrade replaces a file
    assert frontend_standby._identities([str(tool)]) != before


def test_a_folder_made_again_under_the_same_name_is_another(
    tmp_path: Path, used: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    _stand_by(work)
    work.rmdir()
    work.mkdir()
    (work / "k.c").write_text("int k(void) { return 1; }\n")
    monkeypatch.chdir(work)
    assert "define" in compile_to_ir(Path("k.c"))
    assert used == []


def test_another_umask_compiles_as_before(used: list[str]) -> None:
    _stand_by()
    previous = os.umask(0o077 if os.umask(0o022) != 0o077 else 0o022)
    try:
        assert "define" in compile_to_ir(C_PROGRAM)
    finally:
        os.umask(previous)
    assert used == []


def test_a_clang_ended_before_its_arguments_means_a_fresh_start(
    used: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = canonical_ir(C_PROGRAM)
    _stand_by()
    (standby,) = frontend_standby._STANDING
    clang = standby.clangs[frontend.find_tool("clang")].process
    clang.kill()
    clang.wait()
    assert canonical_ir(C_PROGRAM) == fresh
    assert used == [], "an ended clang is never used"
    # Ended between the check and the write of its arguments: the write fails.
    _stand_by()
    (standby,) = frontend_standby._STANDING
    clang = standby.clangs[frontend.find_tool("clang")].process
    clang.kill()
    clang.wait()
    monkeypatch.setattr(frontend_standby.Standby, "serves", lambda *_: True)
    assert canonical_ir(C_PROGRAM) == fresh
    assert len(used) == 1, "tried, lost, compiled afresh"


def test_the_cxx_driver_is_started_under_its_own_name(used: list[str]) -> None:
    """The name selects the configuration files clang reads (`clang++.cfg`, not
    `clang.cfg`) and names it in its messages."""
    _stand_by()
    (standby,) = frontend_standby._STANDING
    command = standby.clangs[frontend.find_tool("clang++")].process.args
    assert isinstance(command, list)
    assert command[0] == frontend.find_tool("clang++")
    assert not any("driver-mode" in str(a) for a in command)
