"""The public API of the `idl` package, imported as a user's program would.

Run in a fresh interpreter from the repository root: inside pytest, `tests/idl/` can
shadow the package name `idl` (the tests import submodules for that reason).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import idl, idl.errors, idl.program
expected = {
    "Atom", "AtomKind", "Collect", "Conjunction", "Disjunction", "Formula", "IdiomError",
    "IdlError", "Library", "Program", "SourceSpan", "default_library", "parse_file",
    "parse_text",
}
assert set(idl.__all__) == expected, sorted(set(idl.__all__) ^ expected)
assert idl.__file__.endswith("__init__.py")
assert idl.IdlError is idl.errors.IdlError and issubclass(idl.IdlError, idl.IdiomError)
assert idl.Program is idl.program.Program
module = idl.parse_text("Export Constraint A ( {x[i]} is unused for all i=0..2 ) End", "a.idl")
assert module.specifications[0].name == "A"
library = idl.Library.from_texts({"a.idl": "Export Constraint A {x} is an argument End"})
assert library.names == ("A",) and library.exported_names == ("A",)
program = library.compile("A")
assert isinstance(program.formula, idl.Atom)
assert program.formula.kind is idl.AtomKind.ARGUMENT
assert library.exported_programs() == [program]
assert isinstance(idl.default_library(), idl.Library)
try:
    idl.Library.from_texts({"b.idl": "Constraint B {x} is bogus End"})
except idl.IdlError as error:
    assert str(error).startswith("b.idl:1:14: unknown atom")
else:
    raise AssertionError("no error")
print("api ok")
"""


def test_public_api() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "api ok"
