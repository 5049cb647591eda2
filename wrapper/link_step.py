"""The link step: the whole-program steps over every accelerated object, then the runtime.

Like link-time optimisation: the objects given on the command line that carry an idiom
record (wrapper/record.py) are the program as idiom sees it. When one of them defines
`main` and a unit launches kernels, residency is decided over them all
(mappers/residency/placement.py): host accesses are placed, each unit is spliced and compiled again
(as `idiom accelerate` does), and those objects stand in for the ones given. Everything
else is code outside the program: objects without a record, archives, libraries; calls
into it get a host access first, and functions it calls by name return with no device
copies. The runtime archive and its libraries are added whenever any input carries a
record.

Residency is refused (the objects are linked as they are: each launch copies its arrays
in and back) when an object without a record, or an archive member, creates threads,
forks or installs signal handlers; when an archive member carries a record (whether the
linker takes it cannot be known beforehand); or when one object carries several records
(joined by `ld -r`, alongside code that may have none). A failure of the whole-program
steps gives a one-line warning and the same plain link of the accelerated objects.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from wrapper.compile_step import compile_ir
from wrapper.messages import first_line, note, warn
from wrapper.objects import ObjectFile, read_input
from wrapper.record import UnitRecord, decode_records

if TYPE_CHECKING:
    from mappers.runtime.build import RuntimeLibrary

__all__ = ["LinkInputs", "link", "named_libraries", "read_link_inputs"]

# The runtime's launch entry: a shared library that has it was built with accelerated
# units, whose launches the program's placement does not see.
LAUNCHES = "idiom_cl_run"


@dataclass
class LinkInputs:
    """What the link step read of its inputs."""

    units: dict[str, UnitRecord] = field(default_factory=dict)  # object path -> its unit
    defined: set[str] = field(default_factory=set)  # symbols the units' objects define
    outside_uses: set[str] = field(default_factory=set)  # symbols other objects use
    refused: str | None = None  # why residency is off, when it is
    accelerated: bool = False  # some input carries a record: the runtime is needed

    def refuse(self, why: str) -> None:
        self.refused = self.refused or why


def read_link_inputs(paths: Sequence[str]) -> LinkInputs:
    """Sort the inputs: accelerated objects, code outside the program, and what keeps
    the program from residency."""
    from mappers.residency.placement import unmodelled_call  # noqa: PLC0415

    found = LinkInputs()
    for path in paths:
        content = read_input(Path(path))
        if content is None:
            continue
        in_archive = isinstance(content, list)
        for item in content if isinstance(content, list) else [content]:
            if item.shared:
                if LAUNCHES in item.defined | item.undefined:
                    found.refuse(f"{path}: a shared library launches kernels itself")
                continue
            records = decode_records(item.payload) if item.payload else []
            if records:
                found.accelerated = True
            if records and not in_archive and len(records) == 1:
                found.units[path] = records[0]
                found.defined |= item.defined
                continue
            if records:
                found.refuse(
                    f"{path}: an archive member carries idiom IR"
                    if in_archive
                    else f"{path}: one object holds several units (ld -r)"
                )
            _outside(found, item, unmodelled_call)
    return found


def _outside(
    found: LinkInputs, item: ObjectFile, unmodelled_call: Callable[[str], str | None]
) -> None:
    found.outside_uses |= item.undefined
    for name in sorted(item.undefined):
        why = unmodelled_call(name)
        if why is not None:
            found.refuse(why)


def named_libraries(command: Sequence[str]) -> list[str]:
    """The libraries (archives, shared libraries) that the `-lNAME` of a link command
    find in its own `-L` folders; system folders hold nothing of this build."""
    folders: list[str] = []
    static = "-static" in command
    found: list[str] = []
    arguments = list(command)
    for position, argument in enumerate(arguments):
        value = arguments[position + 1] if position + 1 < len(arguments) else ""
        if argument.startswith("-L"):
            folders.append(argument[2:] or value)
            continue
        if not argument.startswith("-l"):
            continue
        name = argument[2:] or value
        if name.startswith(":"):
            candidates = [name[1:]]
        else:
            candidates = [f"lib{name}.a"] if static else [f"lib{name}.so", f"lib{name}.a"]
        for folder in folders:
            hit = next((Path(folder) / c for c in candidates if (Path(folder) / c).exists()), None)
            if hit is not None:
                found.append(str(hit))
                break
    return found


def link(tool: str, driver: str, command: list[str], objects: Sequence[str]) -> int:
    """Run the link `command` (clang's arguments, without the program name), whose input
    objects are `objects`: accelerated when any carries a record."""
    from mappers.runtime.build import runtime_library  # noqa: PLC0415
    from matcher.frontend import find_tool  # noqa: PLC0415

    clang = find_tool(driver)
    try:
        inputs = read_link_inputs([*objects, *named_libraries(command)])
    except Exception as error:  # unreadable records: link what was given, plainly
        warn(tool, f"link: idiom records not read: {first_line(error)}")
        inputs = LinkInputs(accelerated=True, refused="unreadable records")
    if not inputs.accelerated:
        return _plain_link(clang, command, runtime_library)
    runtime = runtime_library()
    extra = [str(runtime.archive), *runtime.link_args]
    with tempfile.TemporaryDirectory(prefix="idiom-cc-link-") as tmp:
        try:
            replaced = _whole_program(tool, inputs, Path(tmp))
        except Exception as error:  # the objects as they are still make a right program
            warn(tool, f"link: whole-program steps failed, objects linked as they are: "
                 f"{first_line(error)}")  # fmt: skip
            replaced = {}
        final = [replaced.get(argument, argument) for argument in command]
        return subprocess.run([clang, *final, *extra], check=False).returncode


def _plain_link(
    clang: str, command: list[str], runtime_library: Callable[[], RuntimeLibrary]
) -> int:
    """The link as given. Should it miss the runtime (accelerated objects the wrapper could
    not see: an archive found in a system folder, a response file), once more with it."""
    result = subprocess.run([clang, *command], capture_output=True, text=True, check=False)
    if result.returncode != 0 and "undefined reference to `idiom_" in result.stderr:
        runtime = runtime_library()
        extra = [str(runtime.archive), *runtime.link_args]
        return subprocess.run([clang, *command, *extra], check=False).returncode
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    return result.returncode


def _whole_program(tool: str, inputs: LinkInputs, folder: Path) -> dict[str, str]:
    """The objects rebuilt with residency, by the path of the object each replaces; none
    when the program does not need it or cannot have it."""
    from mappers.residency.placement import needs_residency, with_host_access  # noqa: PLC0415
    from mappers.rewrite.splice import spliced  # noqa: PLC0415

    paths = list(inputs.units)
    records = [inputs.units[path] for path in paths]
    texts = [record.rewritten for record in records]
    if not needs_residency(texts):
        return {}
    if not any("define" in line and " @main(" in line for t in texts for line in _defines(t)):
        note(tool, "link: no accelerated unit defines main: no residency")
        return {}
    refused = inputs.refused or _refused_by_units(texts)
    if refused is not None:
        warn(tool, f"link: {refused}: arrays are copied to the device and back at every launch")
        return {}
    placed = with_host_access(
        texts, [record.source for record in records], inputs.outside_uses & inputs.defined
    )
    rebuilt: dict[str, str] = {}
    for number, (path, record, text) in enumerate(zip(paths, records, placed, strict=True)):
        final = (
            text if record.original is None else spliced(text, record.canonical, record.original)
        )
        target = folder / f"unit{number}.o"
        compile_ir(final, record.driver, record.codegen_flags, target)
        rebuilt[path] = str(target)
    note(tool, f"link: residency over {len(rebuilt)} accelerated unit(s)")
    return rebuilt


def _refused_by_units(texts: list[str]) -> str | None:
    from mappers.residency.placement import residency_refused  # noqa: PLC0415

    return residency_refused(texts)


def _defines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("define ")]
