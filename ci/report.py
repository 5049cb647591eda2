"""Text and JSON reports of a check."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ci.findings import LEVELS, Finding, UnitResult

__all__ = ["json_report", "json_text", "shown_path", "summary", "text_report"]


def shown_path(path: str, source_root: Path) -> str:
    """`path` relative to the source root when it lies under it."""
    try:
        return Path(path).resolve().relative_to(source_root.resolve()).as_posix()
    except ValueError:
        return path


def text_report(findings: Sequence[Finding], source_root: Path) -> str:
    """One line per finding, as compilers print diagnostics: `file:line: level: …`."""
    lines = []
    for finding in findings:
        found = finding.found
        where = shown_path(found.path, source_root)
        if found.first_line > 0:
            where += f":{found.first_line}"
        span = f" (lines {found.lines})" if found.first_line > 0 else ""
        lines.append(f"{where}: {finding.level}: {finding.message}{span} [{finding.rule.id}]")
    return "".join(line + "\n" for line in lines)


def json_report(
    findings: Sequence[Finding], results: Sequence[UnitResult], source_root: Path
) -> dict[str, object]:
    return {
        "format": "idiom-check-1",
        "findings": [
            {
                "rule": f.rule.id,
                "level": f.level,
                "path": shown_path(f.found.path, source_root),
                "start_line": f.found.first_line,
                "end_line": f.found.last_line,
                "function": f.found.function,
                "idiom": f.found.idiom,
                "replaced": f.found.replaced,
                "by": f.found.detail,
                "message": f.message,
                "fingerprint": f.fingerprint,
            }
            for f in findings
        ],
        "errors": [{"unit": r.source, "message": r.error} for r in results if r.error],
        "warnings": [w for r in results for w in r.warnings],
    }


def json_text(data: dict[str, object]) -> str:
    return json.dumps(data, indent=2) + "\n"


def summary(findings: Sequence[Finding], results: Sequence[UnitResult], hidden: int) -> str:
    counts = Counter(f.level for f in findings)
    levels = ", ".join(f"{counts[level]} {level}" for level in reversed(LEVELS))
    failed = sum(1 for r in results if r.error)
    text = f"{len(findings)} finding(s) ({levels}) in {len(results)} unit(s)"
    if hidden:
        text += f"; {hidden} in the baseline not shown"
    if failed:
        text += f"; {failed} unit(s) could not be analysed"
    return text
