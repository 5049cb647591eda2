"""The phrases of IDL.md section 5: how atoms are written, recognised and printed.

The grammar reads an atom as a loose phrase of words and variables; this module decides
which atom a phrase is. Doing it here rather than in the grammar lets an unknown atom be
reported as such ("did you mean ...") instead of as a bare syntax error.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from idl.program import AtomKind

__all__ = [
    "COUNTS",
    "OPCODES",
    "ORDINALS",
    "SHORT_OPCODES",
    "VAR",
    "AtomUnknown",
    "atom_words",
    "classify",
    "normalise_opcode",
]

# Placeholder for a variable in a phrase key.
VAR = "{}"

# Every opcode LLVM 22 prints (llvm/IR/Instruction.def), spelled as LLVM prints it.
_OPCODE_WORDS = """
    ret br switch indirectbr invoke resume unreachable cleanupret catchret catchswitch
    callbr fneg add fadd sub fsub mul fmul udiv sdiv fdiv urem srem frem shl lshr ashr and
    or xor alloca load store getelementptr fence cmpxchg atomicrmw trunc zext sext fptoui
    fptosi uitofp sitofp fptrunc fpext ptrtoint ptrtoaddr inttoptr bitcast addrspacecast
    cleanuppad catchpad icmp fcmp phi call select va_arg extractelement insertelement
    shufflevector extractvalue insertvalue landingpad freeze"""
OPCODES: frozenset[str] = frozenset(_OPCODE_WORDS.split())

# The two short forms IDL accepts, and the LLVM spelling each stands for.
SHORT_OPCODES: dict[str, str] = {"gep": "getelementptr", "branch": "br"}

# Operand and successor positions, 0-based in the program.
ORDINALS: tuple[str, ...] = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
)

# Step counts of `has data flow to ... within N steps`, 1-based: COUNTS[n - 1] is n.
COUNTS: tuple[str, ...] = ("one", "two", "three", "four", "five", "six", "seven", "eight")

# Canonical phrase of each atom without a detail; `{}` stands for a variable.
_FIXED: dict[AtomKind, str] = {
    AtomKind.UNUSED: "{} is unused",
    AtomKind.INSTRUCTION: "{} is an instruction",
    AtomKind.ARGUMENT: "{} is an argument",
    AtomKind.CONSTANT: "{} is a constant",
    AtomKind.PREEXECUTION: "{} is preexecution",
    AtomKind.INTEGER_ZERO: "{} is integer zero",
    AtomKind.FLOAT_ZERO: "{} is floating point zero",
    AtomKind.POSITIVE: "{} is a positive constant",
    AtomKind.NEGATIVE: "{} is a negative constant",
    AtomKind.INTEGER_TYPE: "{} is an integer",
    AtomKind.FLOAT_TYPE: "{} is a float",
    AtomKind.POINTER_TYPE: "{} is a pointer",
    AtomKind.VECTOR_TYPE: "{} is a vector",
    AtomKind.SAME: "{} is the same as {}",
    AtomKind.NOT_SAME: "{} is not the same as {}",
    AtomKind.DATA_FLOW: "{} has data flow to {}",
    AtomKind.CONTROL_FLOW: "{} has control flow to {}",
    AtomKind.SPANS_BLOCK: "{} spans block to {}",
    AtomKind.REACHES_PHI: "{} reaches phi node {} from {}",
    AtomKind.DOMINATES: "{} control flow dominates {}",
    AtomKind.STRICTLY_DOMINATES: "{} strictly control flow dominates {}",
    AtomKind.POST_DOMINATES: "{} control flow post dominates {}",
    AtomKind.STRICTLY_POST_DOMINATES: "{} strictly control flow post dominates {}",
    AtomKind.CONTROL_FLOW_PASSES_THROUGH: "all control flow from {} to {} passes through {}",
    AtomKind.DATA_FLOW_PASSES_THROUGH: "all data flow from {} to {} passes through {}",
    AtomKind.PURE: "{} has attribute pure",
    AtomKind.FILLS_SCRATCH: "{} fills a private scratch array",
    AtomKind.OUTSIDE_ELEMENT: "{} is outside the element of {}",
    AtomKind.NEVER_OVERLAPS: "{} never overlaps {}",
    AtomKind.SAME_ADDRESS: "{} has the same address as {}",
    AtomKind.STEP_BEHIND: "{} is one step behind {}",
}

_ARTICLES = frozenset({"a", "an"})


class AtomUnknown(Exception):
    """A phrase that is no atom; `message` says why in an author's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _key(words: Sequence[str]) -> tuple[str, ...]:
    """Drop an article right after `is`, so `is an argument` and `is argument` agree."""
    key: list[str] = []
    for word in words:
        if word in _ARTICLES and key and key[-1] == "is":
            continue
        key.append(word)
    return tuple(key)


