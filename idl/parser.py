"""Text to AST: the Lark LALR parser, the transformer that builds `idl.ast`, and the
translation of every Lark error into an `IdlError` an idiom author can act on."""

from __future__ import annotations

import contextvars
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer_NonRecursive
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.tree import Meta, Tree

from idl import ast
from idl.atoms import VAR, AtomUnknown, classify
from idl.errors import IdlError, SourceSpan
from idl.printer import print_variable

__all__ = ["MAX_NESTING", "Source", "parse_file", "parse_text"]

# Deepest syntax tree accepted; a real specification nests a dozen levels or so.
MAX_NESTING = 150


@dataclass(frozen=True)
class Source:
    """The text of one file, kept to quote its lines in error messages."""

    filename: str
    text: str

    @functools.cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def span(self, line: int, column: int) -> SourceSpan:
        return SourceSpan(self.filename, line, column)

    def error(self, message: str, line: int, column: int) -> IdlError:
        return IdlError(message, self.span(line, column), self.line(line))


# The file being parsed, for the transformer's spans and messages.
_SOURCE: contextvars.ContextVar[Source] = contextvars.ContextVar("idl_source")


def _span(meta: Meta | Token) -> SourceSpan:
    source = _SOURCE.get()
    if isinstance(meta, Token):
        return source.span(meta.line or 1, meta.column or 1)
    if getattr(meta, "empty", True):
        return source.span(1, 1)
    return source.span(meta.line, meta.column)


