"""Functions built twice: the source's copy where no launch can happen
(mappers/rewrite/worlds.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mappers.rewrite.irtext import verify
from mappers.rewrite.splice import spliced
from mappers.rewrite.worlds import dispatcher, host_only_functions, parse_definition
from tests.mappers.differential import build_pair, run_binary

CORPUS = Path(__file__).resolve().parents[3] / "corpus"
STENCIL = CORPUS / "stencil_dilate.cpp"  # `dilate` inlined into `main` by the original build

CANONICAL = """\
define i32 @g(i32 %x) #0 {
  ret i32 %x
}

define i32 @f(i32 %x) #0 {
  %y = call i32 @g(i32 %x)
  ret i32 %y
}

attributes #0 = { nounwind memory(none) }
"""

# f and g rewritten: each calls the tool's own function first.
FINAL = """\
define i32 @g(i32 %x) #0 {
  %t = call i32 @g.idiom0(i32 %x)
  ret i32 %x
}

define i32 @f(i32 %x) #0 {
  %t = call i32 @f.idiom0(i32 %x)
  %y = call i32 @g(i32 %x)
  ret i32 %y
}

define internal i32 @f.idiom0(i32 %x) {
  %r = call i32 @ENTRY(i32 %x)
  ret i32 %r
}

define internal i32 @g.idiom0(i32 %x) {
  ret i32 %x
}

declare i32 @ENTRY(i32)

attributes #0 = { nounwind memory(none) }
"""

# The source's f calls g through `h`, a helper the canonical pipeline inlined and dropped.
SOURCE = """\
define internal i32 @h(i32 %x) #0 {
entry:
  %y = call i32 @g(i32 %x)
  ret i32 %y
}

define i32 @g(i32 %x) #0 {
entry:
  ret i32 %x
}

define i32 @f(i32 %x) #0 {
entry:
  %y = call i32 @h(i32 %x)
  ret i32 %y
}

attributes #0 = { nounwind }
"""


def _defines(text: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in re.finditer(r'define [^@]*@("[^"]*"|[\w.]+)\(', text)}


def _body(text: str, name: str) -> str:
    found = re.search(rf"^define [^@\n]*@{re.escape(name)}\(", text, re.M)
    assert found is not None, name
    return text[found.start() : text.index("\n}", found.start())]


def test_changed_functions_are_built_twice() -> None:
    text = spliced(FINAL.replace("ENTRY", "idiom_cl_run"), CANONICAL, SOURCE)
    assert verify(text) is None
    defined = _defines(text)
    for name in ("f", "g"):
        assert {name, f"{name}.idiom.orig", f"{name}.idiom.rewritten"} <= defined.keys()
        assert defined[f"{name}.idiom.orig"].startswith("define internal i32")
        dispatching = _body(text, name)
        assert f"@{name}.idiom.orig(i32 %x)" in dispatching
        assert f"@{name}.idiom.rewritten(i32 %x) noinline" in dispatching
    # The original copies call original copies, through the helper's own original copy.
    assert "@h.idiom.orig(i32 %x)" in _body(text, "f.idiom.orig")
    assert "@g.idiom.orig(i32 %x)" in _body(text, "h.idiom.orig")
    # The rewritten copy calls the runtime: it loses the canonical `memory(none)`.
    group = re.search(r"#(\d+)", defined["f.idiom.rewritten"] + _body(text, "f.idiom.rewritten"))
    assert group is not None
    attributes = re.search(rf"^attributes #{group.group(1)} = (.*)$", text, re.M)
    assert attributes is not None and "memory" not in attributes.group(1)


def test_functions_calling_blas_are_built_once() -> None:
    """BLAS needs no device: its calls pay on every machine, so `f` stays rewritten only."""
    text = spliced(FINAL.replace("ENTRY", "idiom_gemm"), CANONICAL, SOURCE)
    defined = _defines(text)
    assert "f.idiom.orig" not in defined and "f.idiom.rewritten" not in defined
    assert "g.idiom.orig" in defined


# g's rewritten copy adds a host access only; f's launches.
HOST_ONLY_FINAL = """\
define i32 @g(i32 %x) #0 {
  call void @"idiom.fast.host_access"()
  ret i32 %x
}

