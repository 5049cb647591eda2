"""The exploration (lift/exploration): lowering, the deterministic default, the candidates
(every one of which must build and write the default's output on the device), the timed
search within a budget, and its cache on disk.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.build import map_nd, zip_nd
from lift.ir.interpret import run
from lift.ir.text import parse, show
from lift.ir.types import Array, Scalar, Size
from lift.opencl.generate import Dimension, Output, generate

pytest.importorskip("pyopencl")

from lift.exploration.device import Device, Launch
from lift.exploration.search import Choice, cached_choice, fits_int, search, size_class
from lift.exploration.space import Candidate, candidates, default_candidate, launch_shape, lower

F64 = Scalar("f64")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(folder))
    return folder


def lam(source: str) -> ir.Lambda:
    program = parse(source)
    assert isinstance(program, ir.Lambda)
    return program


MAP_1D = "(lambda ((x (array f64 N))) (map (lambda (v) (* 2.0:f64 v)) x))"
ZIP_MAP = (
    "(lambda ((x (array f64 N)) (y (array f64 N)))"
    " (map (lambda (q) (+ (* 2.0:f64 (get 0 q)) (get 1 q))) (zip x y)))"
)
SPLIT_JOIN = (
    "(lambda ((x (array f64 N))) (join (map (map (lambda (v) (* 2.0:f64 v))) (split 256 x))))"
)

THREE_POINTS = [(0, 0), (-1, 0), (0, 1)]


def stencil() -> tuple[ir.Lambda, Output]:
    """A 2D stencil as the tool builds it (benchmarks/lift_kernels.py): one strided view
    per read, offsets, strides and lengths size variables; written into `b`."""
    a = ir.Param("a", Array(F64, Size.of("L")))
    b = ir.Param("b", Array(F64, Size.of("L")))
    strides = (Size.of("s0"), Size.of("s1"))
    lengths = (Size.of("n0"), Size.of("n1"))
    views: list[ir.Expr] = [
        ir.Apply(ir.Strided(Size.of(f"o{k}"), strides, lengths), (a,))
        for k in range(len(THREE_POINTS))
    ]
    p = ir.Param("p")
    gets = [ir.Apply(ir.Get(k), (p,)) for k in range(len(THREE_POINTS))]
    body = ir.Apply(ir.Op("-"), (ir.Apply(ir.Op("+"), (gets[1], gets[2])), gets[0]))
    program = ir.Lambda((a, b), map_nd(ir.Lambda((p,), body), zip_nd(views, 2), 2))
    return program, Output("b", True, Size.of("ow"), strides)


def stencil_inputs(rows: int, columns: int, seed: int = 0) -> tuple[dict[str, Any], dict[str, int]]:
    rng = np.random.default_rng(seed)
    inputs = {"a": rng.random(rows * columns), "b": rng.random(rows * columns)}
    centre = columns + 1
    sizes = {"L": rows * columns, "n0": rows - 2, "n1": columns - 2, "s0": columns, "s1": 1}
    sizes["ow"] = centre
    for k, (di, dj) in enumerate(THREE_POINTS):
        sizes[f"o{k}"] = centre + di * columns + dj
    return inputs, sizes


# ---------------------------------------------------------------- lower

STENCIL_TEXT = (
    "(lambda ((a (array f64 L)) (b (array f64 L)))"
    " (map (map (lambda (p) (- (+ (get 1 p) (get 2 p)) (get 0 p))))"
    " (map (lambda (row2) (zip (get 0 row2) (get 1 row2) (get 2 row2)))"
    " (zip (strided o0 (s0 s1) (n0 n1) a) (strided o1 (s0 s1) (n0 n1) a)"
    " (strided o2 (s0 s1) (n0 n1) a)))))"
)
STENCIL_LOWERED = (
    "(lambda ((a (array f64 L)) (b (array f64 L)))"
    " (map-global 1 (map-global 0 (lambda (p) (- (+ (get 1 p) (get 2 p)) (get 0 p))))"
    " (map (lambda (row2) (zip (get 0 row2) (get 1 row2) (get 2 row2)))"
    " (zip (strided o0 (s0 s1) (n0 n1) a) (strided o1 (s0 s1) (n0 n1) a)"
    " (strided o2 (s0 s1) (n0 n1) a)))))"
)


@pytest.mark.parametrize(
    ("source", "lowered", "steps"),
    [
        (
            MAP_1D,
            "(lambda ((x (array f64 N))) (map-global 0 (lambda (v) (* 2.0:f64 v)) x))",
            ("lower-map(global 0)",),
        ),
        (
            SPLIT_JOIN,
            "(lambda ((x (array f64 N)))"
            " (join (map-workgroup 0 (map-local 0 (lambda (v) (* 2.0:f64 v))) (split 256 x))))",
            ("lower-map(workgroup 0, local 0)",),
        ),
        (
            "(lambda ((x (array (array f64 M) N))) (join (map (map (map neg)) (split 4 x))))",
            "(lambda ((x (array (array f64 M) N)))"
            " (join (map-workgroup 0 (map-local 0 (map-seq neg)) (split 4 x))))",
            ("lower-map(workgroup 0, local 0)", "lower-map(seq)"),
        ),
        (
            "(lambda ((x (array (array f64 M) N))) (map (lambda (row) (reduce + 0.0:f64 row)) x))",
            "(lambda ((x (array (array f64 M) N)))"
            " (map-global 0 (lambda (row) (reduce-seq + 0.0:f64 row)) x))",
            ("lower-reduce", "lower-map(global 0)"),
        ),
        (  # the indices a permute writes at stay a map, computed where each is written
            "(lambda ((i (array i32 N)) (x (array f64 N)) (y (array f64 M)))"
            " (permute (map (lambda (k) (- k 1:i32)) i) (map neg x) y))",
            "(lambda ((i (array i32 N)) (x (array f64 N)) (y (array f64 M)))"
            " (permute (map (lambda (k) (- k 1:i32)) i) (map-global 0 neg x) y))",
            ("lower-map(global 0)",),
        ),
        (
            "(lambda ((x (array (array (array f64 K) M) N))) (map (map (map neg)) x))",
            "(lambda ((x (array (array (array f64 K) M) N)))"
            " (map-global 2 (map-global 1 (map-global 0 neg)) x))",
            ("lower-map(global 0)", "lower-map(global 1)", "lower-map(global 2)"),
        ),
    ],
    ids=["map-1d", "split-join", "split-join-rows", "reduce-in-map", "permute", "map-3d"],
)
def test_lower(source: str, lowered: str, steps: tuple[str, ...]) -> None:
    program = lam(source)
    result, recorded = lower(program)
    assert show(result) == lowered
    assert recorded == steps
    assert result.params == program.params


def test_lower_stencil_over_zipped_strided_views() -> None:
    program, _ = stencil()
    assert show(program) == STENCIL_TEXT
    result, steps = lower(program)
    assert show(result) == STENCIL_LOWERED
    assert steps == ("lower-map(global 0)", "lower-map(global 1)")


def test_lowering_again_changes_nothing() -> None:
    for program in (lam(MAP_1D), lam(SPLIT_JOIN), stencil()[0]):
        lowered, _ = lower(program)
        assert lower(lowered) == (lowered, ())


def test_lowered_stencil_means_what_the_stencil_means() -> None:
    program, _ = stencil()
    inputs, sizes = stencil_inputs(6, 7)
    args = [inputs["a"].tolist(), inputs["b"].tolist()]
    assert run(lower(program)[0], args, sizes) == run(program, args, sizes)


# ---------------------------------------------------------------- the default


@pytest.mark.parametrize(
    ("source", "local"),
    [
        (MAP_1D, (256,)),
        ("(lambda ((x (array (array f64 M) N))) (map (map neg) x))", (32, 8)),
        ("(lambda ((x (array (array (array f64 K) M) N))) (map (map (map neg)) x))", (32, 8, 1)),
    ],
    ids=["1d", "2d", "3d"],
)
def test_default_candidate_is_deterministic(source: str, local: tuple[int, ...]) -> None:
    first, second = default_candidate(lam(source)), default_candidate(lam(source))
    assert first == second
    assert first.kernel.source == second.kernel.source
    assert first.local == local
    assert first.coarsen == 1
    assert len(first.kernel.dimensions) == len(local)
    lowered, steps = lower(lam(source))
    assert (first.program, first.steps) == (lowered, steps)
    assert first.kernel == generate(lowered, covered=True)
    assert first.kernel.index == "long"
    # An item for each element of every dimension but the outermost: tests, not loops.
    assert first.kernel.covered == (len(local) > 1)
    covered = ", covered" if len(local) > 1 else ""
    assert first.describe() == (
        f"rewrites: {', '.join(steps)}; work-group {'x'.join(map(str, local))}; "
        f"1 per work-item; long indices{covered}"
    )


def test_default_candidate_of_a_stencil_written_into_its_grid() -> None:
    program, output = stencil()
    default = default_candidate(program, output)
    assert default == default_candidate(*stencil())
    assert default.local == (32, 8)
    assert default.kernel.output == output
    assert default.kernel.dimensions == (
        Dimension(length=Size.of("n1")),
        Dimension(length=Size.of("n0")),
    )


def test_launch_shape() -> None:
    default = default_candidate(lam(MAP_1D))
    assert launch_shape(default, {"N": 1000}) == ((1024,), (256,))
    coarse = Candidate(default.steps, default.program, default.kernel, (64,), 4)
    assert launch_shape(coarse, {"N": 1000}) == ((256,), (64,))  # 250 items, whole groups
    program, output = stencil()
    grid = default_candidate(program, output)
    _, sizes = stencil_inputs(20, 70)  # 18 rows of 68 points
    assert launch_shape(grid, sizes) == ((96, 24), (32, 8))
    groups = default_candidate(lam(SPLIT_JOIN))
    assert launch_shape(groups, {"N": 1024}) == ((1024,), (256,))  # 4 groups of 256


# ---------------------------------------------------------------- candidates


def test_candidates_start_with_the_default_rewrite() -> None:
    program = lam(ZIP_MAP)
    default = default_candidate(program)
    every = list(candidates(program))
    first = every[0]
    assert (first.steps, first.program, first.kernel) == (
        default.steps,
        default.program,
        default.kernel,
    )
    assert first.coarsen == 1
    assert {c.steps for c in every} == {
        ("lower-map(global 0)",),
        ("vectorise(2)", "lower-map(global 0)"),
        ("vectorise(4)", "lower-map(global 0)"),
        ("split-join(256)", "lower-map(workgroup 0, local 0)"),
    }
    assert {c.kernel.index for c in every} == {"long", "int"}
    assert {c.coarsen for c in every} == {1, 2, 4, 8}
    assert len(every) == 4 * 2 * 4 * 4  # rewrites x index types x work-groups x coarsening
    assert list(candidates(program)) == every  # deterministic


def run_every_candidate(
    device: Device,
    program: ir.Lambda,
    output: Output | None,
    *,
    inputs: dict[str, Any],
    sizes: dict[str, int],
    elements: int,
) -> set[tuple[str, ...]]:
    """Run the default and then every candidate; each must write the default's output
    bit for bit. The rewrites seen."""
    default = default_candidate(program, output)
    expected = np.zeros(elements)
    device.run(
        default.program,
        default.kernel,
        inputs,
        sizes,
        Launch(*launch_shape(default, sizes)),
        expected,
    )
    seen = set()
    for candidate in candidates(program, output):
        out = np.zeros(elements)
        launch = Launch(*launch_shape(candidate, sizes))
        device.run(candidate.program, candidate.kernel, inputs, sizes, launch, out)
        np.testing.assert_array_equal(out, expected, err_msg=candidate.describe())
        seen.add(candidate.steps)
    return seen


def test_every_candidate_of_an_element_wise_map_writes_the_default_output(
    device: Device,
) -> None:
    n = 1024  # 256 and 4 divide it
    rng = np.random.default_rng(1)
    inputs = {"x": rng.random(n), "y": rng.random(n)}
    seen = run_every_candidate(
        device, lam(ZIP_MAP), None, inputs=inputs, sizes={"N": n}, elements=n
    )
    assert len(seen) == 4
    reference = run(lam(ZIP_MAP), [inputs["x"].tolist(), inputs["y"].tolist()])
    default = default_candidate(lam(ZIP_MAP))
    out = np.zeros(n)
    device.run(
        default.program,
        default.kernel,
        inputs,
        {"N": n},
        Launch(*launch_shape(default, {"N": n})),
        out,
    )
    np.testing.assert_array_equal(out, np.array(reference))


def test_every_candidate_of_a_stencil_writes_the_default_output(device: Device) -> None:
    program, output = stencil()
    inputs, sizes = stencil_inputs(258, 7)  # 256 interior rows: split-join's chunks divide
    seen = run_every_candidate(
        device, program, output, inputs=inputs, sizes=sizes, elements=sizes["L"]
    )
    assert seen == {
        ("lower-map(global 0)", "lower-map(global 1)"),
        ("split-join(256)", "lower-map(workgroup 0, local 0)", "lower-map(seq)"),
    }
    # The default itself: the interior updated, the border of b as it was.
    default = default_candidate(program, output)
    out = np.zeros(sizes["L"])
    device.run(program, default.kernel, inputs, sizes, Launch(*launch_shape(default, sizes)), out)
    a, b, grid = (v.reshape(258, 7) for v in (inputs["a"], inputs["b"], out))
    np.testing.assert_array_equal(grid[1:-1, 1:-1], (a[:-2, 1:-1] + a[1:-1, 2:]) - a[1:-1, 1:-1])
    np.testing.assert_array_equal(grid[0], b[0])
    np.testing.assert_array_equal(grid[:, -1], b[:, -1])


# ---------------------------------------------------------------- search


def described(result: Any, text: str) -> list[str]:
    return [description for description, _ in result.timings if text in description]


def test_search_prunes_splits_that_do_not_divide(device: Device, cache: Path) -> None:
    n = 1000  # 4 and 2 divide it, 256 does not
    rng = np.random.default_rng(2)
    inputs = {"x": rng.random(n), "y": rng.random(n)}
    result = search(
        lam(ZIP_MAP), inputs, {"N": n}, device, output_elements=n, budget_seconds=60, remember=False
    )
    assert result.pruned == []  # every candidate considered, none failed
    assert not described(result, "split-join")
    assert described(result, "vectorise(4)")
    assert described(result, "vectorise(2)")
    assert result.tried == len(result.timings) - 1 == 3 * 2 * 4 * 4
    assert not cache.exists()  # remember=False


def test_search_within_a_budget(device: Device, cache: Path) -> None:
    n = 1024
    program = lam(ZIP_MAP)
    rng = np.random.default_rng(3)
    inputs = {"x": rng.random(n), "y": rng.random(n)}
    sizes = {"N": n}
    result = search(program, inputs, sizes, device, output_elements=n, budget_seconds=3.0)
    assert result.tried > 0
    assert result.default_seconds > 0
    assert result.best_seconds <= result.default_seconds
    assert result.timings[0] == (default_candidate(program).describe(), result.default_seconds)
    assert (result.best.describe(), result.best_seconds) in result.timings
    assert min(seconds for _, seconds in result.timings) == result.best_seconds
    assert result.search_seconds < 30
    if result.pruned:  # only the budget may cut the search short here
        assert result.pruned == ["the budget ran out before the remaining candidates"]
    # Remembered under the cache folder, one file per key.
    files = list((cache / "lift").glob("*.json"))
    assert len(files) == 1
    assert not list((cache / "lift").glob("*.tmp"))
    data = json.loads(files[0].read_text())
    best = result.best
    assert data["steps"] == list(best.steps)
    assert data["local"] == list(best.local)
    assert data["coarsen"] == best.coarsen
    assert data["expression"] == show(program)
    assert data["device"] == device.name
    assert data["sizes"] == sizes
    choice = cached_choice(program, device.name, sizes)
    assert choice == Choice(
        best.steps, best.local, best.coarsen, result.best_seconds, result.default_seconds
    )
    # The same size class shares the entry; another class, device or program does not.
    assert cached_choice(program, device.name, {"N": 1500}) == choice
    assert cached_choice(program, device.name, {"N": 4096}) is None
    assert cached_choice(program, "another device", sizes) is None
    assert cached_choice(lam(MAP_1D), device.name, sizes) is None
    # A corrupt entry counts as missing.
    for garbage in ("{not json", "[1, 2]", '{"steps": []}', ""):
        files[0].write_text(garbage)
        assert cached_choice(program, device.name, sizes) is None


def test_search_of_a_stencil_checks_candidates_against_the_default(
    device: Device, cache: Path
) -> None:
    program, output = stencil()
    inputs, sizes = stencil_inputs(34, 20)  # 32 interior rows: 256 does not divide them
    result = search(
        program,
        inputs,
        sizes,
        device,
        output=output,
        output_elements=sizes["L"],
        budget_seconds=5.0,
    )
    assert result.tried > 0
    assert result.best_seconds <= result.default_seconds
    assert not described(result, "split-join")
    assert all("did not run" not in p and "different output" not in p for p in result.pruned)
    assert cached_choice(program, device.name, sizes) is not None


def test_empty_cache_dir_disables_caching(
    device: Device, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("IDIOM_CACHE_DIR", "")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg"))
    program = lam(MAP_1D)
    x = np.arange(64.0)
    result = search(program, {"x": x}, {"N": 64}, device, output_elements=64, budget_seconds=0.5)
    assert result.default_seconds > 0
    assert cached_choice(program, device.name, {"N": 64}) is None
    assert not (home / ".cache" / "idiom").exists()
    assert not (home / "xdg" / "idiom").exists()
    # The same search with a cache folder remembers it.
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(tmp_path / "cache"))
    search(program, {"x": x}, {"N": 64}, device, output_elements=64, budget_seconds=0.5)
    assert cached_choice(program, device.name, {"N": 64}) is not None
    assert not (home / ".cache" / "idiom").exists()
    assert not (home / "xdg" / "idiom").exists()


def test_cache_without_an_entry(cache: Path) -> None:
    assert cached_choice(lam(MAP_1D), "a device", {"N": 8}) is None


def test_cache_dir_that_cannot_be_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("IDIOM_CACHE_DIR", str(blocker))
    assert cached_choice(lam(MAP_1D), "a device", {"N": 8}) is None


@pytest.mark.parametrize(
    ("sizes", "fits"),
    [
        ({}, True),
        ({"N": 1}, True),
        ({"N": 2**30 - 1, "o": -5}, True),
        ({"N": 2**30}, False),  # a loop counter plus the global size would pass 2^31
        ({"N": 10, "L": 2**40}, False),
        ({"o": -(2**30)}, False),
    ],
)
def test_fits_int(sizes: dict[str, int], fits: bool) -> None:
    assert fits_int(sizes) is fits


@pytest.mark.parametrize(
    ("sizes", "text"),
    [
        ({}, ""),
        ({"N": 1}, "N~2^0"),
        ({"N": 0}, "N~2^0"),
        ({"N": 1023}, "N~2^9"),
        ({"N": 1024}, "N~2^10"),
        ({"N": 1000, "M": 3}, "M~2^1,N~2^9"),
        ({"b": 2**33, "a": 5}, "a~2^2,b~2^33"),
    ],
)
def test_size_class(sizes: dict[str, int], text: str) -> None:
    assert size_class(sizes) == text


# ---------------------------------------------------------------- bugs found

TOP_LEVEL_REDUCE = "(lambda ((x (array f64 N))) (reduce + 0.0:f64 x))"


def test_top_level_reduction_runs(device: Device, cache: Path) -> None:
    program = lam(TOP_LEVEL_REDUCE)
    x = np.arange(16.0)
    try:
        default = default_candidate(program)
    except LiftError:
        return  # refusing it up front would do as well
    global_size, _ = launch_shape(default, {"N": 16})
    assert len(global_size) >= 1
    result = search(program, {"x": x}, {"N": 16}, device, output_elements=1, budget_seconds=1)
    assert result.default_seconds > 0
