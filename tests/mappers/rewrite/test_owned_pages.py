"""Large static arrays laid out on pages of their own (mappers/rewrite/owned_pages.py), so that
the safety net protects the edges of their device copies and launches writing them return
before their kernels."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import pytest

from mappers.rewrite.irtext import verify
from mappers.rewrite.owned_pages import owned_pages
from tests.mappers.differential import build_pair, same_outputs

UNIT = """\
@grid = dso_local global [1024 x [1024 x double]] zeroinitializer, align 64
@rows = internal global [3000 x double] [double 1.0, double 2.0{rest}], align 64
@small = dso_local global [16 x double] zeroinitializer, align 16

define dso_local double @main() {{
  %p = getelementptr inbounds [1024 x [1024 x double]], ptr @grid, i64 0, i64 3, i64 4
  %x = load double, ptr %p, align 8
  %q = getelementptr inbounds [3000 x double], ptr @rows, i64 0, i64 1
  %y = load double, ptr %q, align 8
  %z = fadd double %x, %y
  ret double %z
}}
"""


def _unit() -> str:
    return UNIT.format(rest="".join(", double 0.0" for _ in range(2998)))


def test_large_arrays_get_pages_of_their_own_and_keep_their_names() -> None:
    text = owned_pages(_unit())
    assert verify(text) is None
    assert re.search(r"^@grid\.idiom\.pages = internal global .* align 4096$", text, re.M)
    assert "@grid = dso_local alias [1024 x [1024 x double]], getelementptr" in text
    # The initialised array keeps its values, after its padding.
    assert re.search(r"^@rows = internal alias \[3000 x double\]", text, re.M)
    assert "[3000 x double] [double 1.0, double 2.0" in text
    # Each wrapper is whole pages, registered before main; the small array stays as it was.
    sizes = [
        int(size)
        for size in re.findall(r"@idiom_private_pages\(ptr @\w+\.idiom\.pages, i64 (\d+)\)", text)
    ]
    assert len(sizes) == 2 and all(size % 4096 == 0 for size in sizes)
    assert "@small = dso_local global [16 x double] zeroinitializer, align 16" in text
    assert "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }]" in text


def test_arrays_start_at_different_offsets_into_their_first_page() -> None:
    text = owned_pages(_unit())
    offsets = re.findall(r"^@\w+\.idiom\.pages = internal global <\{ \[(\d+) x i8\]", text, re.M)
    assert len(set(offsets)) == len(offsets) == 2


def test_an_existing_constructor_list_grows() -> None:
    ctors = (
        "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
        "[{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]\n"
        "define internal void @init() {\n  ret void\n}\n"
    )
    text = owned_pages(_unit() + ctors)
    assert verify(text) is None
    assert "appending global [2 x { i32, ptr, ptr }]" in text
    assert "ptr @init, ptr null }, { i32, ptr, ptr }" in text


@pytest.mark.parametrize(
    "line",
    [
        "@c = dso_local constant [8192 x double] zeroinitializer, align 64",
        "@t = dso_local thread_local global [8192 x double] zeroinitializer, align 64",
        "@w = weak dso_local global [8192 x double] zeroinitializer, align 64",
        '@s = dso_local global [8192 x double] zeroinitializer, section "x", align 64',
        "@e = external global [8192 x double], align 64",
        "@k = dso_local global { [8192 x double] } zeroinitializer, align 64",
    ],
)
def test_what_is_left_where_it_was(line: str) -> None:
    assert owned_pages(line + "\n") == line + "\n"


CORPUS = Path(__file__).resolve().parents[3] / "corpus"


def test_sweeps_of_static_grids_return_before_their_kernels(tmp_path: Path) -> None:
    """corpus/stencil_2d5_global.c sweeps two static 1024 x 1024 grids: with their edges
    protected, no sweep waits for its kernel but those the runtime measures, with the safety
    net and without it (the placement alone), outputs equal."""
    pair = build_pair(CORPUS / "stencil_2d5_global.c", tmp_path)
    stats = tmp_path / "stats.jsonl"
    for net in ("1", "0"):
        stats.unlink(missing_ok=True)
        env = {"IDIOM_DEVICE": "cpu", "IDIOM_SAFETY_NET": net, "IDIOM_STATS": str(stats)}
        same_outputs(pair, ["256", "40"], env)
        launches = [json.loads(line) for line in stats.read_text().splitlines()]
        waits = collections.Counter(
            bool(r.get("asynchronous")) for r in launches if r["entry"] == "cl_run"
        )
        assert waits[True] >= 36 and waits[False] <= 4, waits
