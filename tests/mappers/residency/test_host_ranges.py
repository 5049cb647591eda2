"""Host loops bounded before they run (mappers/residency/host_ranges.py): the bytes each array is
touched in, brought back from the device with `idiom_host_access_at` instead of every
device copy.

Two programs. `host_ranges_probe.c`, linked with a runtime that only records the ranges,
checks every element a loop read or wrote against them: the runtime drops a whole device
copy as soon as a range overlaps it, so a range too small by a few elements would go
unnoticed in outputs, and only this check sees it. `between_steps.c` runs a stencil and a
reduction in a time loop with host loops between the steps, on PoCL against the original,
and counts what each step uploads and which copies each host access drops.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mappers.accelerate import accelerate, rewrite_file
from mappers.residency import placement
from mappers.rewrite.irtext import verify
from matcher.frontend import CompileOptions, find_tool
from measure.compare import first_difference
from tests.mappers.differential import build_pair, library_without_maps, run_binary

PROGRAMS = Path(__file__).parents[1] / "programs"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}
# Traffic counts measure the compiler's placement: with the safety net (IDIOM_SAFETY_NET, on by
# default) the bytes on an array's partial first and last pages also travel at every launch,
# which for these arrays of a few pages is most of them (tests/mappers/test_safety_net.py).
PLACEMENT_ONLY = {"IDIOM_SAFETY_NET": "0"}
PROBE_SIZES = (0, 1, 2, 3, 7, 64, 65, 301)
# The cases that must ask for everything at these sizes (the others must not): an address
# loaded in the loop, an inner bound that moves with the outer counter, and an 8-bit counter
# that wraps past 255 (from n = 4 on: see `wraps`).
EVERYTHING = {
    "indexed": lambda n: n >= 1,
    "triangle": lambda n: n >= 8,
    "wraps": lambda n: n >= 4,
}


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    folder = tmp_path_factory.mktemp("probe")
    ir = folder / "probe.ll"
    idioms = library_without_maps(folder)  # its loops are the host loops probed
    accelerate([PROGRAMS / "host_ranges_probe.c"], ir, CompileOptions(), idioms, emit_llvm=True)
    binary = folder / "probe"
    command = [find_tool("clang"), "-O2", "-Wno-override-module", str(ir)]
    command += [str(PROGRAMS / "probe_runtime.c"), "-o", str(binary)]
    subprocess.run(command, check=True)
    result = run_binary(binary, [], {})
    assert result.returncode == 0, result.stderr
    return [line.split() for line in result.stdout.splitlines()[1:]]


def test_every_byte_a_host_loop_touches_is_in_a_range_it_asked_for(
    probe: list[list[str]],
) -> None:
    assert len(probe) == 16 * len(PROBE_SIZES)
    missed = [" ".join(words) for words in probe if words[3] != "ok"]
    assert not missed, missed


def test_loops_that_cannot_be_bounded_ask_for_everything(probe: list[list[str]]) -> None:
    for name, n, asked, *_ in probe:
        expected = EVERYTHING.get(name, lambda _: False)(int(n))
        assert (asked == "everything") == expected, (name, n, asked)


def test_ranges_stay_within_the_arrays(probe: list[list[str]]) -> None:
    wide = [" ".join(words) for words in probe if words[-1] == "wide"]
    assert not wide, wide


@pytest.fixture(scope="module")
def steps(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("between_steps")
    # The loops between the steps are the host's: no map of them runs on the device.
    original, accelerated, report = build_pair(
        PROGRAMS / "between_steps.c", folder, library_without_maps(folder)
    )
    assert report.replaced == 2  # the stencil and the reduction
    return original, accelerated


@pytest.mark.parametrize("mode", range(10))
@pytest.mark.parametrize("n", [0, 1, 2, 7, 64, 69, 301, 1001])
def test_host_loops_between_steps_give_the_original_results(
    steps: tuple[Path, Path], mode: int, n: int
) -> None:
    original, accelerated = steps
    args = [str(n), "5", "3", str(mode)]
    expected = run_binary(original, args, {})
    actual = run_binary(accelerated, args, ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert first_difference(expected.stdout, actual.stdout) is None


def _stats(binary: Path, mode: int, folder: Path) -> list[dict[str, Any]]:
    path = folder / f"stats{mode}.jsonl"
    result = run_binary(
        binary,
        ["1001", "6", "3", str(mode)],
        {**ON_POCL, **PLACEMENT_ONLY, "IDIOM_STATS": str(path)},
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in path.read_text().splitlines()]


def _uploads(rows: list[dict[str, Any]], kernel: str) -> list[int]:
    return [r["upload_bytes"] for r in rows if r.get("kernel") == kernel]


def test_a_host_loop_on_a_small_array_leaves_the_big_ones_on_the_device(
    steps: tuple[Path, Path], tmp_path: Path
) -> None:
    rows = _stats(steps[1], 0, tmp_path)
    stencil = _uploads(rows, "idiom_stencil")
    assert len(stencil) == 6
    assert stencil[0] >= 2 * 999 * 8  # both arrays, once
    assert all(b < 512 for b in stencil[1:]), stencil  # then the parameters only
    assert all(b < 512 for b in _uploads(rows, "idiom_reduce")), rows
    drops = [r for r in rows if r["entry"] == "host_access"]
    assert len(drops) == 1, drops  # at the end, for the final prints


@pytest.mark.parametrize("mode", [1, 2, 3, 5, 7, 9])
def test_a_bounded_host_loop_drops_only_the_copy_it_touches(
    steps: tuple[Path, Path], tmp_path: Path, mode: int
) -> None:
    rows = _stats(steps[1], mode, tmp_path)
    drops = [r["entries"] for r in rows if r["entry"] == "host_access"]
    assert drops[:6] == [1] * 6, drops
    stencil = _uploads(rows, "idiom_stencil")
    assert all(b < 1001 * 8 + 512 for b in stencil[1:]), stencil  # the one array it touched


@pytest.mark.parametrize("mode", [4, 6])
def test_a_host_loop_that_cannot_be_bounded_drops_every_copy(
    steps: tuple[Path, Path], tmp_path: Path, mode: int
) -> None:
    rows = _stats(steps[1], mode, tmp_path)
    drops = [r["entries"] for r in rows if r["entry"] == "host_access"]
    assert drops == [2] * 6, drops


def test_ranges_the_verifier_rejects_give_way_to_the_global_form(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = PROGRAMS / "between_steps.c"
    text, _ = rewrite_file(source, CompileOptions())
    (ranged,) = placement.with_host_access([text], [str(source)])
    assert verify(ranged) is None
    assert "call void @idiom_host_access_at(ptr %idiom.host" in ranged
    monkeypatch.setattr(placement, "verify", lambda _: "rejected")
    (plain,) = placement.with_host_access([text], [str(source)])
    assert "idiom.host" not in plain
    assert len(_whole_memory_accesses(plain)) > len(_whole_memory_accesses(ranged))


def _whole_memory_accesses(text: str) -> list[str]:
    """Calls that bring every device copy back (the fast form, inline, or its wrapper)."""
    return re.findall(
        r'call (?:preserve_allcc )?void @"?idiom\.fast\.host_access(?:\.saved")?\(\)', text
    )
