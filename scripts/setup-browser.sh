#!/usr/bin/env bash
# Install Debian's Chromium for the browser test (tests/test_site_browser.py) when it is missing.
# Playwright drives this binary through `executable_path`; its own browser download is never used,
# since CI's network reaches only the package registries.
set -euo pipefail

CHROMIUM="${JAX_ERRORS_CHROMIUM:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
    echo "chromium: $("$CHROMIUM" --version 2>/dev/null || echo present) at $CHROMIUM"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
echo "chromium: $("$CHROMIUM" --version) at $CHROMIUM"
