"""Rewrite rules (algorithmic and lowering) and where they apply."""
