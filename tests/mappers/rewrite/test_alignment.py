"""mappers/rewrite/alignment.py: large arrays defined in a unit get a cache line's alignment; small
ones, declarations, non-arrays and already aligned ones are left alone."""

from __future__ import annotations

import pytest

from mappers.rewrite.alignment import align_large_arrays


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "@A = internal global [300 x [250 x double]] zeroinitializer, align 16",
            "@A = internal global [300 x [250 x double]] zeroinitializer, align 64",
        ),
        (
            "@T = dso_local constant [1024 x i32] [i32 1, i32 2], align 16",
            "@T = dso_local constant [1024 x i32] [i32 1, i32 2], align 64",
        ),
        ("@x = internal global [10 x double] zeroinitializer, align 16", None),
        ("@B = dso_local global [1000 x float] zeroinitializer, align 16", None),  # 4000 bytes
        ("@e = external global [100000 x double], align 16", None),
        ("@s = internal global %struct.S zeroinitializer, align 8", None),
        ("@P = internal global [9000 x %struct.S] zeroinitializer, align 8", None),
        ("@W = internal global [9000 x double] zeroinitializer, align 128", None),
        ("  %a = alloca [9000 x double], align 16", None),
    ],
)
def test_alignment(line: str, expected: str | None) -> None:
    text = f"; ModuleID = 'x'\n{line}\n"
    assert align_large_arrays(text) == f"; ModuleID = 'x'\n{expected or line}\n"
