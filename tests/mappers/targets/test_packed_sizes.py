"""A generated kernel's sizes travel packed in one argument (`Kernel.packed_sizes`): the
launch packs them in the order of the kernel it names, so every kernel launched in its
place must take the same sizes in the same order, or nothing is replaced."""

from __future__ import annotations

import pytest

from lift.ir import expr as ir
from lift.ir.text import parse
from lift.opencl.generate import generate
from mappers.rewrite.emit import NotReplaced
from mappers.targets.kernels import _covered_twin, _same_sizes, long_and_int

ONE = "(lambda ((x (array f64 N))) (map-global 0 (lambda (v) (* v 2.0:f64)) x))"


def parse_lambda(source: str) -> ir.Lambda:
    program = parse(source)
    assert isinstance(program, ir.Lambda)
    return program


def test_the_long_and_int_kernels_pack_the_same_sizes() -> None:
    wide, narrow = long_and_int(parse_lambda(ONE), "k", work_group=None)
    assert wide.packed_sizes and narrow.packed_sizes
    assert wide.sizes == narrow.sizes == ("N",)
    assert "typedef struct { long v[1]; } k_sizes;" in wide.source
    assert "typedef struct { int v[1]; } k_sizes;" in narrow.source


def test_a_kernel_launched_instead_with_other_sizes_replaces_nothing() -> None:
    one = generate(parse_lambda(ONE), "k", packed_sizes=True)
    same = generate(parse_lambda(ONE), "k", index="int", packed_sizes=True)
    _same_sizes(one, [same, "a translated source"])  # the same sizes: launched
    apart = generate(parse_lambda(ONE), "k")
    with pytest.raises(NotReplaced, match="takes sizes"):
        _same_sizes(one, [apart])  # packed against apart
    other = generate(parse_lambda(ONE.replace(" N)", " L)")), "k", packed_sizes=True)
    with pytest.raises(NotReplaced, match=r"takes sizes \('L',\), not \('N',\)"):
        _same_sizes(one, [other])


def test_a_covered_twin_is_the_same_program_one_element_an_item() -> None:
    """`long_and_int(covered_twin=True)`: each source defines `<name>_covered` after the
    kernel, with the same arguments, without the loop striding by the range; launched with
    the flag only where every kernel the launch may run has its twin."""
    wide, narrow = long_and_int(parse_lambda(ONE), "k", work_group=None, covered_twin=True)
    for kernel, index in ((wide, "long"), (narrow, "int")):
        assert kernel.covered_twin
        assert kernel.source.count("#pragma OPENCL FP_CONTRACT OFF") == 1
        loop, twin = kernel.source.split("__kernel void k_covered(")
        assert f"for ({index} lk_i1 = get_global_id(0); lk_i1 < (N);" in loop
        assert f"if (get_global_id(0) < (N)) {{ const {index} lk_i1 = get_global_id(0);" in twin
        assert "get_global_size" not in twin
        assert f"typedef struct {{ {index} v[1]; }} k_covered_sizes;" in loop
    assert _covered_twin(wide, [narrow])
    plain = generate(parse_lambda(ONE), "k", packed_sizes=True)
    assert not _covered_twin(plain, ["a translated source"])
    with pytest.raises(AssertionError, match="covered twins or none"):
        _covered_twin(wide, [plain])
