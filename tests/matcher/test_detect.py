"""Detection on corpus programs: instances, folding, nesting, interface variables."""

from __future__ import annotations

from pathlib import Path

import pytest

from matcher.detect import Instance, detect_module
from matcher.frontend import compile_to_ir
from matcher.ir_builder import build_module
from matcher.pipeline import load_library

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def detect(name: str) -> list[Instance]:
    path = CORPUS / name
    module = build_module(compile_to_ir(path), str(path))
    return list(detect_module(module, load_library().exported_programs()).instances)


def only(instances: list[Instance], idiom: str, function: str) -> Instance:
    (found,) = [i for i in instances if i.idiom == idiom and i.function == function]
    return found


def test_reduction_interface_is_the_dot_product() -> None:
    instance = only(detect("red_dot.c"), "Reduction", "dot")
    s = instance.solution
    assert instance.line == 10 and instance.within is None
    assert s["acc"] is not None and s["acc"].opcode == "phi"
    assert s["update"] is not None and s["update"].opcode == "fadd"
    assert s["acc_init"] is not None and s["acc_init"].constant == 0.0
    assert s["iter_begin"] is not None and s["iter_begin"].constant == 0
    assert s["iter_end"] is not None and s["iter_end"].name == "%n"
    loads = [s[f"load[{k}]"] for k in range(3)]
    assert loads[2] is None and all(s[f"read[{k}].value"] is loads[k] for k in range(3))
    assert {load.operands[0].operands[0].name for load in loads[:2]} == {"%x", "%y"}
    assert dict(instance.facts)["arrays"] == "x, y"


def test_gemm_interface_and_nested_instances() -> None:
    instances = detect("gemm_dot_global.c")
    gemm = only(instances, "GEMM", "matmul")
    s = gemm.solution
    assert gemm.line == 15 and gemm.within is None
    arrays = {s["a.array"].name, s["b.array"].name}  # type: ignore[union-attr]
    assert arrays == {"@A", "@B"} and s["c.array"].name == "@C"  # type: ignore[union-attr]
    assert [s[f"loop[{k}].iter_end"].name for k in range(3)] == ["%n"] * 3  # type: ignore[union-attr]
    assert s["alpha"] is None and s["c_old"] is None  # C = A*B: alpha 1, beta 0
    inner = [i for i in instances if i.function == "matmul" and i is not gemm]
    assert inner and all(i.within == "GEMM at line 15-20" for i in inner)


@pytest.mark.parametrize(
    ("program", "idiom", "function", "bins"),
    [("hist_keys.c", "Histogram", "count_keys", "%h")],
)
def test_histogram_interface(program: str, idiom: str, function: str, bins: str) -> None:
    s = only(detect(program), idiom, function).solution
    assert s["bins"] is not None and s["bins"].name == bins
    assert s["increment"] is not None and s["increment"].constant == 1
    assert s["bin_index"] is not None and s["bin_index"].opcode == "sext"


def test_spmv_csr_interface() -> None:
    s = only(detect("csr_banded.c"), "SpMV_CSR", "spmv_csr").solution
    names = {key: s[key].name for key in ("row_ptr", "values", "columns", "x", "y")}  # type: ignore[union-attr]
    assert names == {
        "row_ptr": "%row_ptr",
        "values": "%val",
        "columns": "%col",
        "x": "%x",
        "y": "%y",
    }


def test_near_miss_prefix_sum_is_not_a_reduction() -> None:
    instances = detect("nm_red_prefix.c")
    assert not [i for i in instances if i.idiom == "Reduction" and i.function != "main"]
