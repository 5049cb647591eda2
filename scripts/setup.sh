#!/usr/bin/env bash
# Installs what idiom needs and is missing; idempotent and quick once done.
#   system: clang-22 and llvm-22 (opt-22), the OpenCL ICD loader and headers, PoCL,
#           valgrind (the tests count instructions with callgrind)
#   python: .venv/ at the project root with the project and its dev tools, the search
#           engine compiled with mypyc into .native/ (matcher/native.py), and `idiom`'s
#           native client (cli/launcher.c) in place of its script
# Run as root on Debian 12 for the system part (or have those packages installed).
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(clang-22 llvm-22 ocl-icd-opencl-dev opencl-headers pocl-opencl-icd valgrind)

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
# The interpreter's headers: scripts/build_native.py compiles the search engine with them.
python3 -c 'import os, sys, sysconfig
sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  2>/dev/null || missing+=(python3-dev)

if ((${#missing[@]})); then
  echo "setup: installing system packages: ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: need root to install ${missing[*]} (apt-get install ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The project is installed editable as a plain path (.pth), not through setuptools' import
# hook: the hook's import costs every `idiom` command about 11 ms before it starts
# (docs/startup.md). A setuptools without that mode gets the hook.
install_project() {
  local log=.venv/.idiom-install.log
  if ! .venv/bin/python -m pip install -q -e '.[dev]' --config-settings editable_mode=compat \
    >"$log" 2>&1; then
    .venv/bin/python -m pip install -q -e '.[dev]'
  fi
}

# The venv is rebuilt only when pyproject.toml or the way it is installed changed.
stamp=.venv/.idiom-setup
wanted=$( (cat pyproject.toml; declare -f install_project) | sha256sum | cut -d' ' -f1)
if [[ ! -x .venv/bin/python || ! -f $stamp || $(cat "$stamp") != "$wanted" ]]; then
  echo "setup: preparing the Python environment in .venv/"
  [[ -x .venv/bin/python ]] || python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  install_project
  echo "$wanted" >"$stamp"
fi

# The compiled engine, rebuilt when its sources changed; without it they run as Python.
if ! .venv/bin/python scripts/build_native.py --if-stale; then
  echo "setup: warning: the search engine is not compiled; detection runs about 2x slower" >&2
fi

# `idiom` as a small native program in place of the Python script (cli/launcher.c): a served
# command's client starts in a millisecond, not an interpreter's 20 (docs/startup.md); it runs
# the Python `idiom` whenever the server does not take the command.
if ! .venv/bin/python scripts/build_launcher.py --if-stale; then
  echo "setup: warning: idiom stays a Python script; served commands start about 20 ms later" >&2
fi

# The tool's bytecode, compiled ahead: where the environment tells Python not to write it
# (PYTHONDONTWRITEBYTECODE), every command would compile its client's modules again
# (a served command then starts in 40 ms, not 30, docs/startup.md); up-to-date files are skipped.
.venv/bin/python -m compileall -q -j 0 cli wrapper idl matcher mappers measure fuzz ci lift >/dev/null ||
  echo "setup: warning: the bytecode was not compiled ahead" >&2
