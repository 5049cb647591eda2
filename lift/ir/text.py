"""The text form of expressions: S-expressions a person can read, diff and write.

    (lambda ((x (array f64 N)) (y (array f64 N)))
      (map (lambda (p) (+ (* 2.0:f64 (get 0 p)) (get 1 p))) (zip x y)))

An application is `(HEAD STATIC... FUNCTIONS... DATA...)`: `(split 4 xs)`,
`(map-global 0 F xs)`, `(reduce F 0.0:f64 xs)` (the initial value is a parameter of
the pattern, as in Lift); the same form without its data
arguments is a function (`(to-local (map-local 0 F))`). Literals carry their type
(`1.5:f64`, `-inf:f32`, `3:i64`, `true:bool`); lambda parameters may declare one
(`(lambda ((x f64) y) ...)`). Sizes are integers, names, or `(+ a b)`, `(- a b)`,
`(* a b)`, `(/ a 4)`. `parse(show(e)) == e` for every expression.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.types import Array, Scalar, Size, Tuple, Type, Vector, scalar

__all__ = ["parse", "parse_type", "pretty", "show", "size_text", "type_text"]


# ---------------------------------------------------------------- printing


def size_text(size: Size) -> str:
    if (value := size.constant) is not None:
        return str(value)
    terms, constant = [], 0
    for monomial, coefficient in size.terms:
        if not monomial and coefficient.denominator == 1:
            constant = int(coefficient)  # written last, subtracted where negative
            continue
        factors = list(monomial)
        if coefficient.numerator != 1 or not factors:
            factors.insert(0, str(coefficient.numerator))
        term = factors[0] if len(factors) == 1 else f"(* {' '.join(factors)})"
        if coefficient.denominator != 1:
            term = f"(/ {term} {coefficient.denominator})"
        terms.append(term)
    if constant < 0:
        return f"(- {terms[0] if len(terms) == 1 else '(+ ' + ' '.join(terms) + ')'} {-constant})"
    if constant > 0:
        terms.append(str(constant))
    return terms[0] if len(terms) == 1 else f"(+ {' '.join(terms)})"


def type_text(kind: Type) -> str:
    match kind:
        case Scalar(name):
            return name
        case Vector(element, width):
            return f"(vec {element.name} {width})"
        case Tuple(elements):
            return f"(tuple {' '.join(type_text(e) for e in elements)})"
        case Array(element, length):
            return f"(array {type_text(element)} {size_text(length)})"
    raise AssertionError(kind)


def _literal_text(literal: ir.Literal) -> str:
    value = literal.value
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = "nan" if math.isnan(value) else repr(value)
    else:
        text = str(value)
    return f"{text}:{literal.type.name}"


def _pattern_parts(fun: ir.Pattern) -> tuple[str, list[str]]:
    """The head and static/function parts of a pattern's application."""
    name = _NAMES[type(fun)]
    match fun:
        case ir.Split(size):
            return name, [size_text(size)]
        case ir.Slide(size, step):
            return name, [str(size), str(step)]
        case ir.Pad(left, right, boundary):
            edge = "clamp" if boundary is None else show(boundary)
            return name, [str(left), size_text(right), edge]
        case ir.Get(index):
            return name, [str(index)]
        case ir.Segment(length) | ir.Range(length):
            return name, [length]
        case ir.Indices(dim, lengths):
            return name, [str(dim), "(" + " ".join(size_text(n) for n in lengths) + ")"]
        case ir.SplitVec(width):
            return name, [str(width)]
        case ir.Iterate(count, f):
            return name, [str(count), _fun_text(f)]
        case ir.Scatter(f, length, init):
            return name, [_fun_text(f), size_text(length), show(init)]
        case ir.Reduce(f, init) | ir.ReduceSeq(f, init) | ir.Scan(f, init) | ir.ScanSeq(f, init):
            return name, [_fun_text(f), show(init)]
        case ir.ReduceLanes(lanes, f, init, combine):
            return name, [str(lanes), _fun_text(f), show(init), _fun_text(combine)]
        case ir.MapLanes(dim, lanes, f):
            return name, [str(dim), str(lanes), _fun_text(f)]
        case ir.Strided(offset, strides, lengths):
            return name, [
                size_text(offset),
                "(" + " ".join(size_text(s) for s in strides) + ")",
                "(" + " ".join(size_text(n) for n in lengths) + ")",
            ]
        case (
            ir.MapGlobal(dim, f) | ir.MapWorkgroup(dim, f) | ir.MapLocal(dim, f)
            | ir.ScatterAtomic(dim, f)
        ):  # fmt: skip
            return name, [str(dim), _fun_text(f)]
        case ir.ScanWorkgroups(dim, f, init, load, prepare, total, each):
            functions = [_fun_text(g) for g in (load, prepare, total, each)]
            return name, [str(dim), _fun_text(f), show(init), *functions]
        case ir.ScatterAtomicLocal(dim, capacity, f):
            return name, [str(dim), str(capacity), _fun_text(f)]
        case ir.MapStream(dim, carries, f):
            pairs = "(" + " ".join(f"({k} {j})" for k, j in carries) + ")"
            return name, [str(dim), pairs, _fun_text(f)]
    held: ir.Fun | None = getattr(fun, "f", None)
    return name, [] if held is None else [_fun_text(held)]


