#!/usr/bin/env bash
# The README's test command: set up what is missing, then lint, type-check and run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/pytest -n 2 "$@"
