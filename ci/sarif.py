"""SARIF 2.1.0 output: the tool and its rules, one result per finding with its physical
location (relative to the source root, named by `originalUriBaseIds`), its function as
a logical location and its fingerprint; failed units as tool execution notifications."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ci.findings import Finding, UnitResult
from ci.fingerprint import KEY
from ci.rules import Rule

__all__ = ["ROOT_ID", "SCHEMA_URI", "sarif_log"]

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
ROOT_ID = "SRCROOT"
_LOCATION = re.compile(
    r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<column>\d+): (?:fatal )?error: ", re.M
)


def sarif_log(
    findings: Sequence[Finding],
    results: Sequence[UnitResult],
    source_root: Path,
    version: str,
) -> dict[str, object]:
    rules = _rules(findings)
    index = {rule.id: number for number, rule in enumerate(rules)}
    notifications = [_notification(r, source_root) for r in results if r.error is not None]
    notifications += [
        {"level": "warning", "message": {"text": warning}}
        for result in results
        for warning in result.warnings
    ]
    run: dict[str, object] = {
        "tool": {
            "driver": {
                "name": "idiom",
                "version": version,
                "semanticVersion": version,
                "rules": [_rule(rule) for rule in rules],
            }
        },
        "originalUriBaseIds": {ROOT_ID: {"uri": source_root.resolve().as_uri() + "/"}},
        "invocations": [
            {
                "executionSuccessful": all(r.error is None for r in results),
                "toolExecutionNotifications": notifications,
            }
        ],
        "results": [_result(f, index[f.rule.id], source_root) for f in findings],
        "columnKind": "utf16CodeUnits",
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _rules(findings: Sequence[Finding]) -> list[Rule]:
    return sorted({f.rule.id: f.rule for f in findings}.values(), key=lambda r: r.id)


def _rule(rule: Rule) -> dict[str, object]:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.short},
        "fullDescription": {"text": rule.full},
        "help": {"text": rule.help},
    }  # no default level: each result's follows its own measured benefit


def _result(finding: Finding, rule_index: int, source_root: Path) -> dict[str, object]:
    found = finding.found
    physical: dict[str, object] = {"artifactLocation": _artifact(found.path, source_root)}
    if found.first_line > 0:
        physical["region"] = {"startLine": found.first_line, "endLine": found.last_line}
    return {
        "ruleId": finding.rule.id,
        "ruleIndex": rule_index,
        "level": finding.level,
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": physical,
                "logicalLocations": [{"name": found.function, "kind": "function"}],
            }
        ],
        "partialFingerprints": {KEY: finding.fingerprint},
        "properties": {"idiom": found.idiom, "replaced": found.replaced, "by": found.detail},
    }


def _artifact(path: str, source_root: Path) -> dict[str, object]:
    """A path under the source root relative to it (`uriBaseId`), any other absolute."""
    absolute = Path(path).resolve()
    try:
        relative = absolute.relative_to(source_root.resolve())
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": relative.as_posix(), "uriBaseId": ROOT_ID}


def _notification(result: UnitResult, source_root: Path) -> dict[str, object]:
    """A unit that failed, located at the compiler's first error when it names one."""
    assert result.error is not None
    notification: dict[str, object] = {"level": "error", "message": {"text": result.error}}
    match = _LOCATION.search(result.error)
    if match:
        file = Path(result.source).parent / match["file"]
        notification["locations"] = [
            {
                "physicalLocation": {
                    "artifactLocation": _artifact(str(file), source_root),
                    "region": {
                        "startLine": int(match["line"]),
                        "startColumn": int(match["column"]),
                    },
                }
            }
        ]
    return notification
