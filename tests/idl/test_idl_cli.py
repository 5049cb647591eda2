"""`idiom idl check` and `idiom idl show` through the real entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main

GOOD = """\
# Two specifications: an exported one built on a block.
Export Constraint CliReads
( {sum} is fadd instruction and
  inherits CliRow(N=3) at {row} )
End

Constraint CliRow
( {v[i]} is load instruction for all i=0..N )
End
"""

BAD_ONE = "Constraint CliBadOne\n( {a} is unused and\n  inherits CliMissing )\nEnd\n"
BAD_TWO = "Constraint CliBadTwo\n  {a} is frobnicated\nEnd\n"


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.idl"
    path.write_text(GOOD)
    return path


def test_check_valid_file(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["idl", "check", str(good), "--no-default"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == (
        "ok: 1 file, 2 specifications (1 exported) parse and compile; library of 2"
    )
    assert err == ""


def test_check_with_the_shipped_library(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["idl", "check", str(good)]) == 0
    assert capsys.readouterr().out.startswith("ok: 1 file, 2 specifications (1 exported)")


def test_check_reports_every_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "one.idl").write_text(BAD_ONE)
    (tmp_path / "two.idl").write_text(BAD_TWO)
    (tmp_path / "three.idl").write_text("Constraint CliBadOne {b} is unused End\n")
    assert main(["idl", "check", str(tmp_path), "--no-default"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{tmp_path / 'one.idl'}:3:3: unknown specification 'CliMissing'" in err
    assert f"{tmp_path / 'two.idl'}:2:3: unknown atom '{{a}} is frobnicated'" in err
    assert f"{tmp_path / 'three.idl'}:1:1: duplicate specification 'CliBadOne'" in err
    assert "  ^" in err
    assert err.rstrip().endswith("idiom: 3 errors in IDL")
    assert "Traceback" not in err


def test_check_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["idl", "check", str(tmp_path / "nope.idl"), "--no-default"]) == 1
    assert "no such file or directory" in capsys.readouterr().err


def test_show_expanded_program(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["idl", "show", "CliRow", "--lib", str(good), "--param", "N=2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:] == [
        "counts: variables 2, atoms 2, and 1, or 0, collect 0, alternatives 1",
        "variables (2):",
        "  v[0], v[1]",
        "formula:",
        "  and (2)",
        "    {v[0]} is load instruction",
        "    {v[1]} is load instruction",
    ]
    assert out.startswith(f"Constraint CliRow ({good}:7:1)")


def test_show_inherited_and_prefixed(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["idl", "show", "CliReads", "--lib", str(good), "--no-default"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Export Constraint CliReads")
    assert "  sum, row.v[0], row.v[1], row.v[2]" in out
    assert "atoms 4" in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["idl", "show", "CliNope"], "unknown specification 'CliNope'"),
        (["idl", "show", "CliRow", "--param", "N"], "expected NAME=INTEGER"),
        (["idl", "show", "CliRow", "--param", "M=1"], "has no parameter 'M'"),
        (["idl", "show", "CliRow"], "parameter 'N' of 'CliRow' has no value"),
    ],
)
def test_show_errors(
    good: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    assert main([*arguments, "--lib", str(good), "--no-default"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("idiom: ") and message in err
    assert "Traceback" not in err
