"""Replacing matched regions by guarded runtime calls, with the original as fallback.

For each instance, largest regions first (an idiom nested in a replaced one goes with
it), the idiom's mapper checks legality and yields a `Plan`; the rewriter lays out the
guard, call, done and fallback blocks (see mappers/plan/plan.py), sends the preheader to the
guard, the fallback to the original header, and gives the exit block's phis their
values on the new path. LLVM's verifier (opt-22, in its own process) checks the
rewritten module; if it rejects it, the replacements are made again one by one, each
verified, and the ones it rejects are undone and reported, never kept.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mappers.plan.plan import GeneratedKernel, Mapper, MapperContext, Plan
from mappers.plan.region import Region, region_of
from mappers.plan.rounding import differently_rounded_calls
from mappers.rewrite.emit import Builder, Cloner, NotReplaced
from mappers.rewrite.irtext import ModuleText, Operand, block_ref, operand, operand_name, verify
from mappers.rewrite.outline import Outlined, outline
from mappers.targets.blas import map_gemm, map_gemv
from mappers.targets.ger import map_ger
from mappers.targets.histogram import map_histogram
from mappers.targets.jds import map_spmv_jds
from mappers.targets.reduction import map_reduction
from mappers.targets.scan import map_scan
from mappers.targets.sparse import map_spmv_csr, map_spmv_ell
from mappers.targets.stencil import map_map, map_stencil
from mappers.targets.symm import map_symm
from mappers.targets.syrk import map_syr2k, map_syrk
from mappers.targets.trmm import map_trmm
from mappers.targets.trsv import map_trsv
from matcher.detect import Instance, specificity
from matcher.ir import Block, Function, Module, Value

__all__ = ["MAPPERS", "Outcome", "Rewritten", "rewrite_module"]

MAPPERS: dict[str, Mapper] = {
    "GEMM": map_gemm,
    "GEMV": map_gemv,
    "SYRK": map_syrk,
    "SYR2K": map_syr2k,
    "TRMM": map_trmm,
    "SYMM": map_symm,
    "TRSV": map_trsv,
    "GER": map_ger,
    "Reduction": map_reduction,
    "Stencil": map_stencil,
    "Map": map_map,
    "Histogram": map_histogram,
    "Scan": map_scan,
    "SpMV_CSR": map_spmv_csr,
    "SpMV_JDS": map_spmv_jds,
    "SpMV_ELL": map_spmv_ell,
    "SpMV_COO": map_histogram,  # a histogram of the entries' products
}


@dataclass(frozen=True)
class Outcome:
    """What happened to one instance: replaced by `target`, or not, and why."""

    instance: Instance
    replaced: bool
    detail: str  # the target when replaced, the reason otherwise
    generated: GeneratedKernel | None = None  # the kernel the Lift compiler generated
    internal_error: bool = False  # not replaced because of a fault of this tool


@dataclass(frozen=True)
class Rewritten:
    text: str
    outcomes: tuple[Outcome, ...]

    @property
    def replaced(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.replaced)


def rewrite_module(
    module: Module, instances: Sequence[Instance], *, reassociate: bool = True
) -> Rewritten:
    # The verifier costs a process start: run it once on the whole result, and only when
    # that fails, again after every replacement to find and undo the faulty ones.
    rewritten = _rewrite(module, instances, reassociate=reassociate, verify_each=False)
    if verify(rewritten.text) is None:
        return rewritten
    return _rewrite(module, instances, reassociate=reassociate, verify_each=True)


def _rewrite(
    module: Module, instances: Sequence[Instance], *, reassociate: bool, verify_each: bool
) -> Rewritten:
    text = ModuleText(module)
    functions = {function.name: function for function in module}
    claimed: list[tuple[frozenset[Block], Instance]] = []
    outcomes: list[Outcome] = []
    # Largest regions first; of two on one loop, the more specific (SpMV_COO before the
    # Histogram it also is), the other trying only where that one is not replaced.
    ordered = sorted(
        instances, key=lambda i: (_region_size(functions, i), specificity(i)), reverse=True
    )
    for number, instance in enumerate(ordered):
        function = functions[instance.ir_function]
        state = None  # the text before the mapper ran: nothing before it edits the text
        try:
            region = region_of(function, instance.solution)
            for blocks, owner in claimed:
                if blocks & region.blocks:
                    raise NotReplaced(f"inside {owner.idiom} at line {owner.lines}, replaced")
            mapper = MAPPERS.get(instance.idiom)
            if mapper is None:
                raise NotReplaced(f"no mapper for {instance.idiom} yet")
            rounding = _device_rounding(region, reassociate)
            state = text.snapshot()
            plan = mapper(instance, MapperContext(region, text, reassociate))
            _apply(text, region, plan, f"idiom{number}")
            problem = verify(text.text()) if verify_each else None
            if problem:
                raise NotReplaced(f"internal error, LLVM rejected the rewrite: {problem}")
        except NotReplaced as reason:
            if state is not None:
                text.restore(state)
            internal = str(reason).startswith("internal error")
            outcomes.append(Outcome(instance, False, str(reason), internal_error=internal))
            continue
        except Exception as error:  # one faulty mapper must not stop the build
            # A bug in a mapper leaves this loop as compiled, the others still replaced,
            # and says so: the program stays correct, the bug visible.
            if state is not None:
                text.restore(state)
            detail = _internal_error(instance, error)
            outcomes.append(Outcome(instance, False, detail, internal_error=True))
            continue
        claimed.append((region.blocks, instance))
        outcomes.append(Outcome(instance, True, plan.target + rounding, plan.generated))
    outcomes.sort(key=lambda o: (o.instance.first_line or 0, o.instance.idiom))
    return Rewritten(text.text(), tuple(outcomes))


def _device_rounding(region: Region, reassociate: bool) -> str:
    """What the report adds where the region calls math functions that a device may round
    differently from the C library (mappers/plan/rounding.py); NotReplaced where every
    floating-point result must stay the original's to the bit."""
    calls = ", ".join(differently_rounded_calls(region.blocks))
    if not calls:
        return ""
    if not reassociate:
        raise NotReplaced(
            f"a device's {calls} may round differently from the C library's (reassociation off)"
        )
    return f" ({calls} as the device computes it, within OpenCL's error bounds)"


