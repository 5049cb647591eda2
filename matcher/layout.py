"""Sizes of LLVM types and what a getelementptr addresses, in bytes.

The IR model records, for each getelementptr, the size of the element its result points
to and, when every index is a constant, its byte offset from its base (`Value.
pointee_size`, `Value.byte_offset`). With them an atom can tell a field of a record
(`u[i][4]`: 32 bytes into a 40-byte element) from a neighbour (`a[i-1]`: 8 bytes before
an 8-byte one), which are both a constant offset in LLVM's canonical form.

Named structs are laid out by LLVM itself (the module's data layout, through llvmlite);
every other type is read from its printed form with the data layout's usual natural
alignment. A type this module cannot size (a vector, an opaque struct, a scalable type)
gives None, and what depends on it is left unknown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import llvmlite.binding as llvm

from matcher.footprint import point_stride
from matcher.ir import ValueKind

if TYPE_CHECKING:
    from matcher.ir import Value

__all__ = ["Layout", "outside_element", "point_size"]

# (allocation size, ABI alignment) of the scalar types.
_SCALARS: dict[str, tuple[int, int]] = {
    "i1": (1, 1),
    "i8": (1, 1),
    "i16": (2, 2),
    "i32": (4, 4),
    "i64": (8, 8),
    "i128": (16, 16),
    "half": (2, 2),
    "bfloat": (2, 2),
    "float": (4, 4),
    "double": (8, 8),
    "fp128": (16, 16),
    "x86_fp80": (16, 16),
    "ptr": (8, 8),
}
_ARRAY = re.compile(r"\[(\d+) x (.*)\]")
_GEP_FLAGS = re.compile(r"getelementptr((?:\s+(?:inbounds|nuw|nusw|inrange\([^)]*\)))*)\s+")


def outside_element(a: Value, b: Value) -> bool:
    """`a` is a getelementptr of constant indices from the getelementptr `b` that leaves
    the element `b` points to: IDL's `{a} is outside the element of {b}`. When `b` steps
    through an array by one index that moves several elements at a time (a counter of
    step 20, `x * 20`: records of 20 floats in a flat array, `footprint.point_stride`),
    the element is that many of them."""
    offset, size = a.byte_offset, point_size(b)
    return (
        offset is not None
        and size is not None
        and a.opcode == "getelementptr"
        and b.opcode == "getelementptr"
        and a.operands[0] is b
        and (offset < 0 or offset >= size)
    )


def point_size(gep: Value) -> int | None:
    """The bytes one point of a getelementptr spans: the element it points to, times the
    stride of its index when it has one variable index (see `outside_element`)."""
    size = gep.pointee_size
    if size is None or len(gep.operands) != 2 or gep.operands[1].kind is ValueKind.CONSTANT:
        return size
    return size * point_stride(gep.operands[1])


def _split_top(text: str) -> list[str]:
    """The comma-separated parts of `text` that are not nested in brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "[{<(":
            depth += 1
        elif char in "]}>)":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _round_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


class Layout:
    """Type sizes in one module (its named structs, its data layout)."""

    def __init__(self, module: Any) -> None:
        self._module = module
        self._target: Any = None
        self._cache: dict[str, tuple[int, int] | None] = {}

    def size(self, type_text: str) -> int | None:
        """The allocation size of a type in bytes (the stride of an array of it)."""
        found = self._size_align(type_text.strip())
        return found[0] if found else None

    def _size_align(self, text: str) -> tuple[int, int] | None:
        if text in self._cache:
            return self._cache[text]
        found = self._compute(text)
        self._cache[text] = found
        return found

    def _compute(self, text: str) -> tuple[int, int] | None:
        if text in _SCALARS:
            return _SCALARS[text]
        if text.startswith("ptr addrspace"):
            return _SCALARS["ptr"]
        array = _ARRAY.fullmatch(text)
        if array:
            element = self._size_align(array.group(2).strip())
            return None if element is None else (int(array.group(1)) * element[0], element[1])
        if text.startswith("%"):
            return self._named(text[1:])
        packed = text.startswith("<{") and text.endswith("}>")
        if packed or (text.startswith("{") and text.endswith("}")):
            inner = text[2:-2] if packed else text[1:-1]
            return self._literal_struct(_split_top(inner) if inner.strip() else [], packed)
        return None

    def _literal_struct(self, fields: Sequence[str], packed: bool) -> tuple[int, int] | None:
        offset, alignment = 0, 1
        for field in fields:
            found = self._size_align(field)
            if found is None:
                return None
            size, field_alignment = found
            if not packed:
                offset = _round_up(offset, field_alignment)
                alignment = max(alignment, field_alignment)
            offset += size
        return _round_up(offset, alignment), alignment

    def _named(self, name: str) -> tuple[int, int] | None:
        name = name[1:-1] if name.startswith('"') else name
        try:
            struct = self._module.get_struct_type(name)
            if struct.is_opaque_struct:
                return None
            if self._target is None:
                self._target = llvm.create_target_data(self._module.data_layout)
            return int(self._target.get_abi_size(struct)), int(
                self._target.get_abi_alignment(struct)
            )
        except (NameError, RuntimeError, ValueError):
            return None

    def _field(self, struct_text: str, index: int) -> tuple[str, int] | None:
        """The type of field `index` of a struct type and its byte offset."""
        if struct_text.startswith("%"):
            name = struct_text[1:]
            name = name[1:-1] if name.startswith('"') else name
            try:
                struct = self._module.get_struct_type(name)
                elements = list(struct.elements)
                if not 0 <= index < len(elements):
                    return None
                if self._target is None:
                    self._target = llvm.create_target_data(self._module.data_layout)
                return str(elements[index]), int(self._target.get_element_offset(struct, index))
            except (NameError, RuntimeError, ValueError):
                return None
        packed = struct_text.startswith("<{")
        inner = struct_text[2:-2] if packed else struct_text[1:-1]
        fields = _split_top(inner)
        if not 0 <= index < len(fields):
            return None
        offset = 0
        for position, field in enumerate(fields):
            found = self._size_align(field)
            if found is None:
                return None
            if not packed:
                offset = _round_up(offset, found[1])
            if position == index:
                return field, offset
            offset += found[0]
        return None

    def gep(
        self, text: str, indices: Sequence[int | float | None]
    ) -> tuple[int | None, int | None]:
        """For a getelementptr printed as `text` with these indices (None: not a
        constant): the size of the element its result points to, and its byte offset from
        its base when every index is a constant."""
        match = _GEP_FLAGS.search(text)
        if match is None or not indices:
            return None, None
        source = _split_top(text[match.end() :])[0]
        current = source
        size = self.size(source)
        first = indices[0]
        if size is None:
            return None, None
        offset = first * size if isinstance(first, int) else None
        for index in indices[1:]:
            array = _ARRAY.fullmatch(current)
            if array:
                current = array.group(2).strip()
                element = self.size(current)
                if element is None:
                    return None, None
                if offset is not None:
                    offset = offset + index * element if isinstance(index, int) else None
                continue
            if not isinstance(index, int):
                return None, None  # a struct is indexed by constants only
            field = self._field(current, index)
            if field is None:
                return None, None
            current = field[0]
            if offset is not None:
                offset += field[1]
        return self.size(current), offset
