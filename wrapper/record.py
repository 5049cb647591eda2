"""The record of an accelerated unit that travels inside its object file.

The link step redoes the whole-program steps (residency) over every accelerated unit it
sees, so each object carries its unit's IR before those steps: the rewritten IR, the
canonical IR it was rewritten from and the source's own IR (for the splice,
mappers/rewrite/splice.py), and how to compile the result (driver and code-generation flags).
A record is self-delimiting (magic, length, zlib-compressed JSON), so the records of
objects joined by `ld -r` read back one by one.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import asdict, dataclass

from idl.errors import IdiomError

__all__ = ["RecordError", "UnitRecord", "decode_records", "encode_record"]

_MAGIC = b"IDIOM-UNIT-1\0\0\0\0"
_LENGTH = struct.Struct("<Q")


class RecordError(IdiomError):
    """A `.idiom_unit` section that does not read back."""


@dataclass(frozen=True)
class UnitRecord:
    source: str  # the source file, as given to the compiler
    driver: str  # "clang" or "clang++"
    codegen_flags: tuple[str, ...]  # for compiling the IR to an object
    canonical: str  # the canonical IR the matcher read
    rewritten: str  # that IR with its idioms replaced, before the whole-program steps
    original: str | None  # the IR a plain build optimises (None: no such form)
    replaced: int  # idiom instances replaced


def encode_record(record: UnitRecord) -> bytes:
    body = zlib.compress(json.dumps(asdict(record)).encode(), level=6)
    return _MAGIC + _LENGTH.pack(len(body)) + body


def decode_records(payload: bytes) -> list[UnitRecord]:
    """Every record in a section's bytes (several after `ld -r`); alignment padding
    between them is skipped."""
    records: list[UnitRecord] = []
    at = 0
    while True:
        at = payload.find(_MAGIC, at)
        if at < 0:
            return records
        start = at + len(_MAGIC) + _LENGTH.size
        if start > len(payload):
            raise RecordError("truncated idiom record")
        (length,) = _LENGTH.unpack_from(payload, at + len(_MAGIC))
        body = payload[start : start + length]
        try:
            fields = json.loads(zlib.decompress(body))
            fields["codegen_flags"] = tuple(fields["codegen_flags"])
            records.append(UnitRecord(**fields))
        except (zlib.error, ValueError, TypeError, KeyError) as error:
            raise RecordError(f"unreadable idiom record: {error}") from error
        at = start + length