def _internal_error(instance: Instance, error: Exception) -> str:
    """The reason given for a loop left as compiled because its mapper failed."""
    where = traceback.extract_tb(error.__traceback__)[-1]
    origin = f"{Path(where.filename).name}:{where.lineno}"
    return (
        f"internal error in the {instance.idiom} mapper ({type(error).__name__} at {origin}:"
        f" {error}); the loop is left as compiled, please report it"
    )


def _region_size(functions: dict[str, Function], instance: Instance) -> int:
    function = functions[instance.ir_function]
    begin = instance.solution.get("begin")
    if begin is None:
        return 0
    loop = next((lp for lp in function.loops.loops if lp.header is begin.block), None)
    return len(loop.blocks) if loop else 0


def _apply(text: ModuleText, region: Region, plan: Plan, prefix: str) -> None:
    """The guard, the call and the results go to a function of their own
    (mappers/rewrite/outline.py); the region's preheader now calls it and branches once, to the
    exit or the loop."""
    guard, call, done, fallback = (
        f"{prefix}.{part}" for part in ("guard", "call", "done", "fallback")
    )
    builder = Builder(prefix)
    builder.label(guard)
    ok = plan.guard(builder)
    builder.branch_if(ok, call, fallback)
    builder.label(call)
    status = plan.call(builder)
    finished = builder.compare("eq", status, Operand("i32", "0"))
    builder.branch_if(finished, done, fallback)
    builder.label(done)
    results = plan.done(builder)
    results |= _recomputed(builder, region, results)
    outcome_type = "{ " + ", ".join(["i1", *(r.type for r in results.values())]) + " }"
    packed = Operand(outcome_type, "poison")
    for index, result in enumerate([Operand("i1", "true"), *results.values()]):
        packed = builder.emit(outcome_type, f"insertvalue {packed}, {result}, {index}")
    builder.statement(f"ret {packed}")
    builder.label(fallback)
    builder.statement(f"ret {outcome_type} zeroinitializer")
    name = f"{region.function.name}.{prefix}"
    callee = operand_name("@", name)
    outlined = _outline_guard(text, region, builder, name, outcome_type)

    caller = Builder(prefix)
    caller.label(guard)
    outcome = caller.emit(outcome_type, outlined.call(outcome_type, callee), "outcome")
    ran = caller.emit("i1", f"extractvalue {outcome}, 0", "ran")
    values = {
        value: caller.emit(result.type, f"extractvalue {outcome}, {index}", "result")
        for index, (value, result) in enumerate(results.items(), start=1)
    }
    caller.branch_if(ran, done, fallback)
    caller.label(done)
    caller.branch(region.exit)
    caller.label(fallback)
    caller.branch(region.header)
    exit_lines = _exit_phis(text, region, values, done)
    # Every edit is known to be possible before the first is made.
    _retarget(text, region.precursor, region.header, guard)
    for phi in (i for i in region.header.instructions if i.opcode == "phi"):
        _rename_incoming(text, phi, region.preheader, fallback)
    for phi, line in exit_lines:
        text.replace(phi, line)
    text.append_blocks(region.function, caller.lines)


