"""Records in object files: written, read back, joined by `ld -r`, inside archives."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from matcher.frontend import find_tool
from wrapper.objects import SECTION, read_input
from wrapper.record import RecordError, UnitRecord, decode_records, encode_record

RECORD = UnitRecord(
    source="k.c",
    driver="clang",
    codegen_flags=("-O2", "-fPIC"),
    canonical="; canonical",
    rewritten="; rewritten",
    original=None,
    replaced=2,
)


def test_a_record_reads_back() -> None:
    assert decode_records(encode_record(RECORD)) == [RECORD]


def test_records_joined_with_padding_read_back_one_by_one() -> None:
    other = UnitRecord("m.c", "clang++", (), "a", "b", "c", 1)
    joined = encode_record(RECORD) + b"\0\0\0" + encode_record(other)
    assert decode_records(joined) == [RECORD, other]


def test_a_damaged_record_is_an_error() -> None:
    data = bytearray(encode_record(RECORD))
    data[-5] ^= 0xFF
    with pytest.raises(RecordError):
        decode_records(bytes(data))


def _object(folder: Path, name: str, code: str, record: UnitRecord | None) -> Path:
    source = folder / f"{name}.c"
    source.write_text(code)
    target = folder / f"{name}.o"
    subprocess.run([find_tool("clang"), "-c", str(source), "-o", str(target)], check=True)
    if record is not None:
        payload = folder / f"{name}.idiom"
        payload.write_bytes(encode_record(record))
        subprocess.run(
            [
                find_tool("llvm-objcopy"),
                f"--add-section={SECTION}={payload}",
                f"--set-section-flags={SECTION}=exclude,readonly",
                str(target),
            ],
            check=True,
        )
    return target


def test_sections_and_symbols_of_objects_and_archives(tmp_path: Path) -> None:
    other = UnitRecord("m.c", "clang", (), "x", "y", None, 1)
    kernel = _object(tmp_path, "k", "int g(int);\nint f(int x) { return g(x) + 1; }\n", RECORD)
    main = _object(tmp_path, "m", "int f(int);\nint main(void) { return f(2); }\n", other)
    plain = _object(tmp_path, "p", "int g(int x) { return x; }\n", None)
    read = read_input(kernel)
    assert read is not None and not isinstance(read, list)
    assert decode_records(read.payload) == [RECORD]
    assert "f" in read.defined and "g" in read.undefined
    read_plain = read_input(plain)
    assert read_plain is not None and not isinstance(read_plain, list)
    assert read_plain.payload == b"" and read_plain.defined == {"g"}
    # ld -r keeps the excluded sections, one after the other.
    joined = tmp_path / "joined.o"
    subprocess.run(["ld", "-r", str(kernel), str(main), "-o", str(joined)], check=True)
    read_joined = read_input(joined)
    assert read_joined is not None and not isinstance(read_joined, list)
    assert {r.source for r in decode_records(read_joined.payload)} == {"k.c", "m.c"}
    archive = tmp_path / "libk.a"
    subprocess.run([find_tool("llvm-ar"), "rcs", str(archive), str(kernel), str(plain)], check=True)
    members = read_input(archive)
    assert isinstance(members, list) and len(members) == 2
    assert [bool(m.payload) for m in members] == [True, False]
    # A program keeps no record: the linker drops the section.
    program = tmp_path / "prog"
    subprocess.run(
        [find_tool("clang"), str(main), str(kernel), str(plain), "-o", str(program)], check=True
    )
    assert SECTION.encode() not in program.read_bytes()
    assert read_input(program) is None


def test_other_files_carry_nothing(tmp_path: Path) -> None:
    text = tmp_path / "script.ld"
    text.write_text("INPUT(-lm)\n")
    assert read_input(text) is None
    assert read_input(tmp_path / "missing.o") is None
