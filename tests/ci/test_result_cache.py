"""The per-unit result cache: keys follow the preprocessed source and the flags, entries
round-trip, a corrupt one is ignored, and a hit needs neither LLVM nor the mappers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ci.findings import Found, UnitResult
from ci.result_cache import ResultCache
from ci.units import Unit

ROOT = Path(__file__).resolve().parents[2]
RESULT = UnitResult("/x/a.c", (Found("Reduction", "f", "/x/a.c", 3, 4, True, "OpenCL"),))


def unit(tmp_path: Path, text: str, *flags: str) -> Unit:
    source = tmp_path / "a.c"
    source.write_text(text)
    return Unit(source, tmp_path, flags)


def test_keys_follow_what_the_result_depends_on(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    (tmp_path / "h.h").write_text("#define N 4\n")
    text = '#include "h.h"\nint f(void) { return N; } // a comment\n'
    key = cache.key(unit(tmp_path, text))
    assert isinstance(key, str)
    assert cache.key(unit(tmp_path, text)) == key
    assert cache.key(unit(tmp_path, text.replace("a comment", "another"))) == key
    assert cache.key(unit(tmp_path, text, "-DM=1")) != key
    assert cache.key(unit(tmp_path, text.replace("N;", "N + 1;"))) != key
    (tmp_path / "h.h").write_text("#define N 5\n")  # a header is part of the unit
    assert cache.key(unit(tmp_path, text)) != key


def test_a_unit_that_does_not_preprocess_gives_its_error(tmp_path: Path) -> None:
    result = ResultCache(tmp_path / "cache").key(unit(tmp_path, '#include "absent.h"\n'))
    assert isinstance(result, UnitResult)
    assert result.error is not None
    assert "a.c:1:10: fatal error: 'absent.h' file not found" in result.error


def test_entries_round_trip_and_corrupt_ones_are_ignored(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    cache.put("k1", RESULT)
    assert cache.get("k1") == RESULT
    entry = tmp_path / "check" / "k1.json"
    for corrupt in ("{", '{"format": "idiom-check-1", "result": {"found": [{}]}}', "[]"):
        entry.write_text(corrupt)
        assert cache.get("k1") is None
    cache.put("k1", RESULT)
    assert cache.get("k1") == RESULT


def test_errors_stored_only_when_they_are_the_compilers(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    rejected = UnitResult("/x/a.c", error="/x/a.c: clang-22 failed:\n/x/a.c:1:1: error: x")
    cache.put("clang", rejected)
    cache.put("other", UnitResult("/x/a.c", error="/x/a.c: internal error: KeyError"))
    assert cache.get("clang") == rejected
    assert cache.get("other") is None


def test_off_when_no_folder(tmp_path: Path) -> None:
    cache = ResultCache(None)
    assert cache.key(unit(tmp_path, "int x;\n")) is None
    cache.put("k", RESULT)
    assert cache.get("k") is None


def test_a_hit_imports_no_analysis(tmp_path: Path) -> None:
    """A run whose units all hit imports neither llvmlite nor the library nor the mappers."""
    source = tmp_path / "dot.c"
    source.write_text("double dot(double *x, int n) { double s = 0; for (int i = 0; i < n; i++)"
                      " s += x[i]; return s; }\n")  # fmt: skip
    program = f"""
import sys
from pathlib import Path
from ci.result_cache import ResultCache
from ci.runner import check_units
from ci.units import Unit
unit = Unit(Path({str(source)!r}), Path({str(tmp_path)!r}))
run = check_units([unit], jobs=1, cache=ResultCache(Path({str(tmp_path / "c")!r})))
heavy = [m for m in ("llvmlite", "mappers", "matcher.pipeline", "matcher.detect",
                       "matcher.solver", "ci.analyse", "numpy")
         if m in sys.modules]
print(run.hits, run.misses, len(run.results[0].found), heavy)
"""
    outputs = [
        subprocess.run(
            [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split(" ", 3)
        for _ in range(2)
    ]
    assert outputs[0][:3] == ["0", "1", "1"]
    assert "llvmlite" in outputs[0][3]  # the miss did analyse
    assert outputs[1] == ["1", "0", "1", "[]\n"]