def _outline_guard(
    text: ModuleText, region: Region, builder: Builder, name: str, outcome_type: str
) -> Outlined:
    """The guard, call and results of `builder` as the function `name`. Its first test
    (enough work to launch?) declines most calls of a small inner loop: it stays alone in
    `name`, which then calls the rest (`name.rest`), so a declined call costs a few
    instructions (a large function saves six registers and sets up a frame first)."""
    lines, first = builder.lines, builder.first_test
    callee, rest_name = operand_name("@", name), operand_name("@", f"{name}.rest")
    fallback = lines[-2:]  # `{prefix}.fallback:` and its `ret`
    if first is None:
        outlined = outline(text, region.function, callee, outcome_type, lines)
        text.add_definition(outlined.definition)
        return outlined
    split = lines.index(f"{first}:")
    rest = outline(
        text, region.function, rest_name, outcome_type, lines[split:], new_values=builder.types
    )
    head_lines = [
        *lines[:split],
        f"{first}:",
        f"  %{first}.outcome = {rest.call(outcome_type, rest_name)}",
        f"  ret {outcome_type} %{first}.outcome",
        *fallback,
    ]
    head = outline(text, region.function, callee, outcome_type, head_lines)
    text.add_definition(head.definition)
    text.add_definition(rest.definition)
    return head


def _recomputed(
    builder: Builder, region: Region, results: dict[Value, Operand]
) -> dict[Value, Operand]:
    """The values that leave the region besides the idiom's results and that are the
    same in every iteration (`recomputable`; check_legal let them leave only then),
    computed again after the kernel from the fixed values the guard loaded."""
    cloner = Cloner(builder, region.blocks, {}, affine=False)
    return {
        value: cloner.value(value)
        for phi in region.exit_phis()
        for value, _ in phi.incoming[:1]
        if value not in results and value.block in region.blocks
    }


def _exit_phis(
    text: ModuleText, region: Region, results: dict[Value, Operand], done: str
) -> list[tuple[Value, str]]:
    edits = []
    for phi in region.exit_phis():
        (value, _), *_rest = phi.incoming
        if value in results:
            new = results[value]
        elif value.block in region.blocks:
            raise NotReplaced(f"{value.name} leaves the loop and is not the idiom's result")
        else:
            new = operand(value)
        line = text.line_of(phi)
        close = line.rindex("]")
        edits.append(
            (phi, f"{line[: close + 1]}, [ {new.ref}, {block_ref(done)} ]{line[close + 1 :]}")
        )
    return edits


def _retarget(text: ModuleText, branch: Value, old: Block, new: str) -> None:
    line = text.line_of(branch)
    pattern = re.compile(rf"label {re.escape(block_ref(old))}(?=,|$)")
    text.replace(branch, pattern.sub(f"label {block_ref(new)}", line, count=1))


def _rename_incoming(text: ModuleText, phi: Value, old: Block, new: str) -> None:
    line = text.line_of(phi)
    pattern = re.compile(rf", {re.escape(block_ref(old))} \]")
    text.replace(phi, pattern.sub(f", {block_ref(new)} ]", line))
