"""`idiom ir`: the lines of loops inlined from another function."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_cli_errors import assert_clean_failure, idiom
from tests.matcher.inlined_programs import SQUARES_IN_MAIN


def test_an_inlined_loop_shows_its_file_and_lines(tmp_path: Path) -> None:
    program = tmp_path / "squares.c"
    program.write_text(SQUARES_IN_MAIN)
    result = idiom("ir", str(program), "--function", "main")
    assert result.returncode == 0, result.stderr
    loops = [line.strip() for line in result.stdout.splitlines() if "loop at" in line]
    assert loops == [
        "loop at for.body: depth 1, 1 blocks, line 11",
        f"loop at for.body.i: depth 1, 1 blocks, lines 3-4 of kernel_x ({program}), inlined",
    ]
    assert "no source lines" not in result.stdout


def test_an_inlined_function_is_shown_where_it_was_inlined(tmp_path: Path) -> None:
    program = tmp_path / "squares.c"
    program.write_text(SQUARES_IN_MAIN)
    result = idiom("ir", str(program), "--function", "kernel_x")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("kernel_x was inlined into main; showing there\n")
    assert "function main()" in result.stdout
    typo = idiom("ir", str(program), "--function", "kernel_y")
    assert_clean_failure(typo, "no function 'kernel_y' (close names: kernel_x)")
