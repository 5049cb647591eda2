"""Counted loop headers in the forms the tool reads: up or down, `<`, `<=`, `!=`, strides,
int, long or size_t counters."""

from __future__ import annotations

from dataclasses import dataclass

from fuzz.piece import Chooser

__all__ = ["CountedLoop", "choose_loop"]


@dataclass(frozen=True)
class CountedLoop:
    """A loop over [lo, hi) in some order; `index` is the element the body touches."""

    counter_type: str
    form: str  # "lt", "le", "ne", "down"
    stride: int

    def header(self, var: str, lo: str, hi: str) -> str:
        ctype, step = self.counter_type, self.stride
        advance = f"{var}++" if step == 1 else f"{var} += {step}"
        if self.form == "lt":
            return f"for ({ctype} {var} = {lo}; {var} < {hi}; {advance})"
        if self.form == "le":
            return f"for ({ctype} {var} = {lo}; {var} <= {hi} - 1; {advance})"
        if self.form == "ne":
            return f"for ({ctype} {var} = {lo}; {var} != {hi}; {var}++)"
        if self.counter_type == "size_t":  # unsigned: test before the decrement
            return f"for ({ctype} {var} = {hi}; {var} > {lo}; {var}--)"
        back = f"{var}--" if step == 1 else f"{var} -= {step}"
        return f"for ({ctype} {var} = {hi} - 1; {var} >= {lo}; {back})"

    def index(self, var: str) -> str:
        return f"{var} - 1" if self.form == "down" and self.counter_type == "size_t" else var


def choose_loop(chooser: Chooser, name: str, strides: bool = True) -> CountedLoop:
    """A random loop form; `!=` and unsigned down-counting loops only step by one, and
    `<=` (which tests `hi - 1`) only with signed counters."""
    counter = chooser.pick(f"{name}.counter", ("int", "long", "size_t"))
    forms = ["lt", "lt", "ne", "down"] + ([] if counter == "size_t" else ["le"])
    form = chooser.pick(f"{name}.form", forms)
    stride = 1
    if strides and (form in ("lt", "le") or (form == "down" and counter != "size_t")):
        stride = chooser.pick(f"{name}.stride", (1, 1, 2, 3))
    return CountedLoop(counter, form, stride)
