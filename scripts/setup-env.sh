#!/usr/bin/env bash
# Create (or reuse) .venv on Python >= 3.12 and install jax-errors with its dev extras.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
  python=$(scripts/find-python.sh)
  echo "setup-env: creating $venv with $python" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
fi
# Only reinstall when pyproject.toml changed: a full resolve takes a while and CI runs this every time.
stamp="$venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -e "$stamp" ]; then
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -e '.[dev]'
  rm -f "$venv"/.installed-*
  touch "$stamp"
fi
