"""Text forms: an AST printed back as IDL (parse(print(ast)) == ast), and a stable,
readable listing of a compiled `Program` (what `idiom idl show` prints)."""

from __future__ import annotations

from idl import ast
from idl.atoms import VAR, atom_words
from idl.program import Atom, AtomKind, Collect, Conjunction, Disjunction, Formula, Program

__all__ = [
    "count_alternatives",
    "print_expr",
    "print_formula",
    "print_module",
    "print_specification",
    "print_variable",
    "program_counts",
    "program_text",
]

# A group is written on one line when it fits in this many columns.
_WIDTH = 88


# IDL text from the AST ---------------------------------------------------------------


def print_expr(expr: ast.Expr) -> str:
    match expr:
        case ast.Int(value=value):
            return str(value)
        case ast.Name(name=name):
            return name
        case ast.BinOp(op=op, left=left, right=right):
            # `+` and `-` associate to the left: only a compound right side needs parentheses.
            text = print_expr(right)
            return f"{print_expr(left)}{op}{f'({text})' if isinstance(right, ast.BinOp) else text}"


def print_variable(variable: ast.Variable) -> str:
    parts = (
        part.name + "".join(f"[{print_expr(i)}]" for i in part.indexes) for part in variable.parts
    )
    return "{" + ".".join(parts) + "}"


def _atom_text(kind: AtomKind, detail: str | int | None, names: list[str]) -> str:
    names_left = iter(names)
    return " ".join(next(names_left) if word == VAR else word for word in atom_words(kind, detail))


def _rename(rename: ast.Rename | None) -> str:
    if rename is None:
        return ""
    pairs = " and ".join(
        f"{print_variable(pair.caller)} as {print_variable(pair.callee)}" for pair in rename.pairs
    )
    text = f" with {pairs}" if pairs else ""
    if rename.prefix is not None:
        text += f" at {print_variable(rename.prefix)}"
    return text


def _postfix(formula: ast.Formula) -> str:
    match formula:
        case ast.ForAll(index=index, start=start, stop=stop, rename=rename):
            return f"for all {index}={print_expr(start)}..{print_expr(stop)}{_rename(rename)}"
        case ast.ForSome(index=index, start=start, stop=stop, rename=rename):
            return f"for some {index}={print_expr(start)}..{print_expr(stop)}{_rename(rename)}"
        case ast.ForValue(index=index, value=value, rename=rename):
            return f"for {index}={print_expr(value)}{_rename(rename)}"
    raise TypeError(f"not a postfix formula: {formula!r}")


def _lines(formula: ast.Formula, grouped: bool = False) -> list[str]:
    """The formula as lines, the first unindented, the others relative to it; `grouped`
    when it is one part of an `and`/`or`."""
    match formula:
        case ast.Atom(kind=kind, detail=detail, variables=variables):
            return [_atom_text(kind, detail, [print_variable(v) for v in variables])]
        case ast.And(parts=parts) | ast.Or(parts=parts):
            word = "and" if isinstance(formula, ast.And) else "or"
            return _group([_lines(part, grouped=True) for part in parts], word)
        case ast.Inherits(name=name, arguments=arguments, rename=rename):
            args = ", ".join(f"{a.name}={print_expr(a.value)}" for a in arguments)
            return [f"inherits {name}{f'({args})' if args else ''}{_rename(rename)}"]
        case ast.ForAll(body=body) | ast.ForSome(body=body) | ast.ForValue(body=body):
            lines = _lines(body)
            lines = (
                [f"{lines[0]} {_postfix(formula)}"]
                if len(lines) == 1
                else [*lines, _postfix(formula)]
            )
            # Inside `( ... and ... )` the suffix only binds to its own part: make that visible.
            return _group([lines], "and") if grouped else lines
        case ast.If(left=left, right=right, then_=then_, else_=else_):
            head = f"if {print_expr(left)}={print_expr(right)} then"
            then_lines, else_lines = _lines(then_), _lines(else_)
            if len(then_lines) == 1 and len(else_lines) == 1:
                one = f"{head} {then_lines[0]} else {else_lines[0]} endif"
                if len(one) <= _WIDTH:
                    return [one]
            return [head, *_indent(then_lines), "else", *_indent(else_lines), "endif"]
        case ast.Collect(index=index, count=count, body=body, keeping=keeping):
            lines = _lines(body)
            if isinstance(body, (ast.ForAll, ast.ForSome, ast.ForValue)):
                lines = _group([lines], "and")  # the body must be a primary: `( ... )`
            head = f"collect {index} {print_expr(count)}"
            if keeping:
                head += " keeping " + ", ".join(print_variable(v) for v in keeping)
            if len(lines) == 1:
                return [f"{head} {lines[0]}"]
            return [head, *_indent(lines)]


