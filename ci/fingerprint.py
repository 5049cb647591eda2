"""Findings from unit results, each with a fingerprint that follows it across commits.

A fingerprint hashes the rule id, the function and the instance's own source lines with
their whitespace normalised, so it does not change when unrelated lines above it move;
identical instances in one file (the same loop pasted twice) are told apart by their
occurrence index, in line order. Findings reported by several units (a loop in a header
that two files include) are reported once.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable

from ci.findings import Finding, Found, UnitResult, level_for, message_for
from ci.rules import rule_for

__all__ = ["KEY", "findings_of", "normalised", "read_source_lines"]

# The name under which SARIF's `partialFingerprints` carries it (versioned, as the spec asks).
KEY = "idiomInstance/v1"

LineReader = Callable[[str], list[str]]


def findings_of(results: Iterable[UnitResult], read_lines: LineReader) -> list[Finding]:
    """Every instance of `results` as a finding, ordered by file and line, duplicates
    (the same instance seen from two units) dropped."""
    unique = {
        (f.path, f.first_line, f.last_line, f.idiom, f.function): f
        for result in results
        for f in result.found
    }
    ordered = sorted(unique.values(), key=lambda f: (f.path, f.first_line, f.last_line, f.idiom))
    seen: Counter[tuple[str, str]] = Counter()
    texts: dict[str, list[str]] = {}
    findings = []
    for found in ordered:
        if found.path not in texts:
            texts[found.path] = read_lines(found.path)
        digest = _digest(found, texts[found.path])
        index = seen[(found.path, digest)]
        seen[(found.path, digest)] += 1
        findings.append(
            Finding(
                rule_for(found.idiom),
                level_for(found),
                found,
                message_for(found),
                f"{digest}:{index}",
            )
        )
    return findings


def normalised(lines: list[str], first: int, last: int) -> str:
    """Lines `first`..`last` (1-based) with runs of white space made one space."""
    chosen = lines[max(first - 1, 0) : last] if first > 0 else []
    return "\n".join(" ".join(line.split()) for line in chosen)


def read_source_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            return stream.read().splitlines()
    except OSError:
        return []


def _digest(found: Found, lines: list[str]) -> str:
    text = normalised(lines, found.first_line, found.last_line)
    key = "\0".join((rule_for(found.idiom).id, found.function, text))
    return hashlib.sha256(key.encode()).hexdigest()[:32]