def _build_table() -> dict[tuple[str, ...], tuple[AtomKind, str | int | None]]:
    table: dict[tuple[str, ...], tuple[AtomKind, str | int | None]] = {}
    for kind, phrase in _FIXED.items():
        table[_key(phrase.split())] = (kind, None)
    for opcode in OPCODES | SHORT_OPCODES.keys():
        table[(VAR, "is", opcode, "instruction")] = (AtomKind.OPCODE, opcode)
    for position, ordinal in enumerate(ORDINALS):
        table[(VAR, "is", ordinal, "argument", "of", VAR)] = (AtomKind.OPERAND, position)
        table[(VAR, "is", ordinal, "successor", "of", VAR)] = (AtomKind.SUCCESSOR, position)
    for steps in range(1, len(COUNTS) + 1):
        table[_within_words(steps)] = (AtomKind.DATA_FLOW_WITHIN, steps)
    return table


def _within_words(steps: int) -> tuple[str, ...]:
    noun = "step" if steps == 1 else "steps"
    return (VAR, "has", "data", "flow", "to", VAR, "within", COUNTS[steps - 1], noun)


_TABLE = _build_table()

# What to suggest for a phrase that matches nothing: one line per kind of atom.
_SUGGESTIONS: tuple[str, ...] = (
    *_FIXED.values(),
    "{} is OPCODE instruction",
    "{} is first argument of {}",
    "{} is first successor of {}",
    "{} has data flow to {} within six steps",
)


def classify(
    words: Sequence[str], shown: Sequence[str] | None = None
) -> tuple[AtomKind, str | int | None]:
    """The atom a phrase denotes; `words` has `{}` where a variable stands, `shown` is the
    phrase as written (for the message when it is no atom)."""
    key = _key(words)
    found = _TABLE.get(key)
    if found is not None:
        return found
    text = " ".join(shown if shown is not None else words)
    if len(key) == 4 and key[:2] == (VAR, "is") and key[3] == "instruction":
        close = difflib.get_close_matches(key[2], sorted(OPCODES | SHORT_OPCODES.keys()), n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise AtomUnknown(f"unknown atom '{text}': '{key[2]}' is not an LLVM opcode{hint}")
    raise AtomUnknown(f"unknown atom '{text}'{_hint(words, shown or words)}")


def _hint(words: Sequence[str], shown: Sequence[str]) -> str:
    for cut in range(2, len(words) - 1):
        if _key(words[:cut]) in _TABLE:
            return f"; is an 'and' or 'or' missing after '{' '.join(shown[:cut])}'?"
    close = difflib.get_close_matches(" ".join(words), _SUGGESTIONS, n=2, cutoff=0.5)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def atom_words(kind: AtomKind, detail: str | int | None) -> tuple[str, ...]:
    """The canonical phrase of an atom, `{}` where each variable goes, in order."""
    match kind:
        case AtomKind.OPCODE:
            return (VAR, "is", str(detail), "instruction")
        case AtomKind.OPERAND | AtomKind.SUCCESSOR:
            noun = "argument" if kind is AtomKind.OPERAND else "successor"
            if not isinstance(detail, int) or not 0 <= detail < len(ORDINALS):
                raise ValueError(f"no ordinal word for position {detail!r}")
            return (VAR, "is", ORDINALS[detail], noun, "of", VAR)
        case AtomKind.DATA_FLOW_WITHIN:
            if not isinstance(detail, int) or not 1 <= detail <= len(COUNTS):
                raise ValueError(f"no count word for {detail!r} steps")
            return _within_words(detail)
        case _:
            return tuple(_FIXED[kind].split())


def normalise_opcode(opcode: str) -> str:
    """LLVM's spelling of an opcode written in IDL (`gep` -> `getelementptr`)."""
    return SHORT_OPCODES.get(opcode, opcode)