define i32 @f(i32 %x) #0 {
  %t = call i32 @idiom_cl_run(i32 %x)
  %y = call i32 @g(i32 %x)
  ret i32 %y
}

declare void @"idiom.fast.host_access"()
declare i32 @idiom_cl_run(i32)

attributes #0 = { nounwind memory(none) }
"""


def test_a_function_that_launches_nothing_runs_its_original_copy_without_device_copies() -> None:
    text = spliced(HOST_ONLY_FINAL, CANONICAL, SOURCE)
    assert verify(text) is None
    assert "@idiom_device_entries" in _body(text, "g")
    assert "idiom.copies" in _body(text, "g")
    assert "idiom.copies" not in _body(text, "f")


SOURCE_G = "define i32 @g(i32 %x) {\nentry:\n  BODY\n  ret i32 %x\n}"


@pytest.mark.parametrize(
    ("line", "host_only"),
    [
        ("%s = call double @llvm.sqrt.f64(double 2.0)", True),
        ("%s = call i32 @g(i32 %x)", True),  # itself
        ("%s = call i32 @puts(ptr null)", False),  # may call back into the program
        ("%s = call i32 %x(i32 1)", False),  # indirect
        ("%s = atomicrmw add ptr null, i32 1 seq_cst", False),
        ("fence seq_cst", False),
        ("%s = load atomic i32, ptr null acquire, align 4", False),
        ('call void asm sideeffect "", ""()', False),
        ("%call = add i32 %x, 1", True),  # a name, not a call
    ],
)
def test_what_keeps_a_function_from_running_its_original_copy(line: str, host_only: bool) -> None:
    source = SOURCE_G.replace("BODY", line).splitlines()
    rewritten = [source[0], '  call void @"idiom.fast.host_access"()', *source[1:]]
    assert host_only_functions({"g": rewritten}, {"g": source}) == ({"g"} if host_only else set())


def test_the_residency_passs_range_helpers_count_as_host_accesses() -> None:
    source = SOURCE_G.replace("BODY", "%s = add i32 %x, 1").splitlines()
    helper = '  call preserve_allcc void @"g.idiom.host0"(ptr null)'
    assert host_only_functions({"g": [source[0], helper, *source[1:]]}, {"g": source}) == {"g"}
    # In the source's copy, the same call is one of a function it does not know.
    assert host_only_functions({"g": source}, {"g": [source[0], helper, *source[1:]]}) == set()


def test_a_function_calling_one_that_launches_runs_its_rewritten_copy() -> None:
    calls_f = SOURCE_G.replace("BODY", "%s = call i32 @f(i32 %x)").splitlines()
    launches = SOURCE_G.replace("@g(", "@f(").replace("BODY", "%s = add i32 %x, 1").splitlines()
    rewritten = {
        "g": calls_f,
        "f": [*launches[:2], "  call i32 @idiom_cl_run(i32 0)", *launches[2:]],
    }
    assert host_only_functions(rewritten, {"g": calls_f, "f": launches}) == set()


@pytest.mark.parametrize(
    ("line", "name", "returns", "types"),
    [
        (
            "define dso_local noundef range(i32 0, 2) i32 @main(i32 noundef %argc, ptr %argv) #3 {",
            "main",
            "i32",
            ("i32", "ptr"),
        ),
        (
            "define internal { i1, double } @pair(<2 x double> %v, ptr byval(%struct.S) %s) {",
            "pair",
            "{ i1, double }",
            ("<2 x double>", "ptr"),
        ),
        (
            'define void @"odd name"(ptr noundef dereferenceable(8) %0) {',
            '"odd name"',
            "void",
            ("ptr",),
        ),
    ],
)
def test_definitions_are_taken_apart(
    line: str, name: str, returns: str, types: tuple[str, ...]
) -> None:
    definition = parse_definition(line, name)
    assert definition is not None
    assert (definition.return_type, definition.types()) == (returns, types)
    assert definition.line() == line


@pytest.mark.parametrize(
    "line",
    ["define i32 @v(i32 %n, ...) {", "define fastcc i32 @v(i32 %n) {"],
)
def test_what_a_dispatcher_cannot_forward_is_built_once(line: str) -> None:
    assert parse_definition(line, "v") is None


def test_a_dispatcher_passes_byval_arguments_as_byval() -> None:
    line = "define void @s(ptr byval(%struct.S) align 8 %s, i8 zeroext %c) #0 personality ptr @p {"
    definition = parse_definition(line, "s")
    assert definition is not None
    text = "\n".join(dispatcher(definition, 7))
    assert "@s.idiom.orig(ptr byval(%struct.S) align 8 %s, i8 zeroext %c)" in text
    assert (
        text.splitlines()[0]
        == "define void @s(ptr byval(%struct.S) align 8 %s, i8 zeroext %c) #7 {"
    )


@pytest.fixture(scope="module")
def stencil(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    original, accelerated, _ = build_pair(STENCIL, tmp_path_factory.mktemp("worlds"))
    return original, accelerated


def _gpu_node() -> bool:
    nodes = [Path(p) for p in ("/dev/nvidiactl", "/dev/kfd", "/dev/mali0")]
    return any(p.exists() for p in nodes) or any(Path("/dev/dri").glob("renderD*"))


@pytest.mark.parametrize(("device", "launches"), [("off", False), ("auto", False), ("cpu", True)])
def test_each_world_gives_the_original_results(
    stencil: tuple[Path, Path], device: str, launches: bool
) -> None:
    """`off`, and `auto` without a GPU node, run the source's copies (`auto` with one would
    not launch at this size either); a forced OpenCL device runs the rewritten ones, on PoCL."""
    original, accelerated = stencil
    env = {"IDIOM_DEVICE": device, "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
    ran = run_binary(accelerated, ["40", "5"], env)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == run_binary(original, ["40", "5"], {}).stdout
    assert ("cl_run" in ran.stderr) == launches, ran.stderr
    if device == "auto" and not _gpu_node():
        assert ran.stderr.count("auto: no GPU here") == 1


def test_the_original_world_runs_the_original_instructions(stencil: tuple[Path, Path]) -> None:
    """Counted by callgrind inside `main` (repeatable, unlike a time): the stencil loop the
    original build inlined into `main` and vectorised with a carried element is the one that
    runs, not the rewritten function's (5% fewer instructions, one more load per vector)."""
    counts = [_instructions_in_main(binary, ["256", "4"]) for binary in stencil]
    # The world's decision: a few environment reads and a look at /dev, once.
    assert 0 <= counts[1] - counts[0] < 5000, counts


