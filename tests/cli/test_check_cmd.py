"""`idiom check`: exit codes, formats, baselines, the result cache, compilation databases
and units that do not compile, through the command's own entry point."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from ci.result_cache import ResultCache
from ci.units import Unit
from cli.main import main

ROOT = Path(__file__).resolve().parents[2]

GEMM = """\
void matmul(int n, const double *a, const double *b, double *c)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}
"""
DOT = """\
double dot(const double *x, const double *y, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
"""
IN_MEMORY = """\
void accumulate(const double *x, double *out, int n)
{
    for (int i = 0; i < n; i++)
        *out += x[i];
}
"""
NOTHING = "int add(int a, int b) { return a + b; }\n"
BROKEN = "int f(int *a, int n) { return a[n] +; }\n"

Run = tuple[int, str, str]
Check = Callable[..., Run]


@pytest.fixture
def check(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Check:
    """check(*args) -> (exit code, stdout, stderr), run from tmp_path, in this process."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> Run:
        code = main(["check", "--jobs", "1", *args])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out, err

    return run


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("source", "fail_on", "expected"),
    [
        (GEMM, "error", 1),  # GEMM to BLAS: an error (10x and more measured)
        (DOT, "error", 0),  # a reduction to OpenCL: a warning
        (DOT, "warning", 1),
        (IN_MEMORY, "warning", 0),  # not replaced: a note
        (IN_MEMORY, "note", 1),
        (NOTHING, "note", 0),
    ],
)
def test_exit_code_follows_fail_on(
    check: Check, tmp_path: Path, source: str, fail_on: str, expected: int
) -> None:
    write(tmp_path, "unit.c", source)
    code, out, _ = check("unit.c", "--fail-on", fail_on)
    assert code == expected
    assert bool(out) == (source is not NOTHING)


GAUSS_SEIDEL = """\
void sweep(int n, double u[][64])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < 63; j++)
            u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
}
"""


def test_an_in_place_sweep_is_one_note(check: Check, tmp_path: Path) -> None:
    # The nest is a stencil sweeping in place, not replaced; its inner loop, a stencil of
    # its own inside it, is part of that finding.
    write(tmp_path, "gs.c", GAUSS_SEIDEL)
    code, out, _ = check("gs.c", "--fail-on", "warning")
    assert code == 0
    (finding,) = out.splitlines()
    assert "gs.c:3: note: Stencil in sweep(): found, would not be replaced: an in-place" in finding


def test_default_fails_on_warnings(check: Check, tmp_path: Path) -> None:
    write(tmp_path, "dot.c", DOT)
    code, out, err = check(".")
    assert code == 1
    assert re.match(r"dot\.c:4: warning: Reduction in dot\(\): would be replaced by a guarded "
                    r"call to OpenCL reduction kernel .*measured: .*x median", out)  # fmt: skip
    assert out.rstrip().endswith("(lines 4-5) [idiom/reduction]")
    assert "1 finding(s) (0 error, 1 warning, 0 note) in 1 unit(s)" in err


def test_a_unit_that_does_not_compile(check: Check, tmp_path: Path) -> None:
    write(tmp_path, "src/bad.c", BROKEN)
    write(tmp_path, "src/dot.c", DOT)
    code, out, err = check("src", "--format", "json")
    assert code == 2
    report = json.loads(out)
    assert [f["path"] for f in report["findings"]] == ["src/dot.c"]
    (error,) = report["errors"]
    assert "bad.c:1:37: error: expected expression" in error["message"]
    assert "bad.c:1:37: error: expected expression" in err
    assert "1 unit(s) could not be analysed" in err


