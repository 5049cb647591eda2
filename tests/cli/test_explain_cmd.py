"""`idiom explain` on the function names `idiom detect` reports, inlined ones included."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli_errors import assert_clean_failure, idiom
from tests.matcher.inlined_programs import PREFIX_SUMS_IN_MAIN, SQUARES_IN_MAIN


def test_the_name_detect_reports_for_an_inlined_kernel_is_explained(tmp_path: Path) -> None:
    program = tmp_path / "squares.c"
    program.write_text(SQUARES_IN_MAIN)
    (found,) = json.loads(idiom("detect", "--json", str(program)).stdout)[0]["instances"]
    assert (found["function"], found["ir_function"]) == ("kernel_x", "main")
    result = idiom("explain", str(program), "--idiom", "Reduction", "--function", "kernel_x")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "kernel_x was inlined into main; explaining there",
        "Reduction matches kernel_x (inlined into main)",
    ]


def test_an_inlined_kernel_is_explained_over_its_own_loops_only(tmp_path: Path) -> None:
    program = tmp_path / "prefix.c"
    program.write_text(PREFIX_SUMS_IN_MAIN)
    caller = idiom("explain", str(program), "--idiom", "Reduction", "--function", "main")
    assert "Reduction matches main" in caller.stdout
    kernel = idiom("explain", str(program), "--idiom", "Reduction", "--function", "prefix_sums")
    assert kernel.returncode == 0, kernel.stderr
    assert "Reduction does not match prefix_sums (inlined into main)" in kernel.stdout
    assert ".idl:" in kernel.stdout


def test_an_unknown_name_lists_close_ones(tmp_path: Path) -> None:
    program = tmp_path / "squares.c"
    program.write_text(SQUARES_IN_MAIN)
    typo = idiom("explain", str(program), "--idiom", "Reduction", "--function", "kernel_y")
    assert_clean_failure(typo, "no function 'kernel_y' (close names: kernel_x)")
    far = idiom("explain", str(program), "--idiom", "Reduction", "--function", "zzz")
    assert_clean_failure(far, "no function 'zzz' (functions: kernel_x, main)")
