"""Exploration: candidates (rewrite sequences and launch shapes), timed on a device, the
best cached per expression, device and size class; a deterministic default otherwise."""
