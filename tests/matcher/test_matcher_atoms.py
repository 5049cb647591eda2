"""Every atom: candidate generation agrees exactly with the check, and hand-checked facts.

The invariant: for an atom and one of its variables, `candidates` is exactly the set of
domain values (function values and unused) for which some values of the atom's other
unbound variables make `holds` true. Checked by brute force on functions compiled from
C, on hand-written IR and on random IR.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from random_cases import random_ir
from solver_testkit import (
    C_BRANCHES,
    C_NESTED,
    C_REDUCTION,
    C_SCRATCH,
    LL_FIELDS,
    LL_ODD,
    LL_RECORDS,
    A,
    compiled_c,
    function_of,
    ir_function,
    named,
)

from idl.program import Atom, AtomKind
from matcher.atoms import AtomError, candidates, holds, is_pure_call, writes_errno_only
from matcher.ir import Function, Value

Domain = tuple[Value | None, ...]


def sample_functions() -> list[Function]:
    functions = [ir_function(LL_ODD), ir_function(LL_FIELDS), ir_function(LL_RECORDS)]
    functions += [function_of(compiled_c(src)) for src in (C_REDUCTION, C_BRANCHES, C_NESTED)]
    functions.append(function_of(compiled_c(C_SCRATCH), "sweep"))
    functions += [ir_function(random_ir(seed)) for seed in (11, 12, 13, 14)]
    return functions


def atoms_of_kind(kind: AtomKind) -> list[Atom]:
    arity = {1: "a", 2: "ab", 3: "abc"}
    if kind is AtomKind.OPCODE:
        return [A("opcode", "a", detail=op) for op in ("phi", "load", "gep", "br", "fadd")]
    if kind in (AtomKind.OPERAND, AtomKind.SUCCESSOR):
        return [A(kind.value, "a", "b", detail=k) for k in (0, 1, 2)]
    if kind is AtomKind.DATA_FLOW_WITHIN:
        return [A(kind.value, "a", "b", detail=k) for k in (1, 2, 6)]
    names = arity[_ARITY[kind]]
    return [A(kind.value, *names)]


_ARITY = {
    **dict.fromkeys(
        (
            AtomKind.SAME,
            AtomKind.NOT_SAME,
            AtomKind.DATA_FLOW,
            AtomKind.DATA_FLOW_WITHIN,
            AtomKind.OPERAND,
            AtomKind.CONTROL_FLOW,
            AtomKind.SUCCESSOR,
            AtomKind.SPANS_BLOCK,
            AtomKind.DOMINATES,
            AtomKind.STRICTLY_DOMINATES,
            AtomKind.POST_DOMINATES,
            AtomKind.STRICTLY_POST_DOMINATES,
            AtomKind.OUTSIDE_ELEMENT,
            AtomKind.NEVER_OVERLAPS,
            AtomKind.SAME_ADDRESS,
            AtomKind.STEP_BEHIND,
        ),
        2,
    ),
    AtomKind.REACHES_PHI: 3,
    AtomKind.CONTROL_FLOW_PASSES_THROUGH: 3,
    AtomKind.DATA_FLOW_PASSES_THROUGH: 3,
}
for _kind in AtomKind:
    _ARITY.setdefault(_kind, 1)


def bindings(
    domain: Domain, names: list[str], rng: random.Random, limit: int
) -> Iterator[dict[str, Value | None]]:
    """Every assignment of `names` over the domain, or `limit` random ones."""
    total = len(domain) ** len(names)
    if total <= limit:
        for combo in itertools.product(domain, repeat=len(names)):
            yield dict(zip(names, combo, strict=True))
        return
    for _ in range(limit):
        yield {n: rng.choice(domain) for n in names}


def brute_force(
    function: Function, atom: Atom, bound: dict[str, Value | None], var: str
) -> set[Value | None]:
    domain: Domain = (*function.values, None)
    free = [n for n in dict.fromkeys(atom.variables) if n != var and n not in bound]
    result = set()
    for value in domain:
        for combo in itertools.product(domain, repeat=len(free)):
            if holds(function, atom, {**bound, var: value, **dict(zip(free, combo, strict=True))}):
                result.add(value)
                break
    return result


@pytest.mark.parametrize("kind", list(AtomKind), ids=lambda k: k.value)
def test_candidates_are_exactly_the_values_that_pass(kind: AtomKind) -> None:
    rng = random.Random(kind.value)
    positives = 0
    functions = sample_functions()
    for function in functions:
        domain: Domain = (*function.values, None)
        for atom in atoms_of_kind(kind):
            names = list(dict.fromkeys(atom.variables))
            for var in names:
                others = [n for n in names if n != var]
                # Every other variable bound: candidates == values passing the check.
                for bound in bindings(domain, others, rng, 120):
                    generated = candidates(function, atom, bound, var)
                    assert len(generated) == len(set(generated)), "no repeats"
                    passing = {v for v in domain if holds(function, atom, {**bound, var: v})}
                    assert set(generated) == passing, (function.name, str(atom), bound)
                    positives += len(passing)
                # Some others unbound: candidates == the projection (brute force is
                # cubic for three variables: one function and fewer bindings there).
                if len(others) == 2 and function is not functions[0]:
                    continue
                for size in range(len(others)):
                    for subset in itertools.combinations(others, size):
                        for bound in bindings(domain, list(subset), rng, 6 // len(others)):
                            projection = set(candidates(function, atom, bound, var))
                            assert projection == brute_force(function, atom, bound, var)
    assert positives > 0, "the sample functions must make the atom true somewhere"


@pytest.mark.parametrize(
    "atom",
    [
        A("data_flow", "a", "a"),
        A("same", "a", "a"),
        A("not_same", "a", "a"),
        A("operand", "a", "a", detail=0),
        A("dominates", "a", "a"),
        A("reaches_phi", "a", "a", "t"),
        A("reaches_phi", "a", "p", "a"),
        A("cf_passes_through", "a", "b", "a"),
        A("df_passes_through", "a", "a", "c"),
    ],
    ids=str,
)
def test_candidates_with_a_repeated_variable(atom: Atom) -> None:
    function = ir_function(LL_ODD)
    domain: Domain = (*function.values, None)
    names = list(dict.fromkeys(atom.variables))
    others = names[1:]
    rng = random.Random(0)
    for bound in bindings(domain, others, rng, 8):
        assert set(candidates(function, atom, bound, "a")) == brute_force(
            function, atom, bound, "a"
        )
    assert set(candidates(function, atom, {}, "a")) == brute_force(function, atom, {}, "a")


def test_unused_rules() -> None:
    f = ir_function(LL_ODD)
    x = named(f, "%x")
    assert holds(f, A("unused", "a"), {"a": None}) and not holds(f, A("unused", "a"), {"a": x})
    assert holds(f, A("same", "a", "b"), {"a": None, "b": None})
    assert not holds(f, A("same", "a", "b"), {"a": None, "b": x})
    assert not holds(f, A("not_same", "a", "b"), {"a": None, "b": None})
    assert holds(f, A("not_same", "a", "b"), {"a": x, "b": None})
    assert not holds(f, A("instruction", "a"), {"a": None})
    assert not holds(f, A("data_flow", "a", "b"), {"a": None, "b": named(f, "%c")})
    assert candidates(f, A("same", "a", "b"), {"b": None}, "a") == (None,)
    assert None not in candidates(f, A("not_same", "a", "b"), {"b": None}, "a")


def test_value_kinds_and_zeros() -> None:
    f = ir_function(LL_ODD)
    zero_double = next(v for v in f.values if v.name == "double 0.000000e+00")
    zero_int = next(v for v in f.values if v.name == "i32 0")
    assert holds(f, A("float_zero", "a"), {"a": zero_double})
    assert not holds(f, A("integer_zero", "a"), {"a": zero_double})
    assert holds(f, A("integer_zero", "a"), {"a": zero_int})
    assert not holds(f, A("integer_zero", "a"), {"a": named(f, "i32 1")})
    sqrt = next(v for v in f.values if v.name == "@llvm.sqrt.f64")
    assert holds(f, A("preexecution", "a"), {"a": sqrt})
    assert not holds(f, A("constant", "a"), {"a": sqrt})
    assert holds(f, A("preexecution", "a"), {"a": named(f, "%p")})
    assert not holds(f, A("preexecution", "a"), {"a": named(f, "%g")})
    assert holds(f, A("opcode", "a", detail="gep"), {"a": named(f, "%g")})
    assert holds(f, A("opcode", "a", detail="branch"), {"a": f.blocks[0].terminator})


_LL_SIGNS = """
define i32 @signs(i32 %x, i64 %y, i8 %z, i1 %c) {
entry:
  %a = add i32 %x, -1
  %b = add i64 %y, -2
  %d = add i8 %z, -128
  %e = add i32 %x, 3
  %f = xor i1 %c, true
  %g = fadd double 1.0, -1.0
  ret i32 %a
}
"""


def test_signs_of_integer_constants() -> None:
    # read as signed numbers of their width, however the constant was read (a loop's
    # step of -1 counts down); neither sign for zero, a float or an instruction
    f = ir_function(_LL_SIGNS)
    for name in ("i32 -1", "i64 -2", "i8 -128"):
        assert holds(f, A("negative", "a"), {"a": named(f, name)}), name
        assert not holds(f, A("positive", "a"), {"a": named(f, name)}), name
    for name in ("i32 3", "i1 true"):
        assert holds(f, A("positive", "a"), {"a": named(f, name)}), name
        assert not holds(f, A("negative", "a"), {"a": named(f, name)}), name
    for name in ("double -1.000000e+00", "%a"):
        assert not holds(f, A("negative", "a"), {"a": named(f, name)}), name
        assert not holds(f, A("positive", "a"), {"a": named(f, name)}), name


def test_control_flow_atoms() -> None:
    f = ir_function(LL_ODD)
    entry, loop, other, exit2 = (f.blocks[i] for i in (0, 1, 2, 5))
    branch = entry.terminator
    assert holds(f, A("successor", "a", "b", detail=0), {"a": loop.first, "b": branch})
    assert holds(f, A("successor", "a", "b", detail=1), {"a": other.first, "b": branch})
    assert holds(f, A("successor", "a", "b", detail=2), {"a": exit2.first, "b": other.terminator})
    assert not holds(f, A("successor", "a", "b", detail=1), {"a": loop.first, "b": branch})
    assert holds(f, A("spans_block", "a", "b"), {"a": loop.first, "b": loop.terminator})
    assert holds(f, A("spans_block", "a", "b"), {"a": other.first, "b": other.first})
    assert not holds(
        f, A("spans_block", "a", "b"), {"a": loop.instructions[1], "b": loop.terminator}
    )
    assert holds(f, A("control_flow", "a", "b"), {"a": loop.terminator, "b": loop.first})
    assert not holds(f, A("control_flow", "a", "b"), {"a": named(f, "%p"), "b": entry.first})
    acc, acc1, r = named(f, "%acc"), named(f, "%acc1"), named(f, "%r")
    assert holds(f, A("reaches_phi", "a", "p", "t"), {"a": acc1, "p": acc, "t": loop.terminator})
    assert holds(
        f, A("reaches_phi", "a", "p", "t"), {"a": named(f, "%x"), "p": r, "t": other.terminator}
    )
    assert not holds(f, A("reaches_phi", "a", "p", "t"), {"a": acc1, "p": acc, "t": branch})
    assert set(candidates(f, A("reaches_phi", "a", "p", "t"), {"p": r}, "t")) == {
        loop.terminator,
        other.terminator,
    }


def test_dominance_atoms() -> None:
    f = ir_function(LL_ODD)
    entry, loop, exit_, exit2, dead = (f.blocks[i] for i in (0, 1, 4, 5, 6))
    assert holds(f, A("strictly_dominates", "a", "b"), {"a": entry.first, "b": exit_.first})
    assert not holds(f, A("dominates", "a", "b"), {"a": loop.first, "b": exit_.first})
    assert holds(f, A("post_dominates", "a", "b"), {"a": loop.terminator, "b": loop.first})
    # The unreachable block still reaches an exit: it is in the post-dominator tree.
    assert holds(f, A("strictly_post_dominates", "a", "b"), {"a": exit2.first, "b": dead.first})
    assert not holds(f, A("post_dominates", "a", "b"), {"a": exit_.first, "b": entry.first})
    assert not holds(f, A("dominates", "a", "b"), {"a": named(f, "%p"), "b": entry.first})
    # An unreachable instruction dominates itself and what follows it in its block only.
    assert set(candidates(f, A("dominates", "a", "b"), {"a": dead.first}, "b")) == set(
        dead.instructions
    )


def test_passes_through_atoms() -> None:
    f = ir_function(LL_ODD)
    entry, loop, exit_, dead = (f.blocks[i] for i in (0, 1, 4, 6))
    cf = A("cf_passes_through", "a", "b", "c")
    start, end = entry.first, exit_.terminator
    assert holds(f, cf, {"a": start, "b": end, "c": exit_.first})
    assert not holds(f, cf, {"a": start, "b": end, "c": loop.first})  # other -> exit avoids it
    assert holds(f, cf, {"a": start, "b": dead.first, "c": loop.first})  # unreachable
    assert not holds(f, cf, {"a": start, "b": start, "c": loop.first})  # the empty path
    assert holds(f, cf, {"a": start, "b": end, "c": start})
    must = set(candidates(f, cf, {"a": start, "b": end}, "c"))
    assert must == {*entry.instructions, *exit_.instructions}
    df = A("df_passes_through", "a", "b", "c")
    p, g, v, acc1 = named(f, "%p"), named(f, "%g"), named(f, "%v"), named(f, "%acc1")
    assert holds(f, df, {"a": p, "b": acc1, "c": v})
    assert not holds(f, df, {"a": named(f, "%x"), "b": named(f, "%s"), "c": acc1})
    assert set(candidates(f, df, {"a": p, "b": acc1}, "c")) == {p, g, v, acc1}


@pytest.mark.parametrize("function", sample_functions(), ids=lambda f: f.name)
def test_data_flow_within_is_a_chain_of_data_flow(function: Function) -> None:
    """`{a} has data flow to {b} within N steps` holds exactly where a chain of at most N
    `has data flow to` atoms leads from a to b (the form it replaces in the library)."""
    step = A("data_flow", "a", "b")
    chained: dict[Value, set[Value]] = {}
    for origin in function.values:
        reached, frontier = {origin}, {origin}
        for steps in range(1, 7):
            frontier = {
                user
                for value in frontier
                for user in function.values
                if holds(function, step, {"a": value, "b": user})
            } - reached
            reached |= frontier
            if steps in (1, 6):
                within = A("df_within", "a", "b", detail=steps)
                found = {
                    v for v in function.values if holds(function, within, {"a": origin, "b": v})
                }
                assert found == reached, (str(origin), steps)
        chained[origin] = reached
    assert any(len(reached) > 2 for reached in chained.values())


def test_data_flow_within_counts_steps() -> None:
    f = function_of(compiled_c(C_NESTED))
    i = next(v for v in f.instructions if v.opcode == "phi" and v.name.startswith("%i"))
    store = next(v for v in f.instructions if v.opcode == "store")
    address = store.operands[1]
    chain = [address]
    while chain[-1] is not i:  # back from y[i]'s address to the counter, operand by operand
        chain.append(next(o for o in chain[-1].operands if i in _sources(o) or o is i))
    steps = len(chain) - 1
    assert steps >= 1
    atom = A("df_within", "a", "b", detail=steps)
    assert holds(f, atom, {"a": i, "b": address})
    assert i in candidates(f, atom, {"b": address}, "a")
    assert address in candidates(f, atom, {"a": i}, "b")
    if steps > 1:
        shorter = A("df_within", "a", "b", detail=steps - 1)
        assert not holds(f, shorter, {"a": i, "b": address})
    assert not holds(f, atom, {"a": None, "b": address}), "false when a variable is unused"


def _sources(value: Value) -> set[Value]:
    seen, work = {value}, [value]
    while work:
        for operand in work.pop().operands:
            if operand not in seen:
                seen.add(operand)
                work.append(operand)
    return seen


def test_pure_calls() -> None:
    f = ir_function(LL_ODD)
    assert is_pure_call(named(f, "%s"))  # llvm.sqrt intrinsic
    assert is_pure_call(named(f, "%k"))  # cos, a known maths function
    sink = next(v for v in f.instructions if v.callee == "sink")
    assert not is_pure_call(sink)
    assert not is_pure_call(named(f, "%z"))
    reduction = function_of(compiled_c(C_REDUCTION))
    (sqrt,) = [v for v in reduction.instructions if v.opcode == "call"]
    assert holds(reduction, A("pure", "f"), {"f": sqrt})
    branches = function_of(compiled_c(C_BRANCHES))
    (report,) = [v for v in branches.instructions if v.opcode == "call"]
    assert not holds(branches, A("pure", "f"), {"f": report})


# A function of the file that calls expf writes errno only: as pure as expf, once the
# front end has declared what the C library's functions touch (inferattrs).
C_ERRNO_ONLY = """
#include <math.h>
__attribute__((noinline)) float weight(float x) { return x < 1e-6f ? 1.0f : expf(-x) / x; }
__attribute__((noinline)) void report(float x) { *(volatile float *)0 = x; }
float total(const float *x, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += weight(x[i]);
    report(s);
    return s;
}
"""


def test_a_call_thatwrites_errno_only_is_pure() -> None:
    module = compiled_c(C_ERRNO_ONLY)
    (total,) = [f for f in module.functions if f.name == "total"]
    calls = {v.callee: v for v in total.instructions if v.opcode == "call"}
    assert "memory(errnomem: write)" in calls["weight"].attributes  # one word, not split
    assert is_pure_call(calls["weight"]) and not is_pure_call(calls["report"])


@pytest.mark.parametrize(
    ("attribute", "pure"),
    [
        ("memory(errnomem: write)", True),
        ("memory(read, errnomem: write)", True),
        ("memory(argmem: read)", True),
        ("memory(argmem: readwrite, errnomem: write)", False),
        ("memory(write)", False),
        ("memory(readwrite, argmem: none)", False),
        ("memory(inaccessiblemem: write, errnomem: write)", False),
        ("memory(argmem: write)", False),
    ],
)
def test_memory_thatwrites_errno_only(attribute: str, pure: bool) -> None:
    assert writes_errno_only(attribute) is pure


def test_outside_the_element() -> None:
    # A field of a record is inside its element; the previous or next record, outside.
    function = ir_function(LL_FIELDS)
    v = {k: named(function, f"%{k}") for k in ("e", "f4", "prev", "next", "p", "pf", "pn")}
    assert [v[k].pointee_size for k in ("e", "p", "pf")] == [40, 24, 4]
    assert [v[k].byte_offset for k in ("e", "f4", "prev", "pf", "pn")] == [None, 32, -40, 16, 24]
    atom = A("outside_element", "a", "b")
    outside = {
        (a.name, b.name)
        for a in function.values
        for b in function.values
        if holds(function, atom, {"a": a, "b": b})
    }
    assert outside == {("%prev", "%e"), ("%next", "%e"), ("%pn", "%p")}


def test_records_in_a_flat_array() -> None:
    # A counter of step 4 over floats: the point is a record of 16 bytes, so %f1 (4 bytes
    # in) is a field and %up (160 bytes on) and %nb (16 bytes on) are other records.
    function = ir_function(LL_RECORDS)
    v = {k: named(function, f"%{k}") for k in ("p", "f1", "up", "q", "nb")}
    atom = A("outside_element", "a", "b")
    assert not holds(function, atom, {"a": v["f1"], "b": v["p"]})
    assert holds(function, atom, {"a": v["up"], "b": v["p"]})
    assert holds(function, atom, {"a": v["nb"], "b": v["q"]})


def test_what_accesses_touch() -> None:
    function = ir_function(LL_RECORDS)
    loads = [v for v in function.instructions if v.opcode == "load"]
    stores = [v for v in function.instructions if v.opcode == "store"]
    (far, field, again), (point, next_record, other_point) = loads, stores
    apart, alike = A("never_overlaps", "a", "b"), A("same_address", "a", "b")

    def rel(atom: Atom, a: Value, b: Value) -> bool:
        return holds(function, atom, {"a": a, "b": b})

    # The counter spans 36 floats (144 bytes): the record 160 bytes on is never written,
    # nor is field 1 of any record; field 0 is written and read by other iterations.
    assert rel(apart, far, point) and rel(apart, point, far)
    assert rel(apart, field, point)
    assert not rel(apart, point, point)
    assert not rel(apart, far, next_record)  # %g and %d may be one array: unknown
    # Each iteration writes %d's record and the next one: the next iteration overwrites.
    assert not rel(apart, next_record, other_point) and not rel(alike, next_record, other_point)
    assert rel(alike, again, other_point) and rel(alike, point, point)
    assert not rel(alike, far, point)


def test_malformed_atoms_are_reported() -> None:
    f = ir_function(LL_ODD)
    with pytest.raises(AtomError):
        holds(
            f,
            A("operand", "a", "b", detail="x"),
            {"a": None, "b": None} | {"a": f.values[0], "b": f.values[3]},
        )
    with pytest.raises(AtomError):
        holds(f, A("same", "a", "b"), {"a": None})
    with pytest.raises(AtomError):
        candidates(f, A("same", "a", "b"), {}, "c")


# Loads and stores one trip apart: a[i] read where a[i + 1] is stored (a scan in place),
# out[i - 1] read where out[i] is stored, a step of two, and two that are not one step
# behind: the element the next trip stores (c[j + 1]), the element stored (y[i]).
C_STEPS = """
void in_place(int *a, int n) { for (int i = 0; i < n - 1; i++) a[i + 1] += a[i]; }
void behind(const int *x, int *out, int n) {
    for (int i = 1; i < n; i++) out[i] = out[i - 1] + x[i - 1];
}
void by_two(long *a, long n) { for (long i = 0; i < n; i += 2) a[i + 2] += a[i]; }
void ahead(double *c, int n) { for (int j = 0; j + 1 < n; j++) c[j] = 0.5 * c[j] + c[j + 1]; }
void same(double *y, const double *x, int n) { for (int i = 0; i < n; i++) y[i] += x[i]; }
"""


@pytest.mark.parametrize(
    ("name", "behind"),
    [("in_place", True), ("behind", True), ("by_two", True), ("ahead", False), ("same", False)],
)
def test_one_step_behind(name: str, behind: bool) -> None:
    function = function_of(compiled_c(C_STEPS), name)
    loads = [v for v in function.instructions if v.opcode == "load"]
    (store,) = [v for v in function.instructions if v.opcode == "store"]
    atom = A("step_behind", "a", "b")
    found = [load for load in loads if holds(function, atom, {"a": load, "b": store})]
    assert bool(found) == behind
    assert not any(holds(function, atom, {"a": store, "b": load}) for load in loads)
    if behind:
        # The solver's candidates agree, from either side.
        assert set(candidates(function, atom, {"b": store}, "a")) == set(found)
        assert store in candidates(function, atom, {"a": found[0]}, "b")
        assert store in candidates(function, atom, {}, "b")
