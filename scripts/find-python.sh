#!/usr/bin/env bash
# Print the path of a Python >= 3.12 interpreter, or fail with one line.
# JAX's current source uses 3.12 syntax (PEP 695, PEP 701) that older `ast` cannot parse,
# and jax >= 0.11 needs 3.12, so the machine default (3.11) is never good enough.
set -u

is_new_enough() {
  "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

candidates=()
[ -n "${JAX_ERRORS_PYTHON:-}" ] && candidates+=("$JAX_ERRORS_PYTHON")
for name in python3.13 python3.12 python3; do
  path=$(command -v "$name" 2>/dev/null) && candidates+=("$path")
done
pyenv_root=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
for path in "$pyenv_root"/versions/3.13*/bin/python3.13 "$pyenv_root"/versions/3.12*/bin/python3.12 \
            /usr/local/bin/python3.13 /usr/local/bin/python3.12 /usr/bin/python3.13 /usr/bin/python3.12; do
  [ -x "$path" ] && candidates+=("$path")
done

for candidate in "${candidates[@]}"; do
  if is_new_enough "$candidate"; then
    # Resolve pyenv shims to the real interpreter so the venv does not depend on PYENV_VERSION.
    "$candidate" -c 'import sys; print(sys.executable)'
    exit 0
  fi
done
echo "find-python: no Python >= 3.12 found (set JAX_ERRORS_PYTHON to one)" >&2
exit 1
