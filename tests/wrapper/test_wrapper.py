"""idiom-cc and idiom-c++ end to end: compile, link, fall back, pass through, real builds.

Every accelerated program must print what the plain clang-22 build prints, run as it
is and with every replacement forced onto the OpenCL CPU device (floating point within
the corpus's tolerance: reductions are reordered).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from idl.errors import IdiomError
from matcher.expectations import read_program
from matcher.frontend import find_tool
from measure.compare import first_difference, program_tolerance
from wrapper.main import run
from wrapper.objects import read_input
from wrapper.record import decode_records

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
PROJECTS = Path(__file__).resolve().parent / "projects"
FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}


def _run(command: list[str | Path], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, **env},
    )


def _records(path: Path) -> int:
    read = read_input(path)
    assert read is not None and not isinstance(read, list)
    return len(decode_records(read.payload)) if read.payload else 0


def _same_output(plain: Path, built: Path, args: list[str], tolerance: float) -> None:
    expected = _run([plain, *args], plain.parent)
    assert expected.returncode == 0
    for env in ({}, FORCED):
        got = _run([built, *args], built.parent, **env)
        assert got.returncode == 0, got.stderr
        assert first_difference(expected.stdout, got.stdout, tolerance=tolerance) is None, env


def test_a_corpus_program_compiled_then_linked(launchers: dict[str, Path], tmp_path: Path) -> None:
    source = CORPUS / "stencil_2d5_global.c"
    compiled = _run(
        [launchers["idiom-cc"], "-O2", "-c", source, "-o", "s.o"], tmp_path, IDIOM_CC_VERBOSE="1"
    )
    assert compiled.returncode == 0, compiled.stderr
    assert "Stencil in jacobi5" in compiled.stderr
    assert _records(tmp_path / "s.o") == 1
    linked = _run(
        [launchers["idiom-cc"], "-O2", "s.o", "-o", "s", "-lm"], tmp_path, IDIOM_CC_VERBOSE="1"
    )
    assert linked.returncode == 0, linked.stderr
    assert "residency over 1 accelerated unit" in linked.stderr
    plain = tmp_path / "plain"
    subprocess.run([find_tool("clang"), "-O2", source, "-o", plain, "-lm"], check=True)
    _same_output(plain, tmp_path / "s", list(read_program(source).test_args), 1e-5)


def test_nothing_to_replace_compiles_plainly_with_a_warning(
    launchers: dict[str, Path], tmp_path: Path
) -> None:
    (tmp_path / "hello.c").write_text('#include <stdio.h>\nint main(void) { puts("hi"); }\n')
    built = _run([launchers["idiom-cc"], "-O2", "-c", "hello.c"], tmp_path)
    assert built.returncode == 0
    assert built.stderr.strip() == "idiom-cc: hello.c: no idiom replaced"
    subprocess.run(
        [find_tool("clang"), "-O2", "-c", "hello.c", "-o", "plain.o"], cwd=tmp_path, check=True
    )
    assert (tmp_path / "hello.o").read_bytes() == (tmp_path / "plain.o").read_bytes()


def test_a_source_clang_rejects_fails_as_with_clang(
    launchers: dict[str, Path], tmp_path: Path
) -> None:
    (tmp_path / "bad.c").write_text("int f(void) { return }\n")
    built = _run([launchers["idiom-cc"], "-c", "bad.c"], tmp_path)
    plain = _run([find_tool("clang"), "-c", "bad.c"], tmp_path)
    assert built.returncode == plain.returncode != 0
    assert built.stderr == plain.stderr
    assert not (tmp_path / "bad.o").exists()


def test_another_target_compiles_plainly(launchers: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "k.c").write_text(KERNEL)
    built = _run([launchers["idiom-cc"], "-m32", "-c", "k.c"], tmp_path)
    if built.returncode != 0:  # no 32-bit headers here: clang's own failure
        assert built.stderr == _run([find_tool("clang"), "-m32", "-c", "k.c"], tmp_path).stderr
        return
    assert "not accelerated: the runtime is built for this machine only (-m32)" in built.stderr
    subprocess.run(
        [find_tool("clang"), "-m32", "-c", "k.c", "-o", "plain.o"], cwd=tmp_path, check=True
    )
    assert (tmp_path / "k.o").read_bytes() == (tmp_path / "plain.o").read_bytes()


KERNEL = """
double dot(int n, const double *x, const double *y) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}
"""
MAIN = """
#include <stdio.h>
double dot(int n, const double *x, const double *y);
int main(void) {
    static double x[5000], y[5000];
    for (int i = 0; i < 5000; i++) { x[i] = i % 7; y[i] = 1.0 / (1 + i % 5); }
    double total = 0.0;
    for (int i = 0; i < 5000; i++) total += x[i];
    printf("%.6f %.6f\\n", dot(5000, x, y), total);
    return 0;
}
"""


def _two_files(folder: Path) -> None:
    (folder / "k.c").write_text(KERNEL)
    (folder / "m.c").write_text(MAIN)


def test_a_failure_of_idiom_keeps_the_plain_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _two_files(tmp_path)

    def broken(*args: object, **kwargs: object) -> None:
        raise IdiomError("the matcher broke\nsecond line")

    monkeypatch.setattr("mappers.accelerate.rewritten_unit", broken)
    target = tmp_path / "k.o"
    assert run("clang", ["-O2", "-c", str(tmp_path / "k.c"), "-o", str(target)]) == 0
    assert capsys.readouterr().err.strip() == (
        f"idiom-cc: {tmp_path / 'k.c'}: not accelerated: the matcher broke"
    )
    plain = tmp_path / "plain.o"
    subprocess.run([find_tool("clang"), "-O2", "-c", tmp_path / "k.c", "-o", plain], check=True)
    assert target.read_bytes() == plain.read_bytes()


def test_a_failure_at_the_link_links_the_objects_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _two_files(tmp_path)
    objects = []
    for name in ("k", "m"):
        objects.append(str(tmp_path / f"{name}.o"))
        assert run("clang", ["-O2", "-c", str(tmp_path / f"{name}.c"), "-o", objects[-1]]) == 0
    assert all(_records(Path(o)) == 1 for o in objects)

    def broken(*args: object, **kwargs: object) -> None:
        raise IdiomError("placement broke")

    monkeypatch.setattr("mappers.residency.placement.with_host_access", broken)
    program = tmp_path / "prog"
    capsys.readouterr()
    assert run("clang", [*objects, "-o", str(program)]) == 0
    assert "whole-program steps failed, objects linked as they are: placement broke" in (
        capsys.readouterr().err
    )
    plain = tmp_path / "plain"
    subprocess.run(
        [find_tool("clang"), "-O2", tmp_path / "k.c", tmp_path / "m.c", "-o", plain], check=True
    )
    _same_output(plain, program, [], 1e-5)


def test_compile_and_link_in_one_command(launchers: dict[str, Path], tmp_path: Path) -> None:
    _two_files(tmp_path)
    built = _run(
        [launchers["idiom-cc"], "-O2", "m.c", "k.c", "-o", "prog"], tmp_path, IDIOM_CC_VERBOSE="1"
    )
    assert built.returncode == 0, built.stderr
    assert "residency over 2 accelerated unit" in built.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".o") == []
    plain = tmp_path / "plain"
    subprocess.run([find_tool("clang"), "-O2", "m.c", "k.c", "-o", plain], cwd=tmp_path, check=True)
    _same_output(plain, tmp_path / "prog", [], 1e-5)


def test_several_sources_compiled_to_default_names_then_linked(
    launchers: dict[str, Path], tmp_path: Path
) -> None:
    _two_files(tmp_path)
    compiled = _run([launchers["idiom-cc"], "-O2", "-c", "k.c", "m.c"], tmp_path)
    assert compiled.returncode == 0, compiled.stderr
    assert _records(tmp_path / "k.o") == _records(tmp_path / "m.o") == 1
    linked = _run(
        [launchers["idiom-cc"], "k.o", "m.o", "-o", "prog"], tmp_path, IDIOM_CC_VERBOSE="1"
    )
    assert linked.returncode == 0, linked.stderr
    assert "residency over 2 accelerated unit" in linked.stderr
    plain = tmp_path / "plain"
    subprocess.run([find_tool("clang"), "-O2", "m.c", "k.c", "-o", plain], cwd=tmp_path, check=True)
    _same_output(plain, tmp_path / "prog", [], 1e-5)


def test_idiom_cxx_compiles_a_c_file_as_cxx(launchers: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "k.c").write_text(KERNEL)
    built = _run([launchers["idiom-c++"], "-O2", "-c", "k.c"], tmp_path)
    assert built.returncode == 0, built.stderr
    subprocess.run(
        [find_tool("clang++"), "-O2", "-c", "k.c", "-o", "plain.o"], cwd=tmp_path, check=True
    )
    accelerated, plain = read_input(tmp_path / "k.o"), read_input(tmp_path / "plain.o")
    assert accelerated is not None and not isinstance(accelerated, list)
    assert plain is not None and not isinstance(plain, list)
    assert _records(tmp_path / "k.o") == 1
    assert "_Z3dotiPKdS0_" in plain.defined
    assert plain.defined <= accelerated.defined


def test_an_object_missing_a_symbol_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "k.c").write_text(KERNEL)
    # The front end told to read the file as C while clang++ compiles it as C++.
    monkeypatch.setattr("wrapper.compile_step.C_SOURCES", frozenset())
    target = tmp_path / "k.o"
    assert run("clang++", ["-O2", "-c", str(tmp_path / "k.c"), "-o", str(target)]) == 0
    assert "not accelerated: the accelerated object lacks _Z3dotiPKdS0_" in (
        capsys.readouterr().err
    )
    assert _records(target) == 0


def test_disabled_is_plain_clang(launchers: dict[str, Path], tmp_path: Path) -> None:
    _two_files(tmp_path)
    built = _run([launchers["idiom-cc"], "-c", "k.c"], tmp_path, IDIOM_CC_DISABLE="1")
    assert built.returncode == 0 and built.stderr == ""
    assert _records(tmp_path / "k.o") == 0


@pytest.mark.parametrize(
    "flags",
    [["-E"], ["-M"], ["-MM", "-MT", "target"], ["-E", "-DN=3", "-P"], ["-E", "missing.c"]],
    ids=" ".join,
)
def test_preprocessing_passes_through(
    launchers: dict[str, Path], tmp_path: Path, flags: list[str]
) -> None:
    (tmp_path / "h.h").write_text("#define TWICE(x) ((x) + (x))\n")
    (tmp_path / "p.c").write_text('#include "h.h"\nint f(int a) { return TWICE(a) * N; }\n')
    inputs = [] if "missing.c" in flags else ["p.c"]
    built = _run([launchers["idiom-cc"], *flags, *inputs], tmp_path)
    plain = _run([find_tool("clang"), *flags, *inputs], tmp_path)
    assert (built.returncode, built.stdout, built.stderr) == (
        plain.returncode,
        plain.stdout,
        plain.stderr,
    )
    assert not list(tmp_path.glob("*.o"))


@pytest.mark.parametrize(
    "flags",
    [["--version"], ["-dumpmachine"], ["-print-prog-name=ld"], ["-print-search-dirs"]],
    ids=" ".join,
)
def test_probes_pass_through(launchers: dict[str, Path], tmp_path: Path, flags: list[str]) -> None:
    for tool, driver in (("idiom-cc", "clang"), ("idiom-c++", "clang++")):
        built = _run([launchers[tool], *flags], tmp_path)
        plain = _run([find_tool(driver), *flags], tmp_path)
        assert (built.returncode, built.stdout, built.stderr) == (
            plain.returncode,
            plain.stdout,
            plain.stderr,
        )


def _tree(name: str, into: Path) -> Path:
    copy = into / name
    shutil.copytree(PROJECTS / name, copy)
    return copy


def test_a_make_project(launchers: dict[str, Path], tmp_path: Path) -> None:
    plain = _tree("make", tmp_path / "plain")
    built = _tree("make", tmp_path / "wrapper")
    assert _run(["make", f"CC={find_tool('clang')}"], plain).returncode == 0
    made = _run(["make", "-j2", f"CC={launchers['idiom-cc']}"], built)
    assert made.returncode == 0, made.stderr
    # The archive's member carries idiom IR: residency is off, the program still right.
    assert "an archive member carries idiom IR" in made.stderr
    assert _records(built / "main.o") == _records(built / "kernels.o") == 1
    assert (built / "main.d").read_text() == (plain / "main.d").read_text()
    for program in ("prog", "prog_archive"):
        _same_output(plain / program, built / program, ["3000", "7"], 1e-5)
    # Nothing changed: make has nothing to do, as with any compiler.
    again = _run(["make", "-q", f"CC={launchers['idiom-cc']}"], built)
    assert again.returncode == 0


def test_a_cmake_project_of_corpus_programs(launchers: dict[str, Path], tmp_path: Path) -> None:
    if shutil.which("cmake") is None:
        pytest.fail("cmake is not installed")
    folders = {"plain": tmp_path / "plain", "wrapper": tmp_path / "wrapper"}
    compilers = {
        "plain": (find_tool("clang"), find_tool("clang++")),
        "wrapper": (str(launchers["idiom-cc"]), str(launchers["idiom-c++"])),
    }
    for flavour, folder in folders.items():
        c_compiler, cxx_compiler = compilers[flavour]
        configured = _run(
            [
                "cmake",
                "-S",
                PROJECTS / "corpus",
                "-B",
                folder,
                f"-DCMAKE_C_COMPILER={c_compiler}",
                f"-DCMAKE_CXX_COMPILER={cxx_compiler}",
            ],
            tmp_path,
        )
        assert configured.returncode == 0, configured.stdout + configured.stderr
        compiled = _run(["cmake", "--build", folder], tmp_path)
        assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    sources = {
        "stencil": "stencil_2d5_global.c",
        "dot": "red_dot.c",
        "keys": "hist_keys.c",
        "gemv": "gemv_matrix.cpp",
    }
    for program, name in sources.items():
        source = CORPUS / name
        _same_output(
            folders["plain"] / program,
            folders["wrapper"] / program,
            list(read_program(source).test_args),
            program_tolerance(source),
        )