class _Builder(Transformer_NonRecursive[Token, Any]):
    """Builds `idl.ast` nodes from Lark's tree, bottom-up (without recursion: deep
    nesting must not overflow Python's stack)."""

    def __default__(self, data: Any, children: list[Any], meta: Meta) -> Any:
        # Lark calls this for every rule: one dispatch, no per-call v_args wrapper.
        return getattr(self, f"build_{data}")(meta, children)

    def build_module(self, meta: Meta, children: list[ast.Specification]) -> tuple[Any, ...]:
        return tuple(children)

    def build_specification(self, meta: Meta, children: list[Any]) -> ast.Specification:
        exported = isinstance(children[0], Token) and children[0].type == "EXPORT"
        rest = children[1:] if exported else children
        name, formula, *defaults = rest
        flat = tuple(default for group in defaults for default in group)
        return ast.Specification(str(name), formula, flat, exported, _span(meta))

    def build_defaults(self, meta: Meta, children: list[Any]) -> list[ast.Default]:
        return [child for child in children if isinstance(child, ast.Default)]

    def build_default(self, meta: Meta, children: list[Token]) -> ast.Default:
        name, value = children
        return ast.Default(str(name), int(value), _span(name))

    def build_for_all(self, meta: Meta, children: list[Any]) -> ast.ForAll:
        body, index, start, stop, *rename = children
        return ast.ForAll(body, str(index), start, stop, _optional(rename), _span(index))

    def build_for_some(self, meta: Meta, children: list[Any]) -> ast.ForSome:
        body, index, start, stop, *rename = children
        return ast.ForSome(body, str(index), start, stop, _optional(rename), _span(index))

    def build_for_value(self, meta: Meta, children: list[Any]) -> ast.ForValue:
        body, index, value, *rename = children
        return ast.ForValue(body, str(index), value, _optional(rename), _span(index))

    def build_group(self, meta: Meta, children: list[Any]) -> ast.Formula:
        formulas = children[::2]
        connectives: list[Token] = children[1::2]
        if not connectives:
            return formulas[0]  # type: ignore[no-any-return]
        first = connectives[0]
        for token in connectives[1:]:
            if token.type != first.type:
                raise _SOURCE.get().error(
                    f"'{first.value}' and '{token.value}' mixed at one level: "
                    "put parentheses around the part joined by one of them",
                    token.line or 1,
                    token.column or 1,
                )
        node = ast.And if first.type == "AND" else ast.Or
        return node(tuple(formulas), _span(meta))

    def build_connective(self, meta: Meta, children: list[Token]) -> Token:
        return children[0]

    def build_inherits(self, meta: Meta, children: list[Any]) -> ast.Inherits:
        name, *rest = children
        arguments: tuple[ast.Argument, ...] = ()
        rename: ast.Rename | None = None
        for child in rest:
            if isinstance(child, ast.Rename):
                rename = child
            else:
                arguments = child
        return ast.Inherits(str(name), arguments, rename, _span(meta))

    def build_arguments(self, meta: Meta, children: list[Any]) -> tuple[ast.Argument, ...]:
        return tuple(child for child in children if child is not None)

    def build_argument(self, meta: Meta, children: list[Any]) -> ast.Argument:
        name, value = children
        return ast.Argument(str(name), value, _span(name))

    def build_if_(self, meta: Meta, children: list[Any]) -> ast.If:
        left, right, then_, else_ = children
        return ast.If(left, right, then_, else_, _span(meta))

    def build_collect(self, meta: Meta, children: list[Any]) -> ast.Collect:
        index, count, *keeping, body = children
        kept = keeping[0] if keeping and keeping[0] is not None else ()
        return ast.Collect(str(index), count, body, _span(meta), kept)

    def build_keeping(self, meta: Meta, children: list[Any]) -> tuple[ast.Variable, ...]:
        return tuple(children)

    def build_rename(self, meta: Meta, children: list[Any]) -> ast.Rename:
        pairs = tuple(child for child in children if isinstance(child, ast.RenamePair))
        prefixes = [child for child in children if isinstance(child, ast.Variable)]
        return ast.Rename(pairs, prefixes[0] if prefixes else None, _span(meta))

    def build_pair(self, meta: Meta, children: list[ast.Variable]) -> ast.RenamePair:
        caller, callee = children
        return ast.RenamePair(caller, callee, _span(meta))

    def build_prefix(self, meta: Meta, children: list[ast.Variable]) -> ast.Variable:
        return children[0]

    def build_phrase(self, meta: Meta, children: list[Any]) -> ast.Atom:
        words = [VAR if isinstance(child, ast.Variable) else str(child) for child in children]
        shown = [
            print_variable(child) if isinstance(child, ast.Variable) else str(child)
            for child in children
        ]
        try:
            kind, detail = classify(words, shown)
        except AtomUnknown as unknown:
            raise _SOURCE.get().error(unknown.message, meta.line, meta.column) from None
        variables = tuple(child for child in children if isinstance(child, ast.Variable))
        return ast.Atom(kind, variables, detail, _span(meta))

    def build_variable(self, meta: Meta, children: list[ast.Part]) -> ast.Variable:
        return ast.Variable(tuple(children), _span(meta))

    def build_part(self, meta: Meta, children: list[Any]) -> ast.Part:
        name, *indexes = children
        return ast.Part(str(name), tuple(indexes), _span(name))

    def build_index(self, meta: Meta, children: list[ast.Expr]) -> ast.Expr:
        return children[0]

    def build_binop(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        left, op, right = children
        return ast.BinOp("+" if op.value == "+" else "-", left, right, _span(op))

    def build_int_(self, meta: Meta, children: list[Token]) -> ast.Int:
        return ast.Int(int(children[0]), _span(children[0]))

    def build_name(self, meta: Meta, children: list[Token]) -> ast.Name:
        return ast.Name(str(children[0]), _span(children[0]))


def _optional(rename: list[ast.Rename]) -> ast.Rename | None:
    return rename[0] if rename else None


@functools.cache
def _parser() -> Lark:
    grammar = Path(__file__).with_name("idl.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        start="module",
        propagate_positions=True,
        maybe_placeholders=True,
    )


def parse_text(text: str, filename: str = "<string>") -> ast.Module:
    """Parse one IDL file's text; every mistake is raised as `IdlError`."""
    source = Source(filename, text)
    token = _SOURCE.set(source)
    try:
        tree = _parser().parse(text)
        _check_nesting(tree, source)
        specifications = _Builder().transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, IdlError):
            raise error.orig_exc from None
        raise IdlError(f"{filename}: internal error: {error.orig_exc}") from None
    except UnexpectedInput as error:
        raise _translate(error, source) from None
    except LarkError as error:
        raise IdlError(f"{filename}: {error}") from None
    except RecursionError:
        raise IdlError(f"{filename}: formula nested too deeply") from None
    finally:
        _SOURCE.reset(token)
    return ast.Module(filename, specifications, source.span(1, 1))


