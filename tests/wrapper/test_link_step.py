"""The link step: what it reads of its inputs, and residency across code it does not see."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from matcher.frontend import find_tool
from measure.compare import first_difference
from wrapper.link_step import named_libraries, read_link_inputs
from wrapper.main import run

FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}


def _compile(folder: Path, name: str, code: str) -> str:
    (folder / f"{name}.c").write_text(code)
    target = folder / f"{name}.o"
    subprocess.run(
        [find_tool("clang"), "-O2", "-c", folder / f"{name}.c", "-o", target], check=True
    )
    return str(target)


def test_threads_in_code_outside_the_program_refuse_residency(tmp_path: Path) -> None:
    threads = _compile(
        tmp_path,
        "threads",
        "#include <pthread.h>\nstatic void *go(void *p) { return p; }\n"
        "void start(pthread_t *t) { pthread_create(t, 0, go, 0); }\n",
    )
    plain = _compile(tmp_path, "plain", "int twice(int x) { return 2 * x; }\n")
    assert read_link_inputs([plain]).refused is None
    found = read_link_inputs([plain, threads])
    assert found.refused == "the program creates threads (pthread_create)"
    assert not found.accelerated and not found.units


def test_libraries_named_by_l_in_the_commands_own_folders(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "libk.a").write_bytes(b"!<arch>\n")
    (tmp_path / "b" / "libk.a").write_bytes(b"!<arch>\n")
    (tmp_path / "b" / "libs.so").write_bytes(b"")
    (tmp_path / "b" / "libs.a").write_bytes(b"!<arch>\n")
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    command = ["-L", a, f"-L{b}", "-lk", "-l", "s", "-lm"]
    assert named_libraries(command) == [f"{a}/libk.a", f"{b}/libs.so"]
    assert named_libraries([f"-L{b}", "-static", "-ls"]) == [f"{b}/libs.a"]
    assert named_libraries([f"-L{b}", "-l:libs.a"]) == [f"{b}/libs.a"]


# `main` (accelerated: it holds a reduction) calls `drive`, compiled plainly, which calls the
# accelerated `smooth` and reads what it wrote: `smooth` must return with no device copies.
MAIN = """
#include <stdio.h>
#include <stdlib.h>
void drive(int n, double *a, double *b, int steps);
int main(void) {
    int n = 20000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (int i = 0; i < n; i++) a[i] = b[i] = (i * 13) % 29;
    drive(n, a, b, 6);
    double total = 0.0;
    for (int i = 0; i < n; i++) total += a[i];
    printf("total %.6f\\n", total);
    return 0;
}
"""
DRIVE = """
#include <stdio.h>
void smooth(int n, const double *in, double *out);
void drive(int n, double *a, double *b, int steps) {
    for (int t = 0; t < steps; t++) {
        smooth(n, a, b);
        printf("%d %.6f %.6f\\n", t, b[1], b[n / 2]);
        smooth(n, b, a);
        a[n / 3] += 1.0;
    }
}
"""
SMOOTH = """
void smooth(int n, const double *in, double *out) {
    for (int i = 1; i < n - 1; i++) out[i] = (in[i - 1] + 2.0 * in[i] + in[i + 1]) * 0.25;
}
"""


def test_functions_called_from_plain_objects_return_without_device_copies(
    tmp_path: Path,
) -> None:
    sources = {"main": MAIN, "drive": DRIVE, "smooth": SMOOTH}
    for name, code in sources.items():
        (tmp_path / f"{name}.c").write_text(code)
    objects = []
    for name in sources:
        objects.append(str(tmp_path / f"{name}.o"))
        command = ["-O2", "-c", str(tmp_path / f"{name}.c"), "-o", objects[-1]]
        assert run("clang", command) == 0
    inputs = read_link_inputs(objects)
    assert sorted(Path(p).name for p in inputs.units) == ["main.o", "smooth.o"]
    assert "smooth" in inputs.outside_uses & inputs.defined
    program = tmp_path / "prog"
    assert run("clang", [*objects, "-o", str(program)]) == 0
    plain = tmp_path / "plain"
    subprocess.run(
        [find_tool("clang"), "-O2", *(tmp_path / f"{n}.c" for n in sources), "-o", plain],
        check=True,
    )
    expected = subprocess.run([plain], capture_output=True, text=True, check=True).stdout
    # Without the safety net, only the placement keeps the host's reads right.
    env = {**os.environ, **FORCED, "IDIOM_SAFETY_NET": "0"}
    got = subprocess.run([program], capture_output=True, text=True, env=env, check=True)
    assert first_difference(expected, got.stdout) is None


SHARED_MAIN = """
#include <stdio.h>
#include <stdlib.h>
void smooth(int n, const double *in, double *out);
int main(void) {
    int n = 20000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (int i = 0; i < n; i++) a[i] = b[i] = (i * 13) % 29;
    for (int t = 0; t < 4; t++) {
        smooth(n, a, b);
        printf("%d %.6f %.6f\\n", t, b[1], b[n / 2]);
        smooth(n, b, a);
    }
    double total = 0.0;
    for (int i = 0; i < n; i++) total += a[i];
    printf("total %.6f\\n", total);
    return 0;
}
"""


def test_a_shared_library_that_launches_keeps_the_program_from_residency(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "smooth.c").write_text(SMOOTH)
    (tmp_path / "main.c").write_text(SHARED_MAIN)
    library = tmp_path / "libsmooth.so"
    shared = ["-O2", "-fPIC", "-shared", str(tmp_path / "smooth.c"), "-o", str(library)]
    assert run("clang", shared) == 0
    assert read_link_inputs([str(library)]).refused == (
        f"{library}: a shared library launches kernels itself"
    )
    program = tmp_path / "prog"
    capsys.readouterr()
    linking = ["-O2", str(tmp_path / "main.c"), f"-L{tmp_path}", "-lsmooth"]
    assert run("clang", [*linking, f"-Wl,-rpath,{tmp_path}", "-o", str(program)]) == 0
    assert "a shared library launches kernels itself" in capsys.readouterr().err
    plain = tmp_path / "plain"
    subprocess.run(
        [find_tool("clang"), "-O2", tmp_path / "main.c", tmp_path / "smooth.c", "-o", plain],
        check=True,
    )
    expected = subprocess.run([plain], capture_output=True, text=True, check=True).stdout
    env = {**os.environ, **FORCED, "IDIOM_SAFETY_NET": "0"}
    got = subprocess.run([program], capture_output=True, text=True, env=env, check=True)
    assert first_difference(expected, got.stdout) is None
