"""A run that launches on a device keeps every large block in a mapping of its own
(idiom_opencl.c, `keep_large_blocks_mapped`): glibc's mmap threshold, raised by the
program's frees, would otherwise serve large arrays from the brk heap, where they share
their edge pages and every launch writing one copies them back and waits.
corpus/jds_matrix.cpp grows its matrix's arrays by push_back (freeing mapped blocks
larger and larger), then allocates the vectors its iterations write."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, same_outputs

CORPUS = Path(__file__).resolve().parents[3] / "corpus"
ITERATIONS = 6
Pair = tuple[Path, Path, Accelerated]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Pair:
    return build_pair(CORPUS / "jds_matrix.cpp", tmp_path_factory.mktemp("jds"))


def _waits(pair: Pair, tmp_path: Path, **extra: str) -> dict[str, list[tuple[bool, int]]]:
    """Each of the product's and the vector update's launches: (asynchronous, bytes copied
    back); the outputs checked against the original's."""
    stats = tmp_path / "stats.jsonl"
    env = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_STATS": str(stats), **extra}
    same_outputs(pair, ["40000", str(ITERATIONS)], env)
    launches: dict[str, list[tuple[bool, int]]] = collections.defaultdict(list)
    for line in stats.read_text().splitlines():
        record = json.loads(line)
        if record.get("kernel") in ("idiom_jds_spmv", "idiom_map"):
            launches[record["kernel"]].append(
                (bool(record.get("asynchronous")), record["download_bytes"])
            )
    return launches


def test_the_iterations_launches_return_before_their_kernels(pair: Pair, tmp_path: Path) -> None:
    launches = _waits(pair, tmp_path)
    for kernel in ("idiom_jds_spmv", "idiom_map"):
        assert len(launches[kernel]) == ITERATIONS
        # The first takes the arrays to the device; every later one returns at once.
        assert launches[kernel][1:] == [(True, 0)] * (ITERATIONS - 1), (kernel, launches)


def test_without_it_each_launch_copies_edges_back_and_waits(pair: Pair, tmp_path: Path) -> None:
    """IDIOM_OWN_MAPPINGS=0: the vectors come from the heap; a user's own
    MALLOC_MMAP_THRESHOLD_ is kept the same way."""
    for setting in ({"IDIOM_OWN_MAPPINGS": "0"}, {"MALLOC_MMAP_THRESHOLD_": "33554432"}):
        launches = _waits(pair, tmp_path, **setting)
        for kernel in ("idiom_jds_spmv", "idiom_map"):
            later = launches[kernel][1:]
            assert later and all(not early and copied > 0 for early, copied in later), launches