def _fun_text(fun: ir.Fun) -> str:
    match fun:
        case ir.Lambda():
            return show(fun)
        case ir.Op(name):
            return name
    head, parts = _pattern_parts(fun)
    return f"({' '.join([head, *parts])})"


def _param_text(param: ir.Param) -> str:
    return param.name if param.type is None else f"({param.name} {type_text(param.type)})"


def show(expression: ir.Expr) -> str:
    """The expression on one line."""
    match expression:
        case ir.Param(name):
            return name
        case ir.Literal():
            return _literal_text(expression)
        case ir.Lambda(params, body):
            return f"(lambda ({' '.join(_param_text(p) for p in params)}) {show(body)})"
        case ir.Apply(fun, args):
            parts: list[str] = []
            if isinstance(fun, ir.Lambda):
                head = show(fun)
            elif isinstance(fun, ir.Op):
                head = fun.name
            else:
                head, parts = _pattern_parts(fun)
            return f"({' '.join([head, *parts, *(show(a) for a in args)])})"
    raise AssertionError(expression)


def pretty(expression: ir.Expr, width: int = 88) -> str:
    """The expression over several lines, each form on one line where it fits."""
    return "\n".join(_pretty_lines(show(expression), width))


def _pretty_lines(text: str, width: int, indent: int = 0) -> list[str]:
    if indent + len(text) <= width or not text.startswith("("):
        return [" " * indent + text]
    items = _split_items(text[1:-1])
    # Keep the head with its short static parts: `(map-global 0`, `(lambda (x y)`.
    head = [items.pop(0)]
    if head[0] == "lambda":
        head.append(items.pop(0))
    while items and len(items) > 1 and not items[0].startswith("(lambda") and len(items[0]) < 24:
        head.append(items.pop(0))
    lines = [" " * indent + "(" + " ".join(head)]
    for item in items:
        lines += _pretty_lines(item, width, indent + 2)
    lines[-1] += ")"
    return lines


def _split_items(text: str) -> list[str]:
    items, depth, start = [], 0, None
    for position, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if char != " " and start is None:
            start = position
        if start is not None and depth == 0 and (char == " " or position == len(text) - 1):
            end = position if char == " " else position + 1
            items.append(text[start:end])
            start = None
    return items


# ---------------------------------------------------------------- parsing


@dataclass(frozen=True)
class _Atom:
    text: str
    at: int


