"""Source functions that live only inlined into others, found through the debug info.

The front end inlines small `static` kernels into their callers and drops them, so a
name `idiom detect` reports (the source function a loop's lines come from) may name no
function of the module. Each instruction's location keeps the source function it was
written in (`SourceLocation.function`, from the inlined-at scopes), which is how the
functions holding that code are found.
"""

from __future__ import annotations

import difflib

from idl.errors import IdiomError
from matcher.ir import Function, Module, Value

__all__ = [
    "close_names",
    "comes_from",
    "inlined_hosts",
    "no_such_function",
    "source_function_names",
]


def comes_from(value: Value, name: str) -> bool:
    """Whether `value` is code written in the source function `name` (qualified or not)."""
    location = value.location
    if location is None or not location.function:
        return False
    return name in (location.function, location.function.rsplit("::", 1)[-1])


def inlined_hosts(module: Module, name: str) -> tuple[Function, ...]:
    """The functions holding code inlined from the source function `name`, in file order."""
    return tuple(
        function
        for function in module
        if function.source_name != name
        and any(comes_from(value, name) for value in function.instructions)
    )


def source_function_names(module: Module) -> list[str]:
    """Every source function the module has code of, defined or inlined, sorted."""
    names = {function.source_name for function in module}
    names |= {
        value.location.function
        for function in module
        for value in function.instructions
        if value.location is not None and value.location.function
    }
    return sorted(names)


def close_names(module: Module, name: str) -> list[str]:
    """The source and IR function names that look like `name` (a misspelling of one)."""
    known = set(source_function_names(module)) | {function.name for function in module}
    return sorted(difflib.get_close_matches(name, known, n=5, cutoff=0.6))


def no_such_function(module: Module, name: str, where: str) -> IdiomError:
    """The error for a name in no function of the module: the close names, else them all."""
    close = close_names(module, name)
    if close:
        return IdiomError(f"{where}: no function '{name}' (close names: {', '.join(close)})")
    known = ", ".join(source_function_names(module)) or "none"
    return IdiomError(f"{where}: no function '{name}' (functions: {known})")
