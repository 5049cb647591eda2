"""Planning a match: what a mapper learns about the matched region before anything is rewritten.

The contract between the rewriter and a mapper (`plan`: a `Plan` of guard, call and results,
or `NotReplaced` with the reason), the region a match covers and its static legality rules
(`region`), the matched loops' trip counts computed at run time (`loops`), affine accesses
measured at run time (`access`), inner loops over a triangle with the rows (`triangle`),
matrices given as tables of row pointers (`row_tables`), and matches too small to launch
(`granularity`).
"""
