"""Object files: the idiom unit records they carry, and the symbols they define and use.

An accelerated object is an ordinary ELF relocatable object with one more section,
`.idiom_unit`, holding what the link step needs to redo the whole-program steps (records,
wrapper/record.py). The section is marked SHF_EXCLUDE: a linker drops it from programs
and shared libraries, and keeps it (concatenated) in a relocatable `ld -r` link, so
records are self-delimiting. Static archives (`ar`) are read member by member.

Only what the wrapper needs is parsed: section headers and the symbol tables of 64-bit
little-endian ELF (x86-64, AArch64); anything else reads as carrying nothing.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SECTION", "ObjectFile", "archive_members", "parse_object", "read_input"]

SECTION = ".idiom_unit"
_ELF = b"\x7fELF"
_ARCHIVE = b"!<arch>\n"
_RELOCATABLE = 1
_SHARED = 3
_SYMTAB = 2
_DYNSYM = 11
_UNDEFINED = 0
_GLOBAL_BINDINGS = (1, 2)  # STB_GLOBAL, STB_WEAK


@dataclass(frozen=True)
class ObjectFile:
    """What the link step reads of one relocatable object."""

    payload: bytes  # the `.idiom_unit` section's bytes, empty when absent
    defined: frozenset[str]  # global and weak symbols it defines
    undefined: frozenset[str]  # symbols it uses from elsewhere
    shared: bool = False  # a shared library (its symbols only; it carries no record)


def read_input(path: Path) -> ObjectFile | list[ObjectFile] | None:
    """An object or shared library, the objects of an archive, or None (a linker script,
    a program, anything else)."""
    try:
        with path.open("rb") as stream:
            head = stream.read(8)
            if head.startswith(_ELF):
                data = head + stream.read()
                return parse_object(data)
            if head == _ARCHIVE:
                return [o for o in (parse_object(m) for m in archive_members(head + stream.read()))
                        if o is not None]  # fmt: skip
    except OSError:
        return None
    return None


def parse_object(data: bytes) -> ObjectFile | None:
    """A relocatable ELF object's or a shared library's section and symbols; None for
    other ELF files."""
    if len(data) < 64 or data[4] != 2 or data[5] != 1:  # ELFCLASS64, little-endian
        return None
    e_type = struct.unpack_from("<H", data, 16)[0]
    if e_type not in (_RELOCATABLE, _SHARED):
        return None
    (shoff,) = struct.unpack_from("<Q", data, 40)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 58)
    sections = [_section(data, shoff + index * shentsize) for index in range(shnum)]
    if not sections or shstrndx >= len(sections):
        return None
    names = sections[shstrndx]
    payload = b""
    defined: set[str] = set()
    undefined: set[str] = set()
    for section in sections:
        name = _string(data, names.offset + section.name)
        if name == ".interp":  # a program (position-independent ones are ET_DYN too)
            return None
        if name == SECTION:
            payload += data[section.offset : section.offset + section.size]
        elif section.kind in (_SYMTAB, _DYNSYM) and section.link < len(sections):
            strings = sections[section.link].offset
            for symbol, binding, index in _symbols(data, section):
                text = _string(data, strings + symbol)
                if not text:
                    continue
                if index == _UNDEFINED:
                    undefined.add(text)
                elif binding in _GLOBAL_BINDINGS:
                    defined.add(text)
    return ObjectFile(payload, frozenset(defined), frozenset(undefined), e_type == _SHARED)


@dataclass(frozen=True)
class _Section:
    name: int
    kind: int
    offset: int
    size: int
    link: int
    entry_size: int


def _section(data: bytes, at: int) -> _Section:
    name, kind, _flags, _address, offset, size, link, _info, _align, entry = struct.unpack_from(
        "<IIQQQQIIQQ", data, at
    )
    return _Section(name, kind, offset, size, link, entry)


def _symbols(data: bytes, table: _Section) -> Iterator[tuple[int, int, int]]:
    """(name offset, binding, section index) of each symbol."""
    size = table.entry_size or 24
    for at in range(table.offset + size, table.offset + table.size, size):  # 0 is null
        name, info, _other, index = struct.unpack_from("<IBBH", data, at)
        yield name, info >> 4, index


def _string(data: bytes, at: int) -> str:
    end = data.find(b"\0", at)
    return data[at : end if end >= 0 else len(data)].decode("utf-8", errors="replace")


def archive_members(data: bytes) -> Iterator[bytes]:
    """The members of a System V / GNU `ar` archive (its symbol and name tables left out)."""
    at = len(_ARCHIVE)
    while at + 60 <= len(data):
        header = data[at : at + 60]
        name = header[:16].rstrip()
        try:
            size = int(header[48:58])
        except ValueError:
            return
        body = data[at + 60 : at + 60 + size]
        if name not in (b"/", b"//", b"/SYM64/"):
            yield body
        at += 60 + size + (size & 1)
