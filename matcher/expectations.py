"""The machine-readable statements of a corpus program (see corpus/README.md).

Header lines `// corpus: ...` and `// args: test=... bench=...`; loop markers
`// expect: Kind in function` (a stencil sweeping in place adds `(in place)`) and
`// expect-none: Kind`; near-misses say
`// near-miss: reason`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from idl.errors import IdiomError

__all__ = ["CorpusProgram", "Expectation", "ExpectationError", "read_program"]

# A line's markers: one comment at its end, `// expect: ...`, or several separated by
# semicolons (`// expect-none: Stencil; expect: Map in f`: a loop that is one idiom and
# not another).
_MARKERS = re.compile(r"//\s*(expect(?:-none)?:.*?)\s*$")
_EXPECT = re.compile(r"expect:\s*(\w+)\s+in\s+([\w:~<>,* ]+?)\s*(\(in place\))?$")
_EXPECT_NONE = re.compile(r"expect-none:\s*(\w+)$")
_HEADER = re.compile(r"^//\s*(corpus|args|near-miss):\s*(.*?)\s*$")
_ARGS = re.compile(r"(\w+)=(.*?)(?=\s+\w+=|$)")


class ExpectationError(IdiomError):
    """A corpus program whose statements cannot be read."""


@dataclass(frozen=True)
class Expectation:
    kind: str
    function: str  # as written in the source; "" for expect-none
    line: int
    present: bool  # False for `expect-none`
    in_place: bool = False  # `(in place)`: a stencil sweeping in place (matcher/sweeps.py)


@dataclass(frozen=True)
class CorpusProgram:
    path: Path
    description: str
    test_args: tuple[str, ...]
    bench_args: tuple[str, ...]
    near_miss: str  # the reason, or "" for an ordinary program
    expectations: tuple[Expectation, ...]

    @property
    def expected(self) -> tuple[Expectation, ...]:
        return tuple(e for e in self.expectations if e.present)

    @property
    def rejected(self) -> tuple[Expectation, ...]:
        return tuple(e for e in self.expectations if not e.present)


def _expectation(marker: str, path: Path, number: int, line: str) -> Expectation:
    if match := _EXPECT.fullmatch(marker):
        in_place = match.group(3) is not None
        return Expectation(match.group(1), match.group(2), number, True, in_place)
    if match := _EXPECT_NONE.fullmatch(marker):
        return Expectation(match.group(1), "", number, False)
    raise ExpectationError(f"{path}:{number}: unreadable expectation marker: {line.strip()}")


def read_program(path: Path) -> CorpusProgram:
    headers: dict[str, str] = {}
    expectations: list[Expectation] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        header = _HEADER.match(line)
        if header and header.group(1) not in headers:
            headers[header.group(1)] = header.group(2)
        if markers := _MARKERS.search(line):
            for marker in markers.group(1).split(";"):
                expectations.append(_expectation(marker.strip(), path, number, line))
        elif "expect" in line and "//" in line and re.search(r"//\s*expect", line):
            raise ExpectationError(
                f"{path}:{number}: unreadable expectation marker: {line.strip()}"
            )
    if "corpus" not in headers or "args" not in headers:
        raise ExpectationError(f"{path}: missing '// corpus:' or '// args:' header line")
    args = dict(_ARGS.findall(headers["args"]))
    if "test" not in args or "bench" not in args:
        raise ExpectationError(f"{path}: '// args:' needs test=... and bench=...")
    return CorpusProgram(
        path=path,
        description=headers["corpus"],
        test_args=tuple(shlex.split(args["test"])),
        bench_args=tuple(shlex.split(args["bench"])),
        near_miss=headers.get("near-miss", ""),
        expectations=tuple(expectations),
    )
