"""The `idiom` command: argument parsing and output only."""
