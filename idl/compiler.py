"""AST to constraint program: inheritance, ranges, `if` and `collect` expanded once.

The expander evaluates every index expression, so the result is a flat formula of
atoms over fully indexed variable names (`read[2].value`), as `idl.program` describes.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from idl import ast
from idl.atoms import normalise_opcode
from idl.errors import IdlError, SourceSpan
from idl.formulas import ShapeMismatch, atom_count, join, rename_formula, slot_mapping
from idl.program import (
    Atom,
    AtomKind,
    Collect,
    Conjunction,
    Disjunction,
    Formula,
    formula_variables,
)
from idl.scopes import free_names, iteration_names
from idl.slots import index_in_names_only, predicted_slots

__all__ = ["MAX_ATOMS", "MAX_DEPTH", "MAX_RANGE", "Expander"]

# Limits that turn a runaway expansion into an error instead of a hang.
MAX_DEPTH = 32  # nested `inherits` of one specification by itself
MAX_RANGE = 100_000  # iterations of one range or slots of one collect
MAX_ATOMS = 2_000_000  # atoms built while compiling one program

_Key = tuple[str, tuple[tuple[str, int], ...]]


@dataclass(frozen=True)
class _Scope:
    spec: ast.Specification
    values: Mapping[str, int]

    def bind(self, name: str, value: int) -> _Scope:
        return _Scope(self.spec, {**self.values, name: value})


@dataclass
class _Frame:
    key: _Key
    site: SourceSpan | None


def _show_key(key: _Key) -> str:
    name, values = key
    return name + (f"({', '.join(f'{p}={v}' for p, v in values)})" if values else "")


@dataclass
class Expander:
    """Expands specifications of one library; remembers each (spec, parameters) body."""

    specifications: Mapping[str, ast.Specification]
    line_of: Callable[[SourceSpan], str]
    _cache: dict[_Key, Formula] = field(default_factory=dict)
    _stack: list[_Frame] = field(default_factory=list)
    _parameters: dict[str, frozenset[str]] = field(default_factory=dict)
    _atoms: int = 0
    # Every specification an expansion has entered (even one that failed): checked.
    visited: set[str] = field(default_factory=set)

    def error(self, message: str, span: SourceSpan | None) -> IdlError:
        return IdlError(message, span, self.line_of(span) if span is not None else "")

    def parameters(self, name: str) -> frozenset[str]:
        """The parameters of a specification: those with a default and those it uses."""
        if name not in self._parameters:
            spec = self.specifications[name]
            self._parameters[name] = frozenset(d.name for d in spec.defaults) | free_names(spec)
        return self._parameters[name]

    # Specifications ------------------------------------------------------------------

    def specification(
        self, name: str, given: Mapping[str, int], site: SourceSpan | None
    ) -> Formula:
        """The expanded body of `name` with parameters `given` (defaults fill the rest)."""
        if not self._stack:
            self._atoms = 0
        spec = self.specifications[name]
        values = {d.name: d.value for d in spec.defaults} | dict(given)
        key: _Key = (name, tuple(sorted(values.items())))
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        self.visited.add(name)
        self._check_recursion(key, site)
        self._stack.append(_Frame(key, site))
        try:
            formula = self.formula(spec.formula, _Scope(spec, values))
        finally:
            self._stack.pop()
        self._cache[key] = formula
        return formula

    def _check_recursion(self, key: _Key, site: SourceSpan | None) -> None:
        keys = [frame.key for frame in self._stack]
        if key in keys:
            start = keys.index(key)
            chain = " -> ".join(_show_key(k) for k in [*keys[start:], key])
            raise self.error(
                f"recursion does not terminate: {chain} inherits itself with the same parameters",
                self._start_site(start, site),
            )
        names = [k[0] for k in keys]
        if names.count(key[0]) >= MAX_DEPTH:
            start = names.index(key[0])
            shown = [_show_key(k) for k in keys[start : start + 3]]
            raise self.error(
                f"recursion does not terminate: '{key[0]}' still inherits itself after "
                f"{MAX_DEPTH} levels ({' -> '.join(shown)} -> ...); does a parameter move "
                "towards the case an `if` stops at?",
                self._start_site(start, site),
            )

    def _start_site(self, start: int, site: SourceSpan | None) -> SourceSpan | None:
        """The `inherits` that entered the cycle: the first one inside its first member."""
        return self._stack[start + 1].site if start + 1 < len(self._stack) else site

    # Formulas ------------------------------------------------------------------------

    def formula(self, node: ast.Formula, scope: _Scope) -> Formula:
        match node:
            case ast.Atom():
                return self._atom(node, scope)
            case ast.And(parts=parts):
                return join(Conjunction, [self.formula(part, scope) for part in parts])
            case ast.Or(parts=parts):
                return join(Disjunction, [self.formula(part, scope) for part in parts])
            case ast.Inherits():
                return self._inherits(node, scope)
            case ast.ForAll(body=body, rename=rename):
                alls = [self._iteration(body, rename, s) for s in self._range(node, scope)]
                return join(Conjunction, alls) if alls else Conjunction(())
            case ast.ForSome(body=body, rename=rename):
                somes = [self._iteration(body, rename, s) for s in self._range(node, scope)]
                return join(Disjunction, somes) if somes else Disjunction(())
            case ast.ForValue(body=body, index=index, value=value, rename=rename):
                return self._iteration(body, rename, scope.bind(index, self.evaluate(value, scope)))
            case ast.If(left=left, right=right, then_=then_, else_=else_):
                same = self.evaluate(left, scope) == self.evaluate(right, scope)
                return self.formula(then_ if same else else_, scope)
            case ast.Collect():
                return self._collect(node, scope)

    def _count(self, atoms: int, span: SourceSpan | None) -> None:
        self._atoms += atoms
        if self._atoms > MAX_ATOMS:
            raise self.error(f"expansion too large: more than {MAX_ATOMS} atoms", span)

    def _atom(self, node: ast.Atom, scope: _Scope) -> Atom:
        self._count(1, node.span)
        names = tuple(self.variable(v, scope) for v in node.variables)
        detail = node.detail
        if node.kind is AtomKind.OPCODE and isinstance(detail, str):
            detail = normalise_opcode(detail)
        return Atom(node.kind, names, detail, node.span)

    def _range(self, node: ast.ForAll | ast.ForSome, scope: _Scope) -> Iterator[_Scope]:
        start, stop = self.evaluate(node.start, scope), self.evaluate(node.stop, scope)
        if stop - start > MAX_RANGE:
            raise self.error(f"range {start}..{stop} too large (over {MAX_RANGE})", node.span)
        for value in range(start, stop):
            yield scope.bind(node.index, value)

    def _iteration(self, body: ast.Formula, rename: ast.Rename | None, scope: _Scope) -> Formula:
        return self.rename(self.formula(body, scope), rename, scope, "the formula before 'for'")

    def check_name(self, node: ast.Inherits) -> None:
        """Raise unless the inherited specification exists."""
        if node.name not in self.specifications:
            close = difflib.get_close_matches(node.name, list(self.specifications), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise self.error(f"unknown specification '{node.name}'{hint}", node.span)

    def _inherits(self, node: ast.Inherits, scope: _Scope) -> Formula:
        self.check_name(node)
        accepted = self.parameters(node.name)
        given: dict[str, int] = {}
        for argument in node.arguments:
            if argument.name in given:
                raise self.error(f"parameter '{argument.name}' given twice", argument.span)
            if argument.name not in accepted:
                known = ", ".join(sorted(accepted)) or "none"
                raise self.error(
                    f"specification '{node.name}' has no parameter '{argument.name}' "
                    f"(its parameters: {known})",
                    argument.span,
                )
            given[argument.name] = self.evaluate(argument.value, scope)
        body = self.specification(node.name, given, node.span)
        return self.rename(body, node.rename, scope, f"specification '{node.name}'")

    def _collect(self, node: ast.Collect, scope: _Scope) -> Collect:
        """`collect i n F`: F for slot 0, and which of its names change with the slot."""
        slots = self.evaluate(node.count, scope)
        if not 1 <= slots <= MAX_RANGE:
            raise self.error(f"collect needs 1 to {MAX_RANGE} slots, not {slots}", node.span)
        first, mappings = self._slot_mappings(node, slots, scope)
        names = formula_variables(first)
        inner = [name for name in names if any(m[name] != name for m in mappings)]
        if not inner:
            raise self.error(f"the body of this collect does not use '{node.index}'", node.span)
        outer = set(names) - set(inner)
        for number, mapping in enumerate(mappings[:slots]):
            clash = outer.intersection(mapping[name] for name in inner)
            if clash:
                raise self.error(
                    f"collect over '{node.index}': {{{min(clash)}}} is both a variable of "
                    f"slot {number} and a variable fixed outside the collect",
                    node.span,
                )
        kept = self._kept(node, inner, scope)
        slot_variables = tuple(tuple(m[name] for name in kept) for m in mappings[:slots])
        local = tuple(name for name in inner if name not in kept)
        return Collect(slots, first, slot_variables, node.span, local)

    def _slot_mappings(
        self, node: ast.Collect, slots: int, scope: _Scope
    ) -> tuple[Formula, list[dict[str, str]]]:
        """Slot 0's body, and for each slot (at least two: with one, nothing would tell
        which names follow the index) the names its body gives slot 0's. Where the
        index only indexes names, slots 0 and 1 are expanded and the others' names
        predicted from them (`idl.slots`), each counted as large as slot 1."""
        predictable = slots > 2 and index_in_names_only(node.body, node.index)
        first = self.formula(node.body, scope.bind(node.index, 0))
        atoms_before = self._atoms
        second = self.formula(node.body, scope.bind(node.index, 1))
        to_second = self._slot_mapping(node, first, second, 1)
        # Slot 0's own mapping: every name of its body, unchanged (the keys of slot 1's).
        mappings = [{name: name for name in to_second}, to_second]
        predicted = predicted_slots(mappings[1], slots) if predictable else None
        if predicted is not None:
            self._count((self._atoms - atoms_before) * (slots - 2), node.span)
            return first, mappings + predicted
        for number in range(2, slots):
            body = self.formula(node.body, scope.bind(node.index, number))
            mappings.append(self._slot_mapping(node, first, body, number))
        return first, mappings

    def _slot_mapping(
        self, node: ast.Collect, first: Formula, body: Formula, number: int
    ) -> dict[str, str]:
        mapping: dict[str, str] = {}
        try:
            slot_mapping(first, body, mapping)
        except ShapeMismatch as mismatch:
            raise self.error(
                f"collect over '{node.index}': in slot {number}, {mismatch} "
                f"(an `if` or a range of its body depends on '{node.index}'?)",
                node.span,
            ) from None
        return mapping

    def _kept(self, node: ast.Collect, inner: list[str], scope: _Scope) -> list[str]:
        """The slot variables of `collect i n keeping {v[i]}, ...` (as slot 0 names them);
        without `keeping`, every variable of the body that changes with `i`."""
        if not node.keeping:
            return inner
        kept: list[str] = []
        for variable in node.keeping:
            name = self.variable(variable, scope.bind(node.index, 0))
            if name not in inner:
                raise self.error(
                    f"collect over '{node.index}' keeps {{{name}}}, which is not a variable "
                    f"of its body that changes with '{node.index}'",
                    variable.span,
                )
            if name not in kept:
                kept.append(name)
        return kept

    # Names ---------------------------------------------------------------------------

    def evaluate(self, expr: ast.Expr, scope: _Scope) -> int:
        match expr:
            case ast.Int(value=value):
                return value
            case ast.Name(name=name):
                if name in scope.values:
                    return scope.values[name]
                raise self._unbound(expr, scope)
            case ast.BinOp(op=op, left=left, right=right):
                a, b = self.evaluate(left, scope), self.evaluate(right, scope)
                return a + b if op == "+" else a - b

    def _unbound(self, expr: ast.Name, scope: _Scope) -> IdlError:
        spec = scope.spec.name
        if expr.name in iteration_names(scope.spec):
            return self.error(
                f"index '{expr.name}' does not reduce to an integer: it is not bound here "
                f"(it is the index of a `for` or `collect` elsewhere in '{spec}')",
                expr.span,
            )
        site = self._stack[-1].site if self._stack else None
        where = f"inherited at {site}" if site is not None else "compiled"
        return self.error(
            f"parameter '{expr.name}' of '{spec}' has no value ('{spec}' is {where} without "
            f"it): set it where '{spec}' is inherited ({spec}({expr.name}=...)) or give it a "
            f"default (for {expr.name}=... if not otherwise specified)",
            expr.span,
        )

    def variable(self, variable: ast.Variable, scope: _Scope) -> str:
        parts: list[str] = []
        for part in variable.parts:
            indexes = [self.evaluate(index, scope) for index in part.indexes]
            if any(index < 0 for index in indexes):
                shown = ", ".join(map(str, indexes))
                raise self.error(
                    f"index of '{part.name}' reduces to {shown}: below 0", variable.span
                )
            parts.append(part.name + "".join(f"[{index}]" for index in indexes))
        return ".".join(parts)

    def rename(
        self, formula: Formula, rename: ast.Rename | None, scope: _Scope, what: str
    ) -> Formula:
        """Apply `with {x} as {y} ... at {p}` to an expanded formula."""
        if rename is None:
            return formula
        pairs: dict[str, str] = {}
        names = formula_variables(formula, local=True)
        for pair in rename.pairs:
            callee = self.variable(pair.callee, scope)
            if callee in pairs:
                raise self.error(f"{{{callee}}} is renamed twice", pair.span)
            if not any(_under(name, callee) for name in names):
                raise self.error(
                    f"'with' names {{{callee}}}, a variable that {what} does not have",
                    pair.callee.span,
                )
            pairs[callee] = self.variable(pair.caller, scope)
        prefix = self.variable(rename.prefix, scope) if rename.prefix is not None else None
        self._count(atom_count(formula), rename.span)  # renaming copies every atom
        mapping = {name: _renamed(name, pairs, prefix) for name in names}
        return rename_formula(formula, mapping)


def _under(name: str, root: str) -> bool:
    """Whether variable `name` is `root` or one of its components (`root.x`, `root[1]`)."""
    return name == root or name.startswith((root + ".", root + "["))


def _renamed(name: str, pairs: Mapping[str, str], prefix: str | None) -> str:
    matches = [callee for callee in pairs if _under(name, callee)]
    if matches:
        callee = max(matches, key=len)  # the most specific renaming wins
        return pairs[callee] + name[len(callee) :]
    return f"{prefix}.{name}" if prefix is not None else name
