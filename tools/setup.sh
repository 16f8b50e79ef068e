#!/usr/bin/env bash
# Set a fresh machine up for rook_core: Debian's headless Chromium (for the
# browser test of `rook serve`), then a virtual environment in .venv with the
# project installed in editable mode with its test extra.
#
#   bash tools/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q -e '.[test]'
