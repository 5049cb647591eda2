"""The `idiom-check` hook of .pre-commit-hooks.yaml run by the pre-commit framework on a
temporary git repository: it fails on a C file with an idiom and passes on one without.

Installing the hook as published (`language: python`) would make pre-commit build a
virtual environment and install idiom with its heavy dependencies from the network, so
the test runs the same hook definition, read from .pre-commit-hooks.yaml (id, entry,
types, files), as a `repo: local` hook with `language: system`, its `idiom` command this
checkout's (a small script on PATH)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOT = """\
double dot(const double *x, const double *y, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
"""

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def local_config() -> str:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "idiom-check"
    assert hook["types_or"] == ["c", "c++"]
    local = {key: hook[key] for key in ("id", "name", "entry", "types", "types_or", "files")
             if key in hook}  # fmt: skip
    local["language"] = "system"
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]})


def test_hook_fails_on_an_idiom_and_passes_without(tmp_path: Path) -> None:
    repo, shims = tmp_path / "repo", tmp_path / "bin"
    repo.mkdir()
    shims.mkdir()
    idiom = shims / "idiom"
    idiom.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cli.main "$@"\n')
    idiom.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_CONFIG_GLOBAL": os.devnull,
    }

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, cwd=repo, env=env, capture_output=True, text=True, check=False
        )

    assert run("git", "init", "-q").returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(local_config())
    (repo / "dot.c").write_text(DOT)
    (repo / "plain.c").write_text("int add(int a, int b) { return a + b; }\n")
    (repo / "notes.txt").write_text("for (int i = 0; i < n; i++) s += x[i];\n")
    run("git", "add", ".")
    pre_commit = (sys.executable, "-m", "pre_commit", "run")

    failing = run(*pre_commit, "--files", "dot.c", "notes.txt")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "idiom check" in failing.stdout and "Failed" in failing.stdout
    assert "dot.c:4: warning: Reduction in dot()" in failing.stdout
    assert "notes.txt" not in failing.stdout  # not a C/C++ file: not passed to the hook

    passing = run(*pre_commit, "--files", "plain.c")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