class _Form(list["_Node"]):
    """A parenthesised form, with where its '(' is."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.at = at


_Node = _Atom | _Form
_TOKEN = re.compile(r"\s*(?:(\()|(\))|([^\s()]+))")


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, message: str, at: int) -> LiftError:
        line = self.source.count("\n", 0, at) + 1
        start = self.source.rfind("\n", 0, at) + 1
        end = self.source.find("\n", at)
        text = self.source[start : end if end >= 0 else len(self.source)]
        caret = " " * (at - start) + "^"
        return LiftError(f"{line}:{at - start + 1}: {message}\n  {text}\n  {caret}")

    def read(self) -> _Node:
        nodes, position = self._node(0)
        rest = self.source[position:].strip()
        if rest:
            raise self.error("text after the expression", self.source.index(rest, position))
        return nodes

    def _node(self, position: int) -> tuple[_Node, int]:
        match = _TOKEN.match(self.source, position)
        if match is None or (match.end() == position and not match.group(0)):
            raise self.error("expected an expression", position)
        if match.group(1):
            items = _Form(match.start(1))
            position = match.end()
            while True:
                close = _TOKEN.match(self.source, position)
                if close is None or not close.group(0).strip():
                    raise self.error("'(' never closed", match.start(1))
                if close.group(2):
                    return items, close.end()
                item, position = self._node(position)
                items.append(item)
        if match.group(2):
            raise self.error("unexpected ')'", match.start(2))
        return _Atom(match.group(3), match.start(3)), match.end()


def _at(node: _Node) -> int:
    """Where to point at `node`: its first atom (the head of a form), or an empty
    form's '('."""
    while isinstance(node, _Form) and node:
        node = node[0]
    return node.at


class _Parser:
    def __init__(self, reader: _Reader) -> None:
        self.reader = reader

    def fail(self, message: str, node: _Node) -> LiftError:
        return self.reader.error(message, _at(node))

    def atom(self, node: _Node, what: str) -> str:
        if not isinstance(node, _Atom):
            raise self.fail(f"expected {what}", node)
        return node.text

    def integer(self, node: _Node, what: str) -> int:
        text = self.atom(node, what)
        try:
            return int(text)
        except ValueError:
            raise self.fail(f"expected {what}, an integer", node) from None

    def size(self, node: _Node) -> Size:
        if isinstance(node, _Atom):
            if re.fullmatch(r"-?\d+", node.text):
                return Size.of(int(node.text))
            if re.fullmatch(r"[A-Za-z_]\w*", node.text):
                return Size.of(node.text)
            raise self.fail(f"{node.text!r} is not a size", node)
        if len(node) < 3:
            raise self.fail("a size is a name, an integer or (op a b)", node)
        op = self.atom(node[0], "a size operator")
        parts = [self.size(n) for n in node[1:]]
        if op == "/":
            divisor = parts[1].constant
            if divisor is None or len(parts) != 2:
                raise self.fail("a size is divided by an integer", node)
            return parts[0].divide(divisor)
        result = parts[0]
        for part in parts[1:]:
            if op == "+":
                result = result + part
            elif op == "-":
                result = result - part
            elif op == "*":
                result = result * part
            else:
                raise self.fail(f"no size operator {op!r}", node)
        return result

    def type(self, node: _Node) -> Type:
        if isinstance(node, _Atom):
            try:
                return scalar(node.text)
            except LiftError as error:
                raise self.fail(str(error), node) from None
        head = self.atom(node[0], "a type") if node else ""
        if head == "array" and len(node) == 3:
            return Array(self.type(node[1]), self.size(node[2]))
        if head == "tuple" and len(node) >= 2:
            return Tuple(tuple(self.type(n) for n in node[1:]))
        if head == "vec" and len(node) == 3:
            element = self.type(node[1])
            if not isinstance(element, Scalar):
                raise self.fail("a vector holds scalars", node[1])
            return Vector(element, self.integer(node[2], "a vector width"))
        raise self.fail("expected a type: f64, (array T n), (tuple T...), (vec T w)", node)

    def literal(self, node: _Atom) -> ir.Literal:
        text, _, kind_text = node.text.rpartition(":")
        kind = self.type(_Atom(kind_text, node.at + len(text) + 1))
        assert isinstance(kind, Scalar)
        try:
            if kind.name == "bool":
                if text not in ("true", "false"):
                    raise ValueError(text)
                return ir.Literal(text == "true", kind)
            if kind.name in ("i32", "i64"):
                return ir.Literal(int(text), kind)
            return ir.Literal(float(text), kind)
        except ValueError:
            raise self.fail(f"{text!r} is not a {kind.name} literal", node) from None

    def expression(self, node: _Node, scope: dict[str, ir.Param]) -> ir.Expr:
        if isinstance(node, _Atom):
            if ":" in node.text:
                return self.literal(node)
            if node.text not in scope:
                raise self.fail(f"{node.text!r} is not defined here", node)
            return scope[node.text]
        if not node:
            raise self.fail("an empty form", node)
        head = node[0]
        if isinstance(head, _Atom) and head.text == "lambda":
            return self.lambda_(node, scope)
        fun, rest = self.function_head(node, scope)
        args = tuple(self.expression(n, scope) for n in rest)
        arity = _data_arity(fun)
        if arity is not None and len(args) not in (0, arity):
            name = head.text if isinstance(head, _Atom) else "lambda"
            raise self.fail(f"{name} takes {arity} data argument(s), not {len(args)}", node)
        if not args and arity != 0:
            raise self.fail("a function where a value is expected", node)
        return ir.Apply(fun, args)

    def lambda_(self, node: _Form, scope: dict[str, ir.Param]) -> ir.Lambda:
        if len(node) != 3 or not isinstance(node[1], list):
            raise self.fail("(lambda (PARAMS...) BODY)", node)
        params = []
        for item in node[1]:
            if isinstance(item, _Atom):
                params.append(ir.Param(item.text))
            elif len(item) == 2:
                params.append(ir.Param(self.atom(item[0], "a name"), self.type(item[1])))
            else:
                raise self.fail("a parameter is NAME or (NAME TYPE)", item)
        inner = dict(scope) | {p.name: p for p in params}
        return ir.Lambda(tuple(params), self.expression(node[2], inner))

    def function(self, node: _Node, scope: dict[str, ir.Param]) -> ir.Fun:
        """A function argument: a lambda, an operator name, or a pattern form without
        its data arguments."""
        if isinstance(node, _Atom):
            if node.text in ir.OPS:
                return ir.Op(node.text)
            raise self.fail(f"expected a function, not {node.text!r}", node)
        if node and isinstance(node[0], _Atom) and node[0].text == "lambda":
            return self.lambda_(node, scope)
        fun, rest = self.function_head(node, scope)
        if rest:
            raise self.fail("expected a function, not a value", node)
        return fun

    def function_head(self, node: _Form, scope: dict[str, ir.Param]) -> tuple[ir.Fun, list[_Node]]:
        """The function an application applies, and the nodes of its data arguments."""
        if not node:
            raise self.fail("an empty form", node)
        head = node[0]
        if isinstance(head, list):
            return self.function(head, scope), node[1:]
        name = head.text
        if name in ir.OPS:
            return ir.Op(name), node[1:]
        if name not in _BUILDERS:
            raise self.fail(f"no pattern or operator {name!r}", head)
        statics, build = _BUILDERS[name]
        if len(node) - 1 < len(statics):
            raise self.fail(f"{name} needs {len(statics)} parameter(s)", node)
        values = [self.static(kind, n, scope) for kind, n in zip(statics, node[1:], strict=False)]
        return build(*values), node[1 + len(statics) :]

    def static(self, kind: str, node: _Node, scope: dict[str, ir.Param]) -> object:
        if kind == "int":
            return self.integer(node, "an integer")
        if kind == "size":
            return self.size(node)
        if kind == "sizes":
            if not isinstance(node, list):
                raise self.fail("expected a list of sizes", node)
            return tuple(self.size(n) for n in node)
        if kind == "edge":
            if isinstance(node, _Atom) and node.text == "clamp":
                return None
            if isinstance(node, _Atom) and ":" in node.text:
                return self.literal(node)
            if isinstance(node, _Form) and node and _is_atom(node[0], "tuple"):
                return self.expression(node, scope)
            raise self.fail("a pad's edge is clamp, a literal or a tuple of literals", node)
        if kind == "value":
            return self.expression(node, scope)
        if kind == "name":
            return self.atom(node, "a size's name")
        if kind == "pairs":
            return self.pairs(node)
        return self.function(node, scope)

    def pairs(self, node: _Node) -> tuple[tuple[int, int], ...]:
        """((k j) ...): pairs of lane numbers."""
        if not isinstance(node, list) or any(
            not isinstance(pair, list) or len(pair) != 2 for pair in node
        ):
            raise self.fail("expected pairs of lanes: ((k j) ...)", node)
        return tuple(
            (self.integer(pair[0], "a lane"), self.integer(pair[1], "a lane"))
            for pair in node
            if isinstance(pair, list)
        )


def _is_atom(node: _Node, text: str) -> bool:
    return isinstance(node, _Atom) and node.text == text


def _data_arity(fun: ir.Fun) -> int | None:
    match fun:
        case ir.Op(name):
            arity = ir.OPS[name]
            return None if arity < 0 else arity
        case ir.Lambda(params):
            return len(params)
        case ir.Zip():
            return None
        case ir.Gather() | ir.Scatter():
            return 2
        case ir.Segment() | ir.Permute():
            return 3
        case ir.Range():
            return 2
        case ir.Indices():
            return 0
        case ir.ScatterAtomic() | ir.ScatterAtomicLocal():
            return 3
    return 1


_BUILDERS: dict[str, tuple[tuple[str, ...], type]] = {
    "map": (("fun",), ir.Map),
    "reduce": (("fun", "value"), ir.Reduce),
    "zip": ((), ir.Zip),
    "split": (("size",), ir.Split),
    "join": ((), ir.Join),
    "slide": (("int", "int"), ir.Slide),
    "pad": (("int", "size", "edge"), ir.Pad),
    "transpose": ((), ir.Transpose),
    "gather": ((), ir.Gather),
    "permute": ((), ir.Permute),
    "segment": (("name",), ir.Segment),
    "range": (("name",), ir.Range),
    "indices": (("int", "sizes"), ir.Indices),
    "scatter": (("fun", "size", "value"), ir.Scatter),
    "scatter-atomic": (("int", "fun"), ir.ScatterAtomic),
    "scatter-atomic-local": (("int", "int", "fun"), ir.ScatterAtomicLocal),
    "iterate": (("int", "fun"), ir.Iterate),
    "scan": (("fun", "value"), ir.Scan),
    "scan-inclusive": (("fun", "value"), ir.InclusiveScan),
    "get": (("int",), ir.Get),
    "strided": (("size", "sizes", "sizes"), ir.Strided),
    "map-global": (("int", "fun"), ir.MapGlobal),
    "map-workgroup": (("int", "fun"), ir.MapWorkgroup),
    "map-local": (("int", "fun"), ir.MapLocal),
    "map-lanes": (("int", "int", "fun"), ir.MapLanes),
    "scan-workgroups": (("int", "fun", "value", "fun", "fun", "fun", "fun"), ir.ScanWorkgroups),
    "map-seq": (("fun",), ir.MapSeq),
    "map-stream": (("int", "pairs", "fun"), ir.MapStream),
    "reduce-seq": (("fun", "value"), ir.ReduceSeq),
    "reduce-lanes": (("int", "fun", "value", "fun"), ir.ReduceLanes),
    "scan-seq": (("fun", "value"), ir.ScanSeq),
    "scan-seq-inclusive": (("fun", "value"), ir.InclusiveScanSeq),
    "to-local": (("fun",), ir.ToLocal),
    "to-global": (("fun",), ir.ToGlobal),
    "to-private": (("fun",), ir.ToPrivate),
    "map-vec": (("fun",), ir.MapVec),
    "split-vec": (("int",), ir.SplitVec),
    "join-vec": ((), ir.JoinVec),
}
_NAMES = {build: name for name, (_, build) in _BUILDERS.items()}


def parse(source: str) -> ir.Expr:
    """The expression of `source`; a LiftError with line, column and caret otherwise."""
    reader = _Reader(source)
    return _Parser(reader).expression(reader.read(), {})


def parse_type(source: str) -> Type:
    reader = _Reader(source)
    return _Parser(reader).type(reader.read())