def test_a_missing_header_is_an_error_too(check: Check, tmp_path: Path) -> None:
    write(tmp_path, "a.c", '#include "absent.h"\n' + DOT)
    code, _, err = check("a.c")
    assert code == 2
    assert "a.c:1:10: fatal error: 'absent.h' file not found" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("absent.c",), "absent.c: no such file or folder"),
        ((), "nothing to check"),
        (("-p", "build"), "build/compile_commands.json: no such file"),
        (("empty",), "no C/C++ source found"),
        (("x.c", "--baseline", "absent.json"), "absent.json: cannot read the baseline"),
        (("x.c", "--jobs", "0"), "--jobs takes a positive number"),
    ],
)
def test_usage_errors_exit_2(
    check: Check, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    write(tmp_path, "x.c", NOTHING)
    code, _, err = check(*args)
    assert code == 2
    assert message in err


def test_baseline_write_then_filter(check: Check, tmp_path: Path) -> None:
    dot = write(tmp_path, "src/dot.c", DOT)
    code, _, _ = check("src", "--write-baseline", "baseline.json")
    assert code == 0
    assert len(json.loads((tmp_path / "baseline.json").read_text())["findings"]) == 1
    code, out, err = check("src", "--baseline", "baseline.json")
    assert (code, out) == (0, "")
    assert "1 in the baseline not shown" in err
    # Lines moving above the instance keep it in the baseline; a new instance is reported.
    dot.write_text("// a header comment\n\n#include <stddef.h>\n" + DOT)
    write(tmp_path, "src/gemm.c", GEMM)
    code, out, _ = check("src", "--baseline", "baseline.json")
    assert code == 1
    assert out.startswith("src/gemm.c:3: error: GEMM in matmul()")
    assert "dot.c" not in out


def test_the_cache(check: Check, tmp_path: Path) -> None:
    twice = "#ifdef TWICE\n" + DOT.replace("dot(", "dot2(") + "#endif\n"
    source = write(tmp_path, "dot.c", twice + DOT)
    first = check("dot.c", "--format", "json")
    assert "cache: 0 hit(s), 1 analysed" in first[2]
    second = check("dot.c", "--format", "json")
    assert "cache: 1 hit(s), 0 analysed" in second[2]
    assert second[:2] == first[:2]
    # A flag that changes the unit misses, and finds what the flag brings in.
    flagged = check("dot.c", "--format", "json", "-D", "TWICE")
    assert "0 hit(s), 1 analysed" in flagged[2]
    assert len(json.loads(flagged[1])["findings"]) == 2
    # A corrupt entry is rebuilt, with the same result.
    key = ResultCache.for_run(True).key(Unit(source, tmp_path))
    assert isinstance(key, str)
    entry = ResultCache.for_run(True).folder / f"{key}.json"  # type: ignore[operator]
    entry.write_text('{"format": "idiom-check-1", "result": {')
    rebuilt = check("dot.c", "--format", "json")
    assert "0 hit(s), 1 analysed" in rebuilt[2]
    assert rebuilt[:2] == first[:2]
    assert json.loads(entry.read_text())["format"] == "idiom-check-1"
    # A changed source misses; --no-cache analyses without reading.
    source.write_text(DOT.replace("x[i] * y[i]", "x[i] + y[i]"))
    assert "0 hit(s), 1 analysed" in check("dot.c")[2]
    assert "0 hit(s), 1 analysed" in check("dot.c", "--no-cache")[2]


def test_compile_commands_give_each_unit_its_flags(check: Check, tmp_path: Path) -> None:
    """Two units of one source folder, one built with -DWITH_DOT: only it has the loop. The
    header comes through a relative -I, resolved against the entry's directory."""
    write(tmp_path, "include/kernels.h", "#ifdef WITH_DOT\n" + DOT + "#endif\n")
    write(tmp_path, "src/a.c", '#include "kernels.h"\n')
    write(tmp_path, "src/b.c", '#include "kernels.h"\nint unused;\n')
    build = tmp_path / "build"
    build.mkdir()
    entries = [
        {"directory": str(build), "file": "../src/a.c",
         "arguments": ["cc", "-I../include", "-DWITH_DOT", "-O2", "-c", "../src/a.c",
                       "-o", "a.o", "-MD", "-MF", "a.d"]},
        {"directory": str(build), "file": "../src/b.c",
         "command": "cc -I../include -O2 -c ../src/b.c -o b.o"},
    ]  # fmt: skip
    (build / "compile_commands.json").write_text(json.dumps(entries))
    code, out, err = check("-p", "build", "--format", "json")
    assert code == 1
    (finding,) = json.loads(out)["findings"]
    assert (finding["path"], finding["function"], finding["start_line"]) == (
        "include/kernels.h",
        "dot",
        5,
    )
    assert "in 2 unit(s)" in err
    # Restricted to b.c, nothing is found.
    assert check("-p", "build", "src/b.c")[0] == 0


def test_output_file_and_source_root(check: Check, tmp_path: Path) -> None:
    write(tmp_path, "project/src/dot.c", DOT)
    code, out, _ = check("project", "--source-root", "project", "-o", "report.txt")
    assert (code, out) == (1, "")
    assert (tmp_path / "report.txt").read_text().startswith("src/dot.c:4: warning:")


def test_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    text = capsys.readouterr().out
    for line in ("0  no finding at or above --fail-on", "1  findings at or above", "2  errors"):
        assert line in text


def test_parallel_units_report_as_one(check: Check, tmp_path: Path) -> None:
    """--jobs 2 spreads the units over processes; the report is the sequential one."""
    write(tmp_path, "a/dot.c", DOT)
    write(tmp_path, "b/gemm.c", GEMM)
    write(tmp_path, "c/bad.c", BROKEN)
    sequential = check(".", "--no-cache", "--format", "json")
    parallel = check(".", "--no-cache", "--format", "json", "--jobs", "2")
    assert parallel[:2] == sequential[:2]
    assert sequential[0] == 2
    assert [f["path"] for f in json.loads(sequential[1])["findings"]] == ["a/dot.c", "b/gemm.c"]


def test_a_broken_idiom_library_is_reported_once(check: Check, tmp_path: Path) -> None:
    write(tmp_path, "idioms/mine.idl", "garbage here\n")
    write(tmp_path, "a.c", DOT)
    write(tmp_path, "b.c", GEMM)
    code, out, err = check("a.c", "b.c", "--idioms", "idioms", "--no-cache")
    assert (code, out) == (2, "")
    assert err.count("mine.idl:1:1: unexpected 'garbage'") == 1
