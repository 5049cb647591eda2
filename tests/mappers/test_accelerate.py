"""End to end: the accelerated build of hand-written kernels against the original, on
random inputs (sizes 0, 1, odd, not multiples of a work-group), with overlapping
pointers (and a JDS permutation sending two rows to one row of y) that the run-time
guard must send to the original code, and with no device."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated, AccelerateError, accelerate
from matcher.frontend import CompileOptions, find_tool
from measure.compare import first_difference
from tests.mappers.differential import build_pair, run_binary

PROGRAM = Path(__file__).parent / "programs" / "kernels.c"
# Every size is worth a kernel here, so that small inputs exercise the replacements.
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("kernels"))


_run = run_binary


def _calls(stderr: str) -> list[str]:
    """The runtime calls that did the work (IDIOM_VERBOSE lines ending in `done`)."""
    return [line for line in stderr.splitlines() if line.startswith("idiom:") and "done" in line]


def test_every_kernel_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    _, _, report = builds
    outcomes = {
        (o.instance.function, o.instance.idiom): o for u in report.units for o in u.outcomes
    }
    expected = {
        ("dot", "Reduction"),
        ("count_above", "Reduction"),
        ("maximum", "Reduction"),
        ("matmul", "GEMM"),
        ("smooth", "Stencil"),
        ("histogram", "Histogram"),
        ("csr", "SpMV_CSR"),
        ("jds", "SpMV_JDS"),
        ("jds_int", "SpMV_JDS"),
    }
    for key in expected:
        assert key in outcomes, f"{key} not found"
        assert outcomes[key].replaced, f"{key}: {outcomes[key].detail}"


@pytest.mark.parametrize("n", [0, 1, 2, 7, 63, 65, 130])
@pytest.mark.parametrize("seed", [1, 7])
def test_random_inputs_give_the_original_results(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    original, accelerated, _ = builds
    args = [str(n), str(seed)]
    expected = _run(original, args, {})
    actual = _run(accelerated, args, {**ON_POCL, "IDIOM_VERBOSE": "1"})
    assert actual.returncode == 0, actual.stderr
    assert first_difference(expected.stdout, actual.stdout) is None
    if n >= 3:  # every kernel has work to do: all the calls ran (reductions launch twice)
        kernels = " ".join(_calls(actual.stderr))
        for name in ("gemm", "idiom_reduce", "idiom_stencil", "idiom_histogram", "idiom_spmv'"):
            assert name in kernels
        assert kernels.count("idiom_jds_spmv'") == 2


def test_overlapping_arrays_run_the_original_code(builds: tuple[Path, Path, Accelerated]) -> None:
    original, accelerated, _ = builds
    args = ["40", "3", "1"]  # products written over a factor, the stencil in place
    expected = _run(original, args, {})
    actual = _run(accelerated, args, {**ON_POCL, "IDIOM_VERBOSE": "1"})
    assert first_difference(expected.stdout, actual.stdout) is None
    kernels = " ".join(_calls(actual.stderr))
    assert "gemm" not in kernels and "idiom_stencil" not in kernels
    assert "idiom_spmv'" not in kernels and "idiom_jds_spmv'" not in kernels
    assert "idiom_jds_columns'" in kernels  # the ranges were found, then y overlapped x
    assert "idiom_reduce" in kernels  # the other kernels are still replaced


def test_jds_rows_sharing_a_row_of_y_run_the_original_code(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    original, accelerated, _ = builds
    args = ["40", "3", "2"]  # perm sends the last sorted row where the first went
    expected = _run(original, args, {})
    actual = _run(accelerated, args, {**ON_POCL, "IDIOM_VERBOSE": "1"})
    assert first_difference(expected.stdout, actual.stdout) is None
    kernels = " ".join(_calls(actual.stderr))
    assert kernels.count("idiom_jds_columns'") == 2  # the second found the repeated row
    assert kernels.count("idiom_jds_spmv'") == 1  # jds_int, which has no permutation


@pytest.mark.parametrize("device", ["cpu", "gpu"])
def test_no_opencl_device_falls_back_with_a_warning(
    builds: tuple[Path, Path, Accelerated], tmp_path: Path, device: str
) -> None:
    original, accelerated, _ = builds
    no_vendors = {**ON_POCL, "IDIOM_DEVICE": device, "OCL_ICD_VENDORS": str(tmp_path)}
    expected = _run(original, ["50"], {})
    actual = _run(accelerated, ["50"], no_vendors)
    assert actual.returncode == 0
    assert first_difference(expected.stdout, actual.stdout) is None
    assert actual.stderr.count("no OpenCL device") == 1


def test_auto_without_a_gpu_runs_the_original_code_quietly(
    builds: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    """`auto` asked for a GPU only where there might be one: finding none is no news. It
    learns it once (from the device nodes, or from OpenCL where a GPU node exists), then the
    guards stop calling the runtime."""
    original, accelerated, _ = builds
    # auto launches only above IDIOM_GPU_MIN_WORK: 1, so that these small calls ask
    no_gpu = {
        **ON_POCL,
        "IDIOM_DEVICE": "auto",
        "IDIOM_GPU_MIN_WORK": "1",
        "OCL_ICD_VENDORS": str(tmp_path),
        "IDIOM_VERBOSE": "1",
    }
    actual = _run(accelerated, ["50"], no_gpu)
    assert actual.returncode == 0
    assert first_difference(_run(original, ["50"], {}).stdout, actual.stdout) is None
    assert "no OpenCL device" not in actual.stderr
    assert actual.stderr.count("auto: no GPU here") == 1
    # The first reduction's two launches ask; the other kernels' guards know from then on.
    assert actual.stderr.count("cl_run") <= 2
    assert "gemm" in " ".join(_calls(actual.stderr))  # BLAS does not need a GPU


def test_device_off_runs_only_the_original_code(builds: tuple[Path, Path, Accelerated]) -> None:
    original, accelerated, _ = builds
    actual = _run(accelerated, ["50"], {"IDIOM_DEVICE": "off", "IDIOM_VERBOSE": "1"})
    assert first_difference(_run(original, ["50"], {}).stdout, actual.stdout) is None
    assert _calls(actual.stderr) == []
    assert "cl_run" not in actual.stderr  # the guards leave before calling the runtime


def test_auto_keeps_small_loops_off_the_runtime(builds: tuple[Path, Path, Accelerated]) -> None:
    """Below IDIOM_GPU_MIN_WORK, auto would decline every launch: the guards say so first,
    which keeps a replaced inner loop of a few iterations as cheap as the original."""
    original, accelerated, _ = builds
    actual = _run(accelerated, ["50"], {"IDIOM_DEVICE": "auto", "IDIOM_VERBOSE": "1"})
    assert first_difference(_run(original, ["50"], {}).stdout, actual.stdout) is None
    assert "cl_run" not in actual.stderr
    forced = _run(accelerated, ["50"], {**ON_POCL, "IDIOM_VERBOSE": "1"})
    assert "cl_run" in forced.stderr


def test_unwritable_outputs_are_refused_before_any_work(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(AccelerateError, match="does not exist"):
        accelerate([PROGRAM], a_file / "prog", CompileOptions())
    with pytest.raises(AccelerateError, match="is a folder"):
        accelerate([PROGRAM], tmp_path, CompileOptions())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]  # nothing written


def test_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AccelerateError, match="does not exist"):
        accelerate([PROGRAM], tmp_path / "missing" / "prog", CompileOptions())


def test_emit_llvm_writes_verified_ir_with_the_fallback(tmp_path: Path) -> None:
    output = tmp_path / "kernels.ll"
    accelerate([PROGRAM], output, CompileOptions(), emit_llvm=True)
    text = output.read_text()
    assert "call i32 @idiom_gemm(" in text and "call i32 @idiom_cl_run(" in text
    assert ".fallback:" in text  # the original loops stay reachable


def test_multi_file_program(tmp_path: Path) -> None:
    folder = PROGRAM.parent
    sources = [folder / "multi_main.c", folder / "multi_kernel.c"]
    original, accelerated = tmp_path / "original", tmp_path / "accelerated"
    subprocess.run([find_tool("clang"), "-O2", *map(str, sources), "-o", str(original)], check=True)
    report = accelerate(sources, accelerated, CompileOptions())
    assert [o.replaced for u in report.units for o in u.outcomes] == [True]
    for n in ("0", "5", "3000"):
        expected = _run(original, [n], {})
        actual = _run(accelerated, [n], {**ON_POCL, "IDIOM_VERBOSE": "1"})
        assert first_difference(expected.stdout, actual.stdout) is None
    assert "idiom_reduce" in " ".join(_calls(actual.stderr))


BEYOND_2GB = r"""
#include <stdio.h>
static double big[300000000];  /* 2.4 GB: beyond the small code model's reach */
int main(void) {
    double s = 0.0;
    for (int i = 0; i < 1000; i++) big[i * 299999] = i;
    for (int i = 0; i < 1000; i++) s += big[i * 299999];
    printf("%.1f\n", s);
    return 0;
}
"""


def test_the_final_compile_takes_the_builds_code_model_and_level(tmp_path: Path) -> None:
    """The rewritten unit is compiled with the user's code-generation flags (NAS builds
    with -O3 -mcmodel=medium): without the code model this program does not link."""
    source = tmp_path / "big.c"
    source.write_text(BEYOND_2GB)
    output = tmp_path / "big"
    with pytest.raises(AccelerateError, match="relocation"):
        accelerate([source], output, CompileOptions())
    # Linked, not run: 2.4 GB of address space may be more than a test machine lends.
    accelerate([source], output, CompileOptions(extra_flags=("-O3", "-mcmodel=medium")))
    assert output.is_file()
