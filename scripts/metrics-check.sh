#!/usr/bin/env bash
# /metrics against the real Prometheus parser: the PyPI package prometheus-client, installed once
# into a virtual environment under .build/metrics-venv, then scripts/metrics-check.py (which
# starts a live `catalog serve` on a throwaway database). Fails on any parse error.
#   scripts/metrics-check.sh [CATALOG_BINARY]
set -euo pipefail

binary="${1:-.build/debug/catalog}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.build/metrics-venv"
if ! [[ -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import prometheus_client" 2>/dev/null; then
  echo "Installing prometheus-client (PyPI) into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check prometheus-client
fi
"$venv/bin/python" "$root/scripts/metrics-check.py" "$binary"
