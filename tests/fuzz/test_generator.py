"""The random program generator: deterministic, covers every shape, writes programs that
compile and whose originals run to completion."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from fuzz.differential import build_original, write_program
from fuzz.generator import SHAPES, generate

COVERAGE_SEEDS = range(400)
SAMPLE = (0, 1, 5, 17, 42, 99, 123, 256, 311, 377)


def test_the_same_seed_gives_the_same_program() -> None:
    for seed in (0, 7, 1234, 99999):
        first, second = generate(seed), generate(seed)
        assert first == second
        assert first.files == second.files


def test_different_seeds_give_different_programs() -> None:
    texts = {tuple(sorted(generate(seed).files.items())) for seed in range(20)}
    assert len(texts) == 20


def test_every_shape_appears_in_the_first_few_hundred_seeds() -> None:
    seen = {generate(seed).shape for seed in COVERAGE_SEEDS}
    assert seen == set(SHAPES), f"missing: {sorted(set(SHAPES) - seen)}"


def test_every_variation_of_note_appears() -> None:
    features = {f for seed in COVERAGE_SEEDS for f in generate(seed).features}
    wanted = {
        "lang=c++",
        "kernel-unit",
        "early-exit",
        "alias=same",
        "alias=shifted",
        "alias-c-in-a",
        "alias-y-x",
        "perm-repeat",
        "struct-bounds",
        "time=swap",
        "time=copy",
        "time=memcpy",
        "time=alternate",
        "storage=static-pointers",
    }
    wanted |= {f"host0={kind}" for kind in ("direct", "pointer", "other-unit", "memcpy")}
    wanted |= {f"host0={kind}" for kind in ("memset", "fread", "qsort", "text")}
    wanted |= {f"n={kind}" for kind in ("0", "1", "2", "odd", "large")}
    assert wanted <= features, f"missing: {sorted(wanted - features)}"


@pytest.mark.parametrize("seed", SAMPLE)
def test_the_original_compiles_runs_and_exits_0(seed: int, tmp_path: Path) -> None:
    program = generate(seed)
    units = write_program(program, tmp_path)
    built = build_original(units, tmp_path / "original")
    assert built.returncode == 0, built.stderr
    run = subprocess.run(
        [str(tmp_path / "original"), *program.args],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip(), "the program prints its checksums"
