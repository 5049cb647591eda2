"""Baselines: the findings a project accepts for now, by fingerprint, so that CI reports
only new ones. A fingerprint absorbs as many findings as the baseline lists it."""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ci.findings import Finding
from ci.report import shown_path
from idl.errors import IdiomError

__all__ = ["BaselineError", "new_findings", "read_baseline", "write_baseline"]

FORMAT = "idiom-baseline-1"


class BaselineError(IdiomError):
    """A baseline file that cannot be read or written."""


def write_baseline(path: Path, findings: Sequence[Finding], source_root: Path) -> None:
    entries = [
        {
            "fingerprint": f.fingerprint,
            "rule": f.rule.id,
            "path": shown_path(f.found.path, source_root),
            "function": f.found.function,
            "lines": f.found.lines,
        }
        for f in findings
    ]
    text = json.dumps({"format": FORMAT, "findings": entries}, indent=1) + "\n"
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent or ".", prefix=".baseline-", delete=False
        ) as stream:
            stream.write(text)
        os.replace(stream.name, path)
    except OSError as error:
        raise BaselineError(f"{path}: cannot write the baseline: {error}") from error


def read_baseline(path: Path) -> Counter[str]:
    """How many times the baseline lists each fingerprint."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"{path}: cannot read the baseline: {error.strerror}") from error
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BaselineError(f"{path}: not a baseline (invalid JSON: {error})") from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BaselineError(f"{path}: not a baseline (written by --write-baseline)")
    entries = data.get("findings")
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("fingerprint"), str) for e in entries
    ):
        raise BaselineError(f"{path}: malformed baseline: 'findings' needs fingerprints")
    return Counter(e["fingerprint"] for e in entries)


def new_findings(findings: Sequence[Finding], baseline: Counter[str]) -> list[Finding]:
    left = Counter(baseline)
    fresh = []
    for finding in findings:
        if left[finding.fingerprint] > 0:
            left[finding.fingerprint] -= 1
        else:
            fresh.append(finding)
    return fresh
