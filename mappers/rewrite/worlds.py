"""Functions built twice: the source's code where no launch can happen, the rewritten elsewhere.

A guarded region costs its function little when its guard declines, but not nothing: the
rewritten function is larger, so a caller that inlined it in the original build may stop
doing so, and the opaque guard call between the loops hides facts LLVM used there
(corpus/stencil_dilate.cpp: inlined into `main`, the original's stencil reuses each loaded
row element through a shuffle, which needs the two grids' storage known apart; the
rewritten `dilate`, left a function of its own, loads five vectors per iteration instead of
four). On a machine where no OpenCL launch can happen, every guard declines, so the
original code is both correct and the fastest choice.

So a function the tool changed whose replaced regions all launch OpenCL kernels (BLAS calls
need no device, and functions making them are left as they are) becomes three:

- `F.idiom.orig`: the source's own definition (the IR the original build optimises), in
  which calls of other doubled functions go to their original copies too, so that a whole
  original call tree is inlined and optimised as in the original build;
- `F.idiom.rewritten`: the rewritten definition, never inlined into the dispatcher, so that
  the dispatcher stays as small as the original function;
- `F`: a dispatcher that reads the runtime's `idiom_world` and calls one of the two.

The runtime decides the world once per process (`idiom_world_decide`): the original where
IDIOM_DEVICE=off, where the launch thresholds are at their maximum, or where `auto` finds no
GPU device node; the rewritten one otherwise. Both copies compute the same results, so a
program mixing them (a doubled function called from one that is not) stays correct.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

__all__ = [
    "BLAS_ENTRIES",
    "DEVICE_ENTRIES",
    "HOST_ACCESSES",
    "WORLD_DEFINITIONS",
    "Definition",
    "dispatcher",
    "host_only_functions",
    "original_copy",
    "parse_definition",
    "renamed",
    "rewritten_copy",
    "stripped_attributes",
]

# The runtime entries that need no device: a function calling them is not doubled.
BLAS_ENTRIES = frozenset(
    {
        "idiom_gemm",
        "idiom_gemm_rows",
        "idiom_gemv",
        "idiom_gemv2",
        "idiom_gemv_sum",
        "idiom_ger",
        "idiom_syrk",
        "idiom_syrk_finish",
        "idiom_syr2k",
        "idiom_symm",
        "idiom_trmm",
        "idiom_trsv",
    }
)

# What the residency pass adds to a function that launches nothing (mappers/residency).
DEVICE_ENTRIES = "idiom_device_entries"
HOST_ACCESSES = frozenset(
    {
        "idiom_host_access",
        "idiom_host_access_at",
        "idiom_device_copies",
        DEVICE_ENTRIES,
        "idiom.fast.host_access",
        "idiom.fast.host_access_at",
        "idiom.fast.host_access.saved",
        "idiom.fast.host_access_at.saved",
    }
)
# The residency pass's helpers that compute a loop nest's ranges and bring them back
# (mappers/residency/host_ranges.py): `F.idiom.host0`, `F.idiom.host0.ranges`.
_RANGE_HELPER = re.compile(r"\.idiom\.host\d+(?:\.ranges)?$")
_SYNCHRONISING = re.compile(
    r"\b(?:atomicrmw|cmpxchg|fence|invoke|callbr)\b|\b(?:load|store) atomic\b"
)
_CALL = re.compile(r"(?:^|\s)call\s")

_ORIGINAL = ".idiom.orig"
_REWRITTEN = ".idiom.rewritten"
_CHOOSE = "idiom.world.original"

WORLD_DEFINITIONS = (
    "@idiom_world = external global i8",
    "declare i32 @idiom_world_decide() cold",
    "",
    f'define internal i1 @"{_CHOOSE}"() alwaysinline {{',
    "entry:",
    # Unordered, like the guards' threshold: a caller's loop may test it once.
    "  %world = load atomic i8, ptr @idiom_world unordered, align 1",
    "  %known = icmp ne i8 %world, 0",
    "  br i1 %known, label %decided, label %ask",
    "decided:",
    "  %original = icmp eq i8 %world, 1",
    "  ret i1 %original",
    "ask:",
    "  %answer = call i32 @idiom_world_decide()",
    "  %first = icmp ne i32 %answer, 0",
    "  ret i1 %first",
    "}",
)

_LINKAGE = re.compile(
    r"^(?:private|internal|available_externally|linkonce|weak|common|appending|extern_weak"
    r"|linkonce_odr|weak_odr|external|dso_local|dso_preemptable|default|hidden|protected"
    r"|dllimport|dllexport)\s+"
)
_CALLING_CONVENTION = re.compile(r"(?:^|\s)(?:\w+cc|cc \d+)\s")
_COMDAT = re.compile(r"\s+comdat(?:\(\$[^)]*\))?")
_GROUP = re.compile(r"#(\d+)")
# Whatever describes the body, not the interface: a dispatcher has neither.
_BODY_ONLY = re.compile(r"\s+(?:personality|prefix|prologue)\s+\S+\s+\S+|\s+!dbg\s+!\d+")
# Call-site attributes that change how an argument or a result is passed.
_PASSING = re.compile(
    r"\b(?:byval|sret|inalloca|preallocated|elementtype)\([^)]*\)"
    r"|\b(?:inreg|zeroext|signext|nest|swiftself|swifterror|swiftasync)\b|\balign \d+"
)
# Function attributes a call of the runtime contradicts.
_CONTRADICTED = re.compile(
    r"\s*(?:\bmemory\([^)]*\)|\b(?:nofree|nosync|willreturn|readnone|readonly|writeonly)\b)"
)


@dataclass(frozen=True)
class Definition:
    """A `define` line taken apart."""

    head: str  # linkage, visibility, return attributes and type
    return_type: str
    name: str  # as printed, quotes included
    parameters: tuple[str, ...]
    tail: str  # function attributes, comdat, personality, `!dbg`, up to the `{`

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(parameter.rsplit(maxsplit=1)[-1] for parameter in self.parameters)

    @property
    def group(self) -> int | None:
        """The function's attribute group."""
        found = _GROUP.search(self.tail)
        return int(found.group(1)) if found else None

    def types(self) -> tuple[str, ...]:
        return tuple(_type_of(parameter) for parameter in self.parameters)

    def line(
        self, name: str | None = None, head: str | None = None, tail: str | None = None
    ) -> str:
        """The `define` line, with another name, head or tail where given."""
        parameters = ", ".join(self.parameters)
        head, tail = self.head if head is None else head, self.tail if tail is None else tail
        return f"define {head}@{name or self.name}({parameters}){tail}{{"


