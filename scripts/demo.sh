#!/usr/bin/env bash
# The README's main command: set up what is missing, then run idiom on a corpus program.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/idiom demo "$@"
