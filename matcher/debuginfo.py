"""Source locations from the debug metadata of an IR module's text.

llvmlite does not expose debug locations, so the metadata nodes this needs
(`DILocation`, `DISubprogram`, lexical blocks, `DIFile`, and the named scopes a C++
method lives in) are read from the module text with a few regular expressions, once per
module. An instruction's location is its `DILocation`; its source function is the
subprogram of the innermost scope, so code inlined from `sum` into `main` still says
`sum`.

A `DIFile` names a file relative to a folder of clang's choosing (its working folder,
or the file's own folder for an absolute path), so a location's file is given instead as
the user named the translation unit: the unit itself in their spelling, any other file
(an `#include`d kernel) absolute if they gave the unit's path absolute, else relative to
the working folder.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from matcher.ir import SourceLocation

__all__ = ["DebugInfo", "instruction_debug_id"]

_NODE = re.compile(r"^!(\d+) = (?:distinct )?!(\w+)\((.*)\)\s*$", re.MULTILINE)
_FIELD = re.compile(r'(\w+): (?:"((?:[^"\\]|\\.)*)"|(!\d+|[\w.+-]+))')
_DBG = re.compile(r"!dbg !(\d+)")


def instruction_debug_id(text: str) -> int | None:
    match = _DBG.search(text)
    return int(match.group(1)) if match else None


@dataclass(frozen=True)
class _Node:
    kind: str
    fields: dict[str, str]

    def ref(self, name: str) -> int | None:
        value = self.fields.get(name, "")
        return int(value[1:]) if value.startswith("!") and value[1:].isdigit() else None


class DebugInfo:
    """The metadata nodes of one module that source locations are made of."""

    def __init__(self, module_text: str, source: str = "<ir>") -> None:
        self._source = source  # the translation unit's path as the user gave it
        self._nodes: dict[int, _Node] = {}
        for match in _NODE.finditer(module_text):
            kind = match.group(2)
            if kind.startswith("DI"):
                fields = {
                    f.group(1): f.group(2) if f.group(2) is not None else f.group(3)
                    for f in _FIELD.finditer(match.group(3))
                }
                self._nodes[int(match.group(1))] = _Node(kind, fields)
        self._cache: dict[int, SourceLocation | None] = {}
        self._files: dict[int, str] = {}

    def location(self, node_id: int | None) -> SourceLocation | None:
        if node_id is None:
            return None
        if node_id not in self._cache:
            self._cache[node_id] = self._resolve(node_id)
        return self._cache[node_id]

    def subprogram_name(self, node_id: int | None) -> str | None:
        """The source name of a `DISubprogram` (qualified by its class or namespace)."""
        node = self._nodes.get(node_id) if node_id is not None else None
        if node is None or node.kind != "DISubprogram":
            return None
        name = node.fields.get("name", "")
        scope = self._nodes.get(node.ref("scope") or -1)
        if scope is not None and scope.kind in ("DICompositeType", "DINamespace"):
            owner = scope.fields.get("name")
            if owner:
                name = f"{owner}::{name}"
        return name

    def _resolve(self, node_id: int) -> SourceLocation | None:
        node = self._nodes.get(node_id)
        if node is None or node.kind != "DILocation":
            return None
        scope_id = node.ref("scope")
        file_name = ""
        function = ""
        seen = 0
        while scope_id is not None and seen < 1000:  # scope chains are short; guard cycles
            seen += 1
            scope = self._nodes.get(scope_id)
            if scope is None:
                break
            if not file_name:
                file_name = self._file_name(scope.ref("file"))
            if scope.kind == "DISubprogram":
                function = self.subprogram_name(scope_id) or ""
                break
            scope_id = scope.ref("scope")
        line = int(node.fields.get("line", "0") or 0)
        column = int(node.fields.get("column", "0") or 0)
        return SourceLocation(file_name, line, column, function)

    def _file_name(self, file_id: int | None) -> str:
        if file_id is None:
            return ""
        node = self._nodes.get(file_id)
        if node is None or node.kind != "DIFile":
            return ""
        if file_id not in self._files:
            name = node.fields.get("filename", "")
            directory = node.fields.get("directory", "")
            self._files[file_id] = _as_given(name, directory, self._source) if name else ""
        return self._files[file_id]


def _as_given(name: str, directory: str, unit: str) -> str:
    """The file clang calls `name` in `directory`, named the way `unit` was given."""
    path = os.path.normpath(os.path.join(directory, name))
    if not os.path.isabs(path):
        return name  # nothing to resolve it against (IR written by hand)
    if os.path.realpath(path) == os.path.realpath(unit):
        return unit
    if os.path.isabs(unit):
        return path
    here = os.getcwd()
    return path if os.path.commonpath([here, path]) == os.sep else os.path.relpath(path, here)