def parse_definition(line: str, name: str) -> Definition | None:
    """`line` taken apart, or None where a dispatcher could not forward its call: variadic
    functions, unnamed parameters, a calling convention of its own."""
    start = line.find(f"@{name}(")
    if not line.startswith("define ") or start < 0 or not line.rstrip().endswith("{"):
        return None
    opened = start + len(name) + 1
    closed = _closing(line, opened)
    if closed is None:
        return None
    parameters = tuple(p.strip() for p in _split_top_level(line[opened + 1 : closed]) if p.strip())
    head = line[len("define ") : start]
    if any(p == "..." or not p.rsplit(maxsplit=1)[-1].startswith("%") for p in parameters):
        return None
    if _CALLING_CONVENTION.search(f" {head}"):
        return None
    return Definition(head, _return_type(head), name, parameters, line[closed + 1 : -1])


def renamed(name: str, suffix: str) -> str:
    """`name` with `suffix`, quoted where needed."""
    if name.startswith('"'):
        return f'"{name[1:-1]}{suffix}"'
    return f"{name}{suffix}"


def rewritten_copy(body: list[str], name: str, group: int | None) -> list[str]:
    """The rewritten definition as `F.idiom.rewritten`: internal, with the attribute group
    `group` (its own, less what a call of the runtime contradicts)."""
    return [_internal(body[0], name, renamed(name, _REWRITTEN), group), *body[1:]]


