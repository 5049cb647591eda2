"""The compile step: a plain object made accelerated when idiom replaced something.

The plain clang-22 command runs first, exactly as the user wrote it (its diagnostics,
dependency files and exit status are the build's). Then each source goes through idiom;
when something was replaced, the object is rebuilt from the unit's IR as
`idiom accelerate` builds a unit without residency (each launch copies its arrays in and
back, so the object is right on its own) and carries the record the link step needs
(wrapper/record.py) in its `.idiom_unit` section. Any failure keeps the plain object,
with a one-line warning.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from idl.errors import IdiomError
from wrapper.args import C_SOURCES, Invocation, codegen_flags
from wrapper.messages import first_line, note, warn
from wrapper.objects import SECTION, ObjectFile, read_input
from wrapper.record import UnitRecord, encode_record

__all__ = ["WrapperError", "accelerate_object", "compile_ir", "upgrade_object"]


# Flags that build for another machine than the one the runtime is built for.
_OTHER_TARGETS = ("-m32", "-mx32", "-m16", "-target", "--target", "-arch")


@dataclass(frozen=True)
class _Unit:
    record: UnitRecord
    standalone: str  # the IR of the object that works on its own
    lines: tuple[str, ...]  # what was replaced, for IDIOM_CC_VERBOSE


def upgrade_object(tool: str, driver: str, source: Path, target: Path, call: Invocation) -> bool:
    """Replace the plain object `target` of `source` by the accelerated one; True when it
    was. Never raises: a failure is one warning line, and the plain object stays."""
    try:
        return accelerate_object(tool, driver, source, target, call)
    except Exception as error:  # any failure of idiom leaves the plain build
        warn(tool, f"{source}: not accelerated: {first_line(error)}")
        return False


def accelerate_object(tool: str, driver: str, source: Path, target: Path, call: Invocation) -> bool:
    other_target = next((f for f in call.compile_flags if f.startswith(_OTHER_TARGETS)), None)
    if other_target is not None:
        raise WrapperError(f"the runtime is built for this machine only ({other_target})")
    unit = _rewritten(source, driver, call)
    if unit is None:
        warn(tool, f"{source}: no idiom replaced")
        return False
    with tempfile.TemporaryDirectory(prefix="idiom-cc-") as tmp:
        built = Path(tmp) / "unit.o"
        compile_ir(unit.standalone, driver, unit.record.codegen_flags, built)
        payload = Path(tmp) / "unit.idiom"
        payload.write_bytes(encode_record(unit.record))
        _run(
            [
                _objcopy(),
                f"--add-section={SECTION}={payload}",
                f"--set-section-flags={SECTION}=exclude,readonly",
                str(built),
            ],
            "llvm-objcopy-22 failed",
        )
        _check_symbols(built, target)
        _replace(built, target)
    for line in unit.lines:
        note(tool, f"{source}: {line}")
    return True


def _rewritten(source: Path, driver: str, call: Invocation) -> _Unit | None:
    """The unit through idiom, or None when nothing was replaced."""
    # Imported here: a pass-through or plain compile never pays for loading the tool.
    from mappers.accelerate import rewritten_unit  # noqa: PLC0415
    from mappers.rewrite.splice import spliced  # noqa: PLC0415
    from matcher.frontend import CompileOptions, source_ir  # noqa: PLC0415

    flags = call.front_end_flags
    if driver == "clang++" and source.suffix in C_SOURCES:  # clang++ compiles it as C++
        flags = ("-x", "c++", *flags)
    options = CompileOptions(extra_flags=flags)
    canonical, rewritten, report = rewritten_unit(source, options, (), reassociate=True)
    replaced = [o for o in report.outcomes if o.replaced]
    if not replaced:
        return None
    original = source_ir(source, options)
    standalone = rewritten if original is None else spliced(rewritten, canonical, original)
    record = UnitRecord(
        source=str(source),
        driver=driver,
        codegen_flags=codegen_flags(call.compile_flags),
        canonical=canonical,
        rewritten=rewritten,
        original=original,
        replaced=len(replaced),
    )
    lines = tuple(
        f"{o.instance.idiom} in {o.instance.function} (lines {o.instance.lines}): {o.detail}"
        for o in replaced
    )
    return _Unit(record, standalone, lines)


def compile_ir(text: str, driver: str, flags: tuple[str, ...], target: Path) -> None:
    """An object from IR text, with the unit's code-generation flags."""
    with tempfile.TemporaryDirectory(prefix="idiom-cc-") as tmp:
        source = Path(tmp) / "unit.ll"
        source.write_text(text, encoding="utf-8")
        _run(
            [_clang(driver), *flags, "-w", "-c", str(source), "-o", str(target)],
            "compiling the rewritten IR failed",
        )


class WrapperError(IdiomError):
    """A step of the wrapper failed (the caller falls back to the plain build)."""


def _clang(driver: str) -> str:
    from matcher.frontend import find_tool  # noqa: PLC0415

    return find_tool(driver)


def _objcopy() -> str:
    from matcher.frontend import find_tool  # noqa: PLC0415

    return find_tool("llvm-objcopy")


def _run(command: list[str], what: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise WrapperError(f"{what}: {(result.stderr or result.stdout).strip()}")


def _check_symbols(built: Path, plain: Path) -> None:
    """The accelerated object defines every symbol the plain one does: a front end that
    saw the unit otherwise (another language, other macros) must not break the link."""
    ours, theirs = read_input(built), read_input(plain)
    if isinstance(ours, ObjectFile) and isinstance(theirs, ObjectFile):
        missing = sorted(theirs.defined - ours.defined)
        if missing:
            raise WrapperError(f"the accelerated object lacks {', '.join(missing[:3])}")


def _replace(built: Path, target: Path) -> None:
    """`target` replaced in one step: a build interrupted now sees the old or the new."""
    folder = target.parent
    handle, staging = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(built.read_bytes())
        os.chmod(staging, target.stat().st_mode & 0o777 if target.exists() else 0o644)
        os.replace(staging, target)
    except BaseException:
        Path(staging).unlink(missing_ok=True)
        raise
