"""Rewriting the IR: matched regions replaced by guarded calls, and the unit assembled again.

The rewriter lays out each plan's guard, call, results and fallback (`rewriter`), writing
instructions as text and cloning matched computations (`emit`) into the printed module,
edited line by line (`irtext`); new code moves into functions of its own (`outline`); large
arrays get a cache line's alignment (`alignment`); functions whose kernels cannot launch are
built twice, the source's copy beside the rewritten one (`worlds`); and the functions the tool
left unchanged are compiled from the source's own IR (`splice`).
"""