def original_copy(body: list[str], name: str, originals: Iterable[str]) -> list[str]:
    """The source's definition as `F.idiom.orig`: internal, and calling the original copies
    of the `originals` it calls."""
    calls = re.compile(
        r"((?:call|invoke)\s[^@]*@)(" + "|".join(re.escape(n) for n in originals) + r")\("
    )
    define = _internal(body[0], name, renamed(name, _ORIGINAL), None)
    return [define, *(calls.sub(_to_original, line) for line in body[1:])]


def dispatcher(definition: Definition, group: int | None, *, host_only: bool = False) -> list[str]:
    """`F` itself: the world's test and a call of one copy (the rewritten one not inlined).
    A `host_only` function (see `host_only_functions`) runs its original copy in the
    rewritten world too whenever no copy is on a device."""
    returns = definition.return_type
    passing = " ".join(_PASSING.findall(definition.head.removesuffix(returns + " ")))
    arguments = ", ".join(_argument(parameter) for parameter in definition.parameters)
    tail = _BODY_ONLY.sub("", definition.tail)
    tail = tail if group is None else _GROUP.sub(f"#{group}", tail, count=1)
    otherwise = "idiom.copies" if host_only else "idiom.run.rewritten"
    # Its original copy is inlined into it: a hint keeps the dispatcher as inlinable into
    # its callers as the source's function was (NAS BT's matvec_sub).
    tail = f" inlinehint{tail}" if host_only else tail
    lines = [
        definition.line(tail=tail),
        "idiom.world:",
        f'  %idiom.original = call i1 @"{_CHOOSE}"()',
        f"  br i1 %idiom.original, label %idiom.run.original, label %{otherwise}",
    ]
    if host_only:
        lines += [
            "idiom.copies:",
            f"  %idiom.entries = load atomic i32, ptr @{DEVICE_ENTRIES} unordered, align 4",
            "  %idiom.none = icmp eq i32 %idiom.entries, 0",
            "  br i1 %idiom.none, label %idiom.run.original, label %idiom.run.rewritten",
        ]
    for label, suffix, site in (
        ("original", _ORIGINAL, ""),
        ("rewritten", _REWRITTEN, " noinline"),
    ):
        callee = f"{passing} {returns} @{renamed(definition.name, suffix)}".lstrip()
        result = f"%idiom.{label}.result"
        call = f"tail call {callee}({arguments}){site}"
        lines.append(f"idiom.run.{label}:")
        if returns == "void":
            lines += [f"  {call}", "  ret void"]
        else:
            lines += [f"  {result} = {call}", f"  ret {returns} {result}"]
    return [*lines, "}"]


def host_only_functions(
    rewritten: Mapping[str, list[str]], source: Mapping[str, list[str]]
) -> set[str]:
    """The doubled functions (their rewritten and source bodies by name) that launch nothing
    and synchronise with nothing, whatever they call: their rewritten code adds host
    accesses only, and they call intrinsics and one another only, with no atomic access or
    fence. Entered with no copy on any device, such a function's original copy computes
    what its rewritten copy would: nothing it runs can put a copy there, and a launch on
    another thread touching its data while it runs would race with it in the source (NAS
    BT's `matmul_sub`, called 600 million times in a class B run: its host accesses, and
    the call the original build inlines, cost the run when nothing is launched)."""
    allowed = set(rewritten) & set(source)
    changed = True
    while changed:
        kept = {
            name
            for name in allowed
            if _only_calls(rewritten[name], allowed | HOST_ACCESSES, helpers=True)
            and _only_calls(source[name], allowed)
        }
        changed = kept != allowed
        allowed = kept
    return allowed


