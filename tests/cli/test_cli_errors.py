"""Bad input through the real `idiom` command: one clear message, non-zero exit, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def idiom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args], capture_output=True, text=True, check=False
    )


def assert_clean_failure(result: subprocess.CompletedProcess[str], expected: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    assert expected in result.stderr


def test_syntax_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.c"
    bad.write_text("int main(void) { return 0 }\n")
    assert_clean_failure(idiom("ir", str(bad)), "bad.c:1:")


def test_missing_file(tmp_path: Path) -> None:
    assert_clean_failure(idiom("ir", str(tmp_path / "absent.c")), "no such file")


def test_unknown_option() -> None:
    result = idiom("ir", "--no-such-option", "x.c")
    assert_clean_failure(result, "unrecognized arguments: --no-such-option")
    assert result.returncode == 2


def test_ir_llvm_rejects(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ll"
    bad.write_text("define i32 @f() {\n  ret i64 0\n}\n")
    assert_clean_failure(idiom("ir", str(bad)), "LLVM rejected the IR")


def test_unknown_function(tmp_path: Path) -> None:
    good = tmp_path / "good.c"
    good.write_text("int f(int x) { return x; }\n")
    assert_clean_failure(idiom("ir", str(good), "--function", "g"), "no function 'g'")


@pytest.mark.parametrize("command", [["ir"], ["demo"]])
def test_ir_and_demo_on_a_program(tmp_path: Path, command: list[str]) -> None:
    good = tmp_path / "prog.c"
    good.write_text(
        "double s(const double *a, int n) {\n  double t = 0;\n"
        "  for (int i = 0; i < n; i++) t += a[i];\n  return t;\n}\n"
    )
    result = idiom(*command, str(good))
    assert result.returncode == 0, result.stderr
    assert "line 3" in result.stdout or "L3" in result.stdout


def test_detect_table_json_and_exit_codes(tmp_path: Path) -> None:
    kernel = tmp_path / "k.c"
    kernel.write_text(
        "double dot(const double *x, const double *y, int n) {\n"
        "  double s = 0;\n  for (int i = 0; i < n; i++) s += x[i] * y[i];\n  return s;\n}\n"
    )
    plain = tmp_path / "plain.c"
    plain.write_text("int f(int x) { return x + 1; }\n")
    table = idiom("detect", str(kernel))
    assert table.returncode == 0 and "Reduction" in table.stdout and "dot" in table.stdout
    nothing = idiom("detect", str(plain))
    assert nothing.returncode == 0 and "0 idiom instance(s)" in nothing.stdout
    data = json.loads(idiom("detect", "--json", str(kernel), str(plain)).stdout)
    assert [len(entry["instances"]) for entry in data] == [1, 0]
    assert data[0]["instances"][0]["line"] == 3
    broken = tmp_path / "bad.c"
    broken.write_text("int f( {\n")
    failed = idiom("detect", str(kernel), str(broken))
    assert failed.returncode == 1 and "bad.c:1:" in failed.stderr


def test_eval_on_a_small_corpus(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "corpus" / "red_dot.c"
    (tmp_path / "red_dot.c").write_text(source.read_text())
    result = idiom("eval", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Reduction" in result.stdout


def test_explain_names_the_failing_constraint() -> None:
    corpus = Path(__file__).resolve().parents[2] / "corpus"
    near_miss = str(corpus / "nm_red_prefix.c")
    result = idiom("explain", near_miss, "--idiom", "Reduction", "--function", "cumsum")
    assert result.returncode == 0, result.stderr
    assert "does not match" in result.stdout and ".idl:" in result.stdout
    matched = idiom(
        "explain", str(corpus / "red_dot.c"), "--idiom", "Reduction", "--function", "dot"
    )
    assert matched.returncode == 0 and "matches dot" in matched.stdout
    unknown = idiom("explain", near_miss, "--idiom", "Nope", "--function", "cumsum")
    assert_clean_failure(unknown, "no specification 'Nope'")
