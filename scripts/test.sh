#!/usr/bin/env bash
# Run the test suite on a fresh machine: Python >= 3.12 venv, the project with jax, Chromium,
# a local PostgreSQL, pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-env.sh
if [ -x scripts/setup-browser.sh ]; then scripts/setup-browser.sh; fi
if [ -z "${JAX_ERRORS_TEST_POSTGRES:-}" ]; then
  JAX_ERRORS_TEST_POSTGRES=$(scripts/setup-postgres.sh || true)
  export JAX_ERRORS_TEST_POSTGRES
fi
exec .venv/bin/python -m pytest "$@"
