#!/usr/bin/env bash
# Installs the Debian packages Catalog needs, when they are missing.
# As root it runs apt-get; otherwise it prints the exact command to run and fails.
#   scripts/install-deps.sh build    what `make run` needs
#   scripts/install-deps.sh test     plus what the test suite needs (sqlite3; postgresql for a
#                                    throwaway cluster; nginx-light in front of two servers;
#                                    chromium, chromium-driver and fonts-noto-cjk (Japanese and
#                                    Chinese titles drawn) for the browser tests;
#                                    tmux for the terminal tests; dpkg-dev, lintian and systemd
#                                    (systemd-analyze) for the package test)
#   scripts/install-deps.sh deb      plus what `make deb` needs (dpkg-dev for dpkg-shlibdeps, lintian)
#   scripts/install-deps.sh bench    plus what the benchmarks need (xmllint from libxml2-utils among them),
#                                    and the Python package tantivy in Benchmarks/.cache/tantivy-venv
set -euo pipefail

profile="${1:-build}"
packages=(libsqlite3-dev libpq-dev libicu-dev pkg-config libmicrohttpd-dev zlib1g-dev libsodium-dev libgd-dev libxml2-dev libcurl4-openssl-dev curl)
case "$profile" in
  build) ;;
  test) packages+=(sqlite3 postgresql nginx-light chromium chromium-driver fonts-noto-cjk python3-pip python3-venv tmux dpkg-dev lintian systemd) ;;
  deb) packages+=(dpkg-dev lintian) ;;
  bench) packages+=(sqlite3 postgresql wrk nginx-light python3 python3-venv libxml2-utils) ;;
  *) echo "usage: $0 build|test|deb|bench" >&2; exit 64 ;;
esac

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

# The benchmarks' Python peer: Tantivy (the Rust search library, as its Python package) in a
# virtual environment under Benchmarks/.cache, made once; `make bench` runs its script from there.
bench_python() {
  local root venv
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  venv="$root/Benchmarks/.cache/tantivy-venv"
  if [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c "import tantivy" 2>/dev/null; then
    return 0
  fi
  echo "Installing the Python package tantivy into $venv" >&2
  mkdir -p "$root/Benchmarks/.cache"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check tantivy
}

if ((${#missing[@]} > 0)); then
  if [[ "$(id -u)" != "0" ]]; then
    echo "Missing Debian packages: ${missing[*]}" >&2
    echo "Install them with:  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || true
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [[ "$profile" == bench ]]; then
  bench_python
fi
