"""The functional IR: types and sizes, expressions, the text form, type checking and
the reference interpreter."""
