"""Detection quality against the corpus statements: found, expected, false positives, misses.

A detection counts when it is outermost (not `within` a larger instance). It matches an
`expect:` marker of the same kind, in the same source function (template arguments
ignored), whose line is the loop's line. A detection on an `expect-none:` line, or on
no marker at all, is a false positive.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from matcher.detect import Instance
from matcher.expectations import CorpusProgram, Expectation

__all__ = ["KindScore", "ProgramScore", "score_program", "total_by_kind"]

_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")


def normalize_function(name: str) -> str:
    previous = None
    while previous != name:
        previous, name = name, _TEMPLATE_ARGS.sub("", name)
    return name.strip()


@dataclass
class KindScore:
    found: int = 0
    expected: int = 0
    false_positives: int = 0
    misses: int = 0


@dataclass
class ProgramScore:
    program: CorpusProgram
    matched: list[tuple[Expectation, Instance]] = field(default_factory=list)
    misses: list[Expectation] = field(default_factory=list)
    false_positives: list[Instance] = field(default_factory=list)

    @property
    def perfect(self) -> bool:
        return not self.misses and not self.false_positives


def _matches(expectation: Expectation, instance: Instance) -> bool:
    return (
        expectation.kind == instance.idiom
        and instance.line == expectation.line
        and normalize_function(expectation.function) == normalize_function(instance.function)
        and expectation.in_place == instance.in_place
    )


def score_program(program: CorpusProgram, instances: Iterable[Instance]) -> ProgramScore:
    score = ProgramScore(program)
    outermost = [i for i in instances if i.within is None]
    used: set[int] = set()
    for expectation in program.expected:
        hits = [n for n, i in enumerate(outermost) if _matches(expectation, i)]
        if hits:
            used.update(hits)
            score.matched.append((expectation, outermost[hits[0]]))
        else:
            score.misses.append(expectation)
    score.false_positives = [i for n, i in enumerate(outermost) if n not in used]
    return score


def total_by_kind(scores: Iterable[ProgramScore]) -> dict[str, KindScore]:
    totals: dict[str, KindScore] = {}
    for score in scores:
        for expectation in score.program.expected:
            totals.setdefault(expectation.kind, KindScore()).expected += 1
        for expectation, _ in score.matched:
            totals[expectation.kind].found += 1
        for expectation in score.misses:
            totals[expectation.kind].misses += 1
        for instance in score.false_positives:
            totals.setdefault(instance.idiom, KindScore()).false_positives += 1
    return dict(sorted(totals.items()))