def _indent(lines: list[str], by: str = "  ") -> list[str]:
    return [by + line for line in lines]


def _group(parts: list[list[str]], word: str) -> list[str]:
    if all(len(lines) == 1 for lines in parts):
        one = "( " + f" {word} ".join(lines[0] for lines in parts) + " )"
        if len(one) <= _WIDTH:
            return [one]
    out: list[str] = []
    for number, part in enumerate(parts):
        lines = [*part[:-1], part[-1] + (f" {word}" if number < len(parts) - 1 else " )")]
        lead = "( " if number == 0 else "  "
        out.extend([lead + lines[0], *_indent(lines[1:])])
    return out


def print_formula(formula: ast.Formula) -> str:
    return "\n".join(_lines(formula))


def print_specification(spec: ast.Specification) -> str:
    head = ("Export " if spec.exported else "") + f"Constraint {spec.name}"
    lines = [head, *_indent(_lines(spec.formula))]
    lines += [f"for {d.name}={d.value} if not otherwise specified" for d in spec.defaults]
    return "\n".join([*lines, "End"])


def print_module(module: ast.Module) -> str:
    return "".join(print_specification(spec) + "\n\n" for spec in module.specifications)


# Compiled programs -------------------------------------------------------------------


def count_alternatives(formula: Formula) -> int:
    """How many conjunctions of atoms the formula is, written as an `or` of them."""
    match formula:
        case Atom() | Collect():
            return 1
        case Conjunction(parts=parts):
            total = 1
            for part in parts:
                total *= count_alternatives(part)
            return total
        case Disjunction(parts=parts):
            return sum(count_alternatives(part) for part in parts)


def program_counts(program: Program) -> dict[str, int]:
    counts = {"variables": len(program.variables), "atoms": 0, "and": 0, "or": 0, "collect": 0}

    def visit(node: Formula) -> None:
        match node:
            case Atom():
                counts["atoms"] += 1
            case Conjunction(parts=parts) | Disjunction(parts=parts):
                counts["and" if isinstance(node, Conjunction) else "or"] += 1
                for part in parts:
                    visit(part)
            case Collect(body=body):
                counts["collect"] += 1
                visit(body)

    visit(program.formula)
    counts["alternatives"] = count_alternatives(program.formula)
    return counts


def _formula_lines(formula: Formula) -> list[str]:
    match formula:
        case Atom(kind=kind, detail=detail, variables=variables):
            return [_atom_text(kind, detail, ["{" + v + "}" for v in variables])]
        case Conjunction(parts=parts) | Disjunction(parts=parts):
            word = "and" if isinstance(formula, Conjunction) else "or"
            lines = [f"{word} ({len(parts)})"]
            for part in parts:
                lines += _indent(_formula_lines(part))
            return lines
        case Collect(slots=slots, body=body, slot_variables=slot_variables, local=local):
            lines = [f"collect {slots} slots"]
            for number, names in enumerate(slot_variables):
                lines.append(f"  slot {number}: " + ", ".join("{" + n + "}" for n in names))
            if local:
                lines.append("  local: " + ", ".join("{" + n + "}" for n in local))
            return [*lines, "  body", *_indent(_formula_lines(body), "    ")]


def program_text(program: Program) -> str:
    """A stable listing of a compiled program: header, counts, variables, formula."""
    counts = program_counts(program)
    where = f" ({program.span})" if program.span is not None else ""
    lines = [f"{'Export ' if program.exported else ''}Constraint {program.name}{where}"]
    lines.append("counts: " + ", ".join(f"{key} {value}" for key, value in counts.items()))
    lines.append(f"variables ({len(program.variables)}):")
    lines += _indent(
        [", ".join(program.variables[i : i + 6]) for i in range(0, len(program.variables), 6)]
    )
    lines.append("formula:")
    lines += _indent(_formula_lines(program.formula))
    return "\n".join(lines)
