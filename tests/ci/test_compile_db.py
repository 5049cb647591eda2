"""compile_commands.json: per-unit flags kept for the front end, the rest dropped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ci.compile_db import CompileDbError, frontend_flags, load_compile_db


def test_front_end_flags_kept_and_build_flags_dropped(tmp_path: Path) -> None:
    arguments = [
        "-c", "-o", "obj/a.o", "-MD", "-MF", "obj/a.d", "-O3", "-g", "-Wall", "-Werror",
        "-Iinclude", "-I", "/abs/inc", "-isystem", "sys", "-include", "config.h",
        "-DFAST=1", "-D", "SLOW", "-UNDEBUG", "-std=c11", "-fopenmp", "-march=native",
        "-flto", "-fsanitize=address", "--sysroot", "root", "--sysroot=/r2", "src/a.c",
    ]  # fmt: skip
    flags = frontend_flags(arguments, tmp_path)
    assert flags == (
        f"-I{tmp_path / 'include'}",
        "-I/abs/inc",
        f"-isystem{tmp_path / 'sys'}",
        f"-include{tmp_path / 'config.h'}",
        "-DFAST=1",
        "-DSLOW",
        "-UNDEBUG",
        "-std=c11",
        "-fopenmp",
        "-march=native",
        f"--sysroot={tmp_path / 'root'}",
        "--sysroot=/r2",
    )


def test_entries_with_arguments_or_a_command(tmp_path: Path) -> None:
    build = tmp_path / "build"
    build.mkdir()
    entries = [
        {"directory": str(build), "file": "../a.c", "arguments": ["cc", "-DA", "-c", "../a.c"]},
        {"directory": str(build), "file": str(tmp_path / "b.c"),
         "command": "cc -D'NAME=\"two words\"' -c b.c -o b.o"},
    ]  # fmt: skip
    (build / "compile_commands.json").write_text(json.dumps(entries))
    units = load_compile_db(build)
    assert [(u.source, u.directory, u.flags) for u in units] == [
        (tmp_path / "a.c", build, ("-DA",)),
        (tmp_path / "b.c", build, ('-DNAME="two words"',)),
    ]
    assert [u.source for u in load_compile_db(build, [tmp_path / "b.c"])] == [tmp_path / "b.c"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[{]", "compile_commands.json:1:3:"),
        ('{"file": "a.c"}', "expected a list"),
        ('[{"file": "a.c", "arguments": []}]', "entry 0: 'directory' and 'file'"),
        ('[{"directory": "/", "file": "a.c"}]', "entry 0: needs 'arguments' or 'command'"),
        ('[{"directory": "/", "file": "a.c", "command": "cc \'a.c"}]', "cannot split"),
    ],
)
def test_malformed_database(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "compile_commands.json").write_text(content)
    with pytest.raises(CompileDbError, match=message.replace("(", r"\(")):
        load_compile_db(tmp_path)


def test_missing_database(tmp_path: Path) -> None:
    with pytest.raises(CompileDbError, match="no such file"):
        load_compile_db(tmp_path)
