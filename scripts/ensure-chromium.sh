#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (test tools cannot download browsers here).
# Installs it once when missing; runs before `npm test`.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Chromium is missing: install it with 'sudo apt-get install -y chromium' to run the browser tests." >&2
  exit 1
fi
echo "Installing Chromium for the browser tests (once)…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
