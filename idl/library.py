"""A set of specifications loaded from one or more `.idl` files, compiled on demand."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from idl import ast
from idl.compiler import Expander
from idl.errors import IdlError, SourceSpan
from idl.files import DEFAULT_FOLDER, idl_files
from idl.formulas import unanchored_through_points
from idl.parser import Source, parse_text
from idl.program import Formula, Program, formula_variables
from idl.scopes import inherited_names

__all__ = ["DEFAULT_FOLDER", "Library", "default_library", "idl_files", "read_sources"]


def read_sources(paths: Iterable[str | Path]) -> dict[str, str]:
    """filename -> text for every `.idl` file under `paths`, each file once."""
    texts: dict[str, str] = {}
    seen: set[Path] = set()
    for path in idl_files(paths):
        if path.resolve() in seen:
            continue
        seen.add(path.resolve())
        try:
            texts[str(path)] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise IdlError(f"{path}: cannot read: {error}") from None
    return texts


@dataclass(frozen=True)
class _Loaded:
    specifications: dict[str, ast.Specification]
    sources: dict[str, Source]
    errors: list[IdlError]


def _load(texts: Mapping[str, str]) -> _Loaded:
    """Parse every file; a file that does not parse or a duplicate name is an error."""
    specifications: dict[str, ast.Specification] = {}
    sources = {name: Source(name, text) for name, text in texts.items()}
    errors: list[IdlError] = []
    for filename, text in texts.items():
        try:
            module = parse_text(text, filename)
        except IdlError as error:
            errors.append(error)
            continue
        for spec in module.specifications:
            first = specifications.get(spec.name)
            if first is None:
                specifications[spec.name] = spec
                continue
            line = sources[filename].line(spec.span.line) if spec.span else ""
            errors.append(
                IdlError(
                    f"duplicate specification '{spec.name}' (first defined at {first.span})",
                    spec.span,
                    line,
                )
            )
    return _Loaded(specifications, sources, errors)


class Library:
    """Specifications from several files; names are global across them."""

    def __init__(
        self, specifications: Mapping[str, ast.Specification], sources: Mapping[str, Source]
    ):
        self._specifications = dict(specifications)
        self._sources = dict(sources)
        self._expander = Expander(self._specifications, self._line_of)
        self._programs: dict[tuple[str, tuple[tuple[str, int], ...]], Program] = {}

    @classmethod
    def from_texts(cls, texts: Mapping[str, str]) -> Library:
        """A library from filename -> text; the first mistake is raised as `IdlError`."""
        loaded = _load(texts)
        if loaded.errors:
            raise loaded.errors[0]
        return cls(loaded.specifications, loaded.sources)

    @classmethod
    def from_paths(cls, paths: Iterable[str | Path]) -> Library:
        """A library from `.idl` files and directories of them."""
        return cls.from_texts(read_sources(paths))

    @classmethod
    def checked(cls, texts: Mapping[str, str]) -> tuple[Library, list[IdlError]]:
        """A library of whatever loads, and every mistake found: parse, names, compilation."""
        loaded = _load(texts)
        library = cls(loaded.specifications, loaded.sources)
        return library, loaded.errors + library.check()

    def _line_of(self, span: SourceSpan) -> str:
        source = self._sources.get(span.file)
        return source.line(span.line) if source is not None else ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._specifications)

    @property
    def exported_names(self) -> tuple[str, ...]:
        return tuple(name for name, spec in self._specifications.items() if spec.exported)

    def specification(self, name: str) -> ast.Specification:
        try:
            return self._specifications[name]
        except KeyError:
            raise IdlError(f"unknown specification '{name}'") from None

    def parameters(self, name: str) -> frozenset[str]:
        """The parameter names a specification accepts."""
        self.specification(name)
        return self._expander.parameters(name)

    def compile(self, name: str, parameters: Mapping[str, int] | None = None) -> Program:
        """The constraint program of `name`; `parameters` override its defaults."""
        spec = self.specification(name)
        given = dict(parameters or {})
        unknown = sorted(set(given) - self.parameters(name))
        if unknown:
            known = ", ".join(sorted(self.parameters(name))) or "none"
            raise IdlError(
                f"specification '{name}' has no parameter '{unknown[0]}' (its parameters: {known})"
            )
        key = (name, tuple(sorted(given.items())))
        if key not in self._programs:
            try:
                formula = self._expander.specification(name, given, None)
            except RecursionError:
                raise IdlError(
                    f"'{name}' is nested too deeply to expand", spec.span, self._line_of_spec(spec)
                ) from None
            if spec.exported:
                self._check_through_points(spec, formula)
            self._programs[key] = Program(
                name, spec.exported, formula, formula_variables(formula), spec.span
            )
        return self._programs[key]

    def _check_through_points(self, spec: ast.Specification, formula: Formula) -> None:
        """A variable that only names the point all flow passes through is satisfied by
        any value the flow avoids: the search would try every one (it is a renaming
        forgotten, e.g. a `NoDataFlow` inherited `at` a prefix without its {precursor})."""
        free = unanchored_through_points(formula)
        if free:
            raise IdlError(
                f"in '{spec.name}', {{{free[0]}}} is constrained only as the point that all "
                "flow passes through, so any instruction the flow avoids satisfies it; "
                "rename it to a bound variable (e.g. the region's {precursor})",
                spec.span,
                self._line_of_spec(spec),
            )

    def _line_of_spec(self, spec: ast.Specification) -> str:
        return self._line_of(spec.span) if spec.span is not None else ""

    def exported_programs(self) -> list[Program]:
        """Every exported specification compiled with its defaults."""
        return [self.compile(name) for name in self.exported_names]

    def check(self) -> list[IdlError]:
        """Every mistake found by compiling each specification (once, all branches named)."""
        errors: dict[str, IdlError] = {}
        inherited: set[str] = set()
        for spec in self._specifications.values():
            for node in inherited_names(spec):
                inherited.add(node.name)
                try:
                    self._expander.check_name(node)
                except IdlError as error:
                    errors.setdefault(str(error), error)
        # A building block whose parameters only callers set is checked through them.
        roots = [n for n in self.names if n not in inherited or self._all_defaulted(n)]
        for name in roots:
            if name not in self._expander.visited:
                self._check_one(name, errors)
        # What no caller reached (an `if` branch not taken) is compiled on its own, unless
        # a caller failed first: its building blocks would only repeat that error.
        for name in self.names if not errors else ():
            if name not in self._expander.visited:
                self._check_one(name, errors)
        return list(errors.values())

    def _check_one(self, name: str, errors: dict[str, IdlError]) -> None:
        try:
            self.compile(name)
        except IdlError as error:
            errors.setdefault(str(error), error)

    def _all_defaulted(self, name: str) -> bool:
        spec = self._specifications[name]
        return self.parameters(name) <= {d.name for d in spec.defaults}


@functools.cache
def default_library() -> Library:
    """The idioms shipped with the tool: `idl/idioms/*.idl`."""
    return Library.from_paths([DEFAULT_FOLDER])