def _only_calls(body: list[str], names: set[str], *, helpers: bool = False) -> bool:
    """Whether `body` has no atomic access (but reads of the count of device copies), fence
    or invoke, and calls no function but intrinsics and `names` (an indirect call or inline
    assembly counts as another)."""
    for line in body[1:]:
        atomic = _SYNCHRONISING.search(line)
        if atomic and not (atomic.group(0).startswith("load") and f"@{DEVICE_ENTRIES}," in line):
            return False
        call = _CALL.search(line)
        opening = line.find("(", call.end()) if call is not None else -1
        if call is None or opening < 0:
            continue
        callee = line[call.end() : opening].split()[-1]
        name = callee.removeprefix("@").strip('"')
        known = name.startswith("llvm.") or name in names
        known = known or (helpers and _RANGE_HELPER.search(name) is not None)
        if not callee.startswith("@") or not known:
            return False
    return True


def stripped_attributes(line: str, number: int) -> str:
    """Attribute group `line` renumbered `number`, without the memory effects and the
    promises (no free, no synchronisation) that a call of the runtime breaks."""
    _, _, contents = line.partition(" = ")
    return f"attributes #{number} = {_CONTRADICTED.sub('', contents)}"


def _internal(line: str, name: str, new_name: str, group: int | None) -> str:
    """Definition `line` of `name` as internal `new_name` (no linkage, visibility or comdat
    of its own), with the attribute group `group` where given."""
    start = line.index(f"@{name}(")
    head = line[len("define ") : start]
    while found := _LINKAGE.match(head):
        head = head[found.end() :]
    tail = _COMDAT.sub("", line[start + len(name) + 1 :])
    if group is not None:
        tail = _GROUP.sub(f"#{group}", tail, count=1)
    return f"define internal {head}@{new_name}{tail}"


def _to_original(found: re.Match[str]) -> str:
    return f"{found.group(1)}{renamed(found.group(2), _ORIGINAL)}("


def _argument(parameter: str) -> str:
    """A parameter as the argument forwarding it: its type, the attributes that change how
    it is passed, its name."""
    name = parameter.rsplit(maxsplit=1)[-1]
    passing = _PASSING.findall(parameter[len(_type_of(parameter)) :])
    return " ".join([_type_of(parameter), *passing, name])


def _type_of(parameter: str) -> str:
    if parameter[0] in "{<[":
        end = _closing(parameter, 0)
        return parameter[: (end or 0) + 1]
    return parameter.split(maxsplit=1)[0]


def _return_type(head: str) -> str:
    text = head.rstrip()
    if text and text[-1] in "}>]":
        opening = {"}": "{", ">": "<", "]": "["}[text[-1]]
        depth = 0
        for index in range(len(text) - 1, -1, -1):
            depth += (text[index] == text[-1]) - (text[index] == opening)
            if depth == 0:
                return text[index:]
    return text.rsplit(maxsplit=1)[-1]


def _closing(text: str, opened: int) -> int | None:
    """The index of the bracket closing the one at `opened`."""
    for index, char, depth, quoted in _scan(text, opened):
        if not quoted and char in ")]}>" and depth == 0:
            return index
    return None


def _split_top_level(text: str) -> list[str]:
    """`text` cut at the commas outside brackets and quotes."""
    cuts = [i for i, char, depth, quoted in _scan(text) if char == "," and not depth and not quoted]
    pieces = [text[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(text)], strict=True)]
    return [piece for piece in pieces if piece.strip()]


def _scan(text: str, start: int = 0) -> Iterator[tuple[int, str, int, bool]]:
    """Each character from `start`, with the bracket depth after it and whether it is quoted."""
    depth = 0
    quoted = False
    for index in range(start, len(text)):
        char = text[index]
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "([{<":
            depth += 1
        elif not quoted and char in ")]}>":
            depth -= 1
        yield index, char, depth, quoted
