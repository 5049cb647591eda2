"""The contract between the rewriter and a mapper.

A mapper turns one instance into a `Plan`, after checking the static legality rules
(raising `NotReplaced` with the reason otherwise). The rewriter then lays out:

    preheader ──► guard ──ok──► call ──status 0──► done ──► exit block
                    │             │
                    └─────────────┴──► fallback ──► the original loop

`guard` emits the run-time conditions (sizes, strides, disjoint ranges), `call` the
runtime call returning its status (0 = done), `done` the values the region's exit block
receives in place of the loop's results.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mappers.plan.region import Region
from mappers.rewrite.emit import Builder, NotReplaced
from mappers.rewrite.irtext import ModuleText, Operand
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["GeneratedKernel", "KernelInstead", "MapperContext", "Plan", "need"]


@dataclass(frozen=True)
class MapperContext:
    """What a mapper may use besides the instance: the region and the module's text."""

    region: Region
    module: ModuleText
    reassociate: bool  # floating-point reductions may be reordered


@dataclass(frozen=True)
class KernelInstead:
    """A kernel launched in place of the usual one where a run-time fact holds (`when`):
    the rewrites that lowered the same expression, the lowered expression, the source."""

    when: str
    rewrites: tuple[str, ...]
    lowered: str
    source: str


@dataclass(frozen=True)
class GeneratedKernel:
    """A kernel the Lift compiler generated for a match (`idiom lift` prints it): the
    match's functional expression, the rewrites that lowered it, the lowered expression
    and the OpenCL source; and the kernels launched instead where the data says so."""

    expression: str
    rewrites: tuple[str, ...]
    lowered: str
    source: str
    instead: tuple[KernelInstead, ...] = ()


class Plan(ABC):
    """A replacement ready to be emitted; `target` says what replaces the region, and
    `generated` the kernel the Lift compiler generated for it, if any."""

    target: str
    generated: GeneratedKernel | None = None

    @abstractmethod
    def guard(self, builder: Builder) -> Operand: ...

    @abstractmethod
    def call(self, builder: Builder) -> Operand: ...

    def done(self, builder: Builder) -> dict[Value, Operand]:
        return {}


Mapper = Callable[[Instance, MapperContext], Plan]


def need(solution: Mapping[str, Value | None], name: str) -> Value:
    """An interface variable the mapper cannot do without."""
    value = solution.get(name)
    if value is None:
        raise NotReplaced(f"the match has no {{{name}}}")
    return value
