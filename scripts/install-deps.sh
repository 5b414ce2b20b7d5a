#!/usr/bin/env bash
# Installs the Debian packages Catalog needs, when they are missing.
# As root it runs apt-get; otherwise it prints the exact command to run and fails.
#   scripts/install-deps.sh build    what `make run` needs
#   scripts/install-deps.sh test     plus what the test suite needs (sqlite3; postgresql for a
#                                    throwaway cluster; nginx-light in front of two servers;
#                                    chromium and chromium-driver for the browser tests;
#                                    tmux for the terminal tests)
#   scripts/install-deps.sh bench    plus what the benchmarks need (xmllint from libxml2-utils among them)
set -euo pipefail

profile="${1:-build}"
packages=(libsqlite3-dev libpq-dev libicu-dev pkg-config libmicrohttpd-dev zlib1g-dev libsodium-dev libgd-dev libxml2-dev curl)
case "$profile" in
  build) ;;
  test) packages+=(sqlite3 postgresql nginx-light chromium chromium-driver python3-pip tmux) ;;
  bench) packages+=(sqlite3 postgresql wrk nginx-light python3 python3-venv libxml2-utils) ;;
  *) echo "usage: $0 build|test|bench" >&2; exit 64 ;;
esac

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

if [[ "$(id -u)" != "0" ]]; then
  echo "Missing Debian packages: ${missing[*]}" >&2
  echo "Install them with:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "Installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
apt-get install -y -qq --no-install-recommends "${missing[@]}"
