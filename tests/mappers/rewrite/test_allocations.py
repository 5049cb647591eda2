"""Pointer globals holding heap blocks of their own are told apart in metadata
(mappers/rewrite/allocations.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from mappers.accelerate import accelerate
from mappers.rewrite import splice
from mappers.rewrite.allocations import heap_pointer_globals, scoped_allocations
from mappers.rewrite.irtext import verify
from matcher.frontend import CompileOptions, find_tool, source_ir

PROGRAM = Path(__file__).parents[1] / "programs" / "pointer_globals.c"

GLOBALS = r"""
#include <stdlib.h>
static double *own_a, *own_b;        /* fresh blocks */
static double *passed;               /* a fresh block, its address handed to a function */
static double *copied, *copy;        /* copy is given copied's block */
static double *shared_block;         /* the block's address also stored elsewhere at once */
static double *taken;                /* the cell's own address taken */
double *somewhere;
void take(double *p);
void take_cell(double **p);

void setup(int n) {
    own_a = malloc(sizeof(double) * n);
    own_b = calloc(n, sizeof(double));
    passed = malloc(sizeof(double) * n);
    copied = malloc(sizeof(double) * n);
    double *block = malloc(sizeof(double) * n);
    shared_block = block;
    somewhere = block;
    taken = malloc(sizeof(double) * n);
    take_cell(&taken);
}

double work(int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        own_a[i] = own_b[i] + 1.0;
        s += passed[i] + copied[i] + shared_block[i] + taken[i];
    }
    take(passed);
    copy = copied;
    free(own_b);
    own_b = NULL;
    return s;
}
"""


def test_only_pointer_globals_given_nothing_but_fresh_blocks_are_proved(tmp_path: Path) -> None:
    """Where a block's address goes afterwards does not matter (`passed`); a global given
    another's block (`copy`), a block also kept elsewhere (`shared_block`) or a cell whose
    address is taken (`taken`) is refused."""
    source = tmp_path / "globals.c"
    source.write_text(GLOBALS)
    text = source_ir(source, CompileOptions(extra_flags=("-w",)))
    assert text is not None
    assert heap_pointer_globals(text) == {"@own_a", "@own_b", "@passed", "@copied"}


def test_accesses_through_them_get_scopes_apart_and_the_module_verifies(
    tmp_path: Path,
) -> None:
    source = tmp_path / "globals.c"
    source.write_text(GLOBALS)
    text = source_ir(source, CompileOptions(extra_flags=("-w",)))
    assert text is not None
    tagged = scoped_allocations(text, text)
    assert verify(tagged) is None
    scoped = [line for line in tagged.splitlines() if "!alias.scope" in line]
    bases = {_base(tagged, line) for line in scoped}
    # The blocks of own_a, own_b, passed and copied, and the cells of every global.
    assert {b for b in bases if b.startswith("load ptr")} == {
        f"load ptr, ptr @{name}" for name in ("own_a", "own_b", "passed", "copied")
    }
    scopes = {line.split("!alias.scope ")[1].split(",")[0] for line in scoped}
    assert len(scopes) >= 4 + 6


def test_nothing_changes_without_two_such_globals() -> None:
    text = "@g = internal global ptr null, align 8\n"
    assert scoped_allocations(text, text) == text


def _base(text: str, access: str) -> str:
    """Where a scoped access's address comes from, followed back through its
    getelementptr chain: the load of a pointer global, or the global itself."""
    definitions = {
        line.split(" = ", 1)[0].strip(): line for line in text.splitlines() if " = " in line
    }
    address = access.rsplit(", ptr ", maxsplit=1)[-1].split(",", maxsplit=1)[0]
    while address in definitions and "getelementptr" in definitions[address]:
        address = definitions[address].split(", ptr ")[1].split(",")[0]
    if address.startswith("@"):
        return address
    return definitions.get(address, "").split(" = ", 1)[-1].split(", align")[0]


def _function_ir(path: Path, name: str, *flags: str) -> str:
    command = [find_tool("clang"), "-O2", "-w", *flags, "-S", "-emit-llvm", str(path), "-o", "-"]
    text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    found = re.search(rf"^define [^\n]*@{re.escape(name)}\(.*?^}}$", text, re.M | re.S)
    assert found is not None, f"no definition of {name}"
    return found.group(0)


@pytest.mark.parametrize("scoped", [True, False])
def test_the_original_copy_vectorises_without_overlap_checks_as_the_original(
    scoped: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The original build proves u, v and w apart; so does the accelerated build's original
    copy of `axpy` with the metadata, and without it (the check that this test can fail)
    LLVM vectorises behind run-time overlap checks."""
    original = _function_ir(PROGRAM, "axpy", "-fno-discard-value-names")
    assert "vector.body" in original and "vector.memcheck" not in original
    if not scoped:
        monkeypatch.setattr(splice, "scoped_allocations", lambda final, source: final)
    rewritten = tmp_path / "rewritten.ll"
    accelerate([PROGRAM], rewritten, CompileOptions(), emit_llvm=True)
    copy = _function_ir(rewritten, "axpy.idiom.orig")
    assert "vector.body" in copy
    assert ("vector.memcheck" in copy) is not scoped