def _instructions_in_main(binary: Path, args: list[str]) -> int:
    return _instructions_in(binary, args, "main", {"IDIOM_DEVICE": "auto"})


def _instructions_in(binary: Path, args: list[str], function: str, env: dict[str, str]) -> int:
    valgrind = shutil.which("valgrind")
    assert valgrind is not None, "valgrind is missing: scripts/setup.sh installs it"
    command = [
        valgrind,
        "--tool=callgrind",
        f"--toggle-collect={function}",
        "--callgrind-out-file=/dev/null",
    ]
    ran = subprocess.run(
        [*command, str(binary), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "LD_BIND_NOW": "1", **env},
        check=True,
    )
    found = re.search(r"Collected : (\d+)", ran.stderr)
    assert found is not None, ran.stderr
    return int(found.group(1))


def test_a_block_product_runs_its_original_copy_while_no_copy_is_on_the_device(
    tmp_path: Path,
) -> None:
    """tests/mappers/programs/block_products.c: `block_sub` launches nothing. Under `auto`
    with every launch declined (its start-up never paid), the rewritten world's calls of it
    run the original copy, its rewritten one never entered; with launches forced on PoCL,
    entered with copies on the device, the rewritten copy runs."""
    _, accelerated, _ = build_pair(
        Path(__file__).parents[1] / "programs" / "block_products.c", tmp_path
    )
    declined = {
        "IDIOM_DEVICE": "auto",
        "IDIOM_AUTO_DEVICE": "cpu",
        "IDIOM_AUTO_AS_COMPILED": "0",
        "IDIOM_START_UP_MS": "60000",
        "IDIOM_CL_MIN_WORK": "1",
        "IDIOM_CACHE_DIR": str(tmp_path / "cache"),
    }
    forced = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}
    rewritten = "block_sub.idiom.rewritten"
    assert _instructions_in(accelerated, ["64", "3"], rewritten, declined) == 0
    assert _instructions_in(accelerated, ["64", "3"], rewritten, forced) > 0
