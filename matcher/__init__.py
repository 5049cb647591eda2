"""The matcher: clang front end, IR model and analyses, atoms, solver, detection."""
