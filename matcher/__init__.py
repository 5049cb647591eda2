"""The matcher: clang front end, IR model and analyses, atoms, solver, detection."""

from matcher import native as _native

# The compiled engine, when its build is current (matcher/native.py).
_native.install(__path__)