def _check_nesting(tree: Tree[Token], source: Source) -> None:
    """Refuse trees deeper than MAX_NESTING: everything after parsing walks them recursively."""
    heights: dict[int, int] = {}
    for subtree in tree.iter_subtrees():  # children come before their parents
        height = 1 + max(
            (heights[id(c)] for c in subtree.children if isinstance(c, Tree)), default=0
        )
        heights[id(subtree)] = height
        if height > MAX_NESTING:
            meta = subtree.meta
            line, column = (1, 1) if meta.empty else (meta.line, meta.column)
            raise source.error(f"nested too deeply (over {MAX_NESTING} levels)", line, column)


def parse_file(path: str | Path) -> ast.Module:
    """Parse one `.idl` file (read as UTF-8)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise IdlError(f"{path}: cannot read: {error}") from None
    return parse_text(text, str(path))


# Error messages --------------------------------------------------------------------

_WORDS: dict[str, str] = {
    "NAME": "a name",
    "INT": "an integer",
    "$END": "the end of the file",
    "DEFAULT_FOR": "'for'",
    "WITH_AND": "'and'",
    "AND": "'and'",
    "OR": "'or'",
    "EXPORT": "'Export'",
    "PLUS": "'+'",
    "MINUS": "'-'",
}
# Terminals that only refine another one and need not be listed to an author.
_SILENT = frozenset({"LOGIC_WORD", "WITH_AND", "DEFAULT_FOR", "COMMENT", "WS"})


def _describe(terminal: str) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    return f"'{pattern.value}'" if pattern.type == "str" else terminal


def _expected(names: set[str] | frozenset[str] | None) -> str:
    if not names:
        return ""
    shown = sorted({_describe(name) for name in names if name not in _SILENT})
    if not shown:
        shown = sorted({_describe(name) for name in names})
    text = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return f"; expected {text}"


def _end_position(source: Source) -> tuple[int, int]:
    lines = source.text.split("\n")
    return len(lines), len(lines[-1]) + 1


def _translate(error: UnexpectedInput, source: Source) -> IdlError:
    match error:
        case UnexpectedToken(token=token) if token.type == "$END":
            line, column = _end_position(source)
            accepts = error.accepts or error.expected
            hint = " (is 'End' missing?)" if "END" in accepts else ""
            return source.error(f"unexpected end of file{_expected(accepts)}{hint}", line, column)
        case UnexpectedToken(token=token):
            expected = _expected(error.accepts or error.expected)
            hint = _hint(token, error.accepts or error.expected)
            line, column = token.line or 1, token.column or 1
            return source.error(f"unexpected '{token.value}'{expected}{hint}", line, column)
        case UnexpectedCharacters(char=char):
            expected = _expected(error.allowed)
            line, column = error.line, error.column
            return source.error(f"unexpected character {char!r}{expected}", line, column)
        case UnexpectedEOF():
            line, column = _end_position(source)
            return source.error(
                f"unexpected end of file{_expected(set(error.expected))}", line, column
            )
    return source.error(f"syntax error: {error}", max(error.line, 1), max(error.column, 1))


def _hint(token: Token, expected: set[str]) -> str:
    if token.type == "NAME" and "END" in expected and token.value.lower() == "end":
        return " (keywords are case-sensitive: 'End')"
    if token.value in {"and", "or"}:
        return " ('and'/'or' join formulas inside parentheses: '( F and G )')"
    return ""
