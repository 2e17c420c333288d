#!/usr/bin/env bash
# Set up jax-errors on a fresh machine and run the main job: crawl the installed jax into jax_errors.db.
# Extra arguments go to `jax-errors crawl` (e.g. --db postgresql+psycopg://...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-env.sh
exec .venv/bin/jax-errors crawl --installed "$@"
