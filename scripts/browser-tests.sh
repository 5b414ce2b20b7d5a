#!/usr/bin/env bash
# Browser tests: the web app in a headless Chromium (Debian's chromium and chromium-driver,
# driven by Selenium from PyPI) at a phone size and a desktop size, against a live
# `catalog serve` on a loopback port with a throwaway database: the demo catalogs, a user with a
# password, a record whose title is a <script>, a 2,000-record and a 25,000-record catalog, a German
# catalog with categories, a catalog of pictures that load and fail, one of Japanese titles (drawn
# in fonts-noto-cjk), and one the tests change (an administrator's token and an editor's role for them).
# Screenshots go to .build/screenshots/{phone,desktop}/.
#
# Then, unless CATALOG_BROWSER_1M=0, the time from a keystroke to the results drawn on a
# 1,000,000-record catalog (generated once into Benchmarks/.cache, about two minutes with a
# release build): reported, not enforced.
#
#   scripts/browser-tests.sh [CATALOG_BINARY]      default .build/debug/catalog
#
# Environment: CATALOG_BROWSER_1M=0 skips the measurement; CATALOG_BROWSER_1M_DB=FILE uses (or
# generates) another 1M database; CATALOG_BROWSER_FILTER="PATTERN …" runs only the tests whose
# names contain one of the patterns (unittest -k).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:-$root/.build/debug/catalog}"
[[ "$binary" == /* ]] || binary="$PWD/$binary"
measure="${CATALOG_BROWSER_1M:-1}"
big_db="${CATALOG_BROWSER_1M_DB:-$root/Benchmarks/.cache/browser-1m.sqlite}"
screenshots="$root/.build/screenshots"

fail() { echo "browser-tests: $*" >&2; exit 1; }

[[ -x "$binary" ]] || fail "no catalog binary at $binary (swift build)"
for tool in chromium chromedriver; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing: scripts/install-deps.sh test installs it"
done
# selenium drives the browser; axe-selenium-python brings axe-core, the accessibility checker
# the screens are run through (test_screens.py).
for package in selenium:selenium axe-selenium-python:axe_selenium_python; do
  name="${package%%:*}" module="${package##*:}"
  python3 -c "import $module" >/dev/null 2>&1 && continue
  echo "Installing $name (PyPI)…" >&2
  # Debian's own python3 refuses installs outside a virtual environment (PEP 668): then for this user.
  python3 -m pip install --quiet "$name" 2>/dev/null ||
    python3 -m pip install --quiet --user --break-system-packages "$name" ||
    fail "pip could not install $name"
done

work="$(mktemp -d)"
pids=()
runner=""
cleanup() {
  local pid
  # The test runner first: on SIGTERM it closes its browsers on the way out.
  if [[ -n "$runner" ]]; then
    kill -TERM "$runner" 2>/dev/null || true
    wait "$runner" 2>/dev/null || true
  fi
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# serve DB NAME: starts `catalog serve` on a free port; its URL is left in $served.
served=""
serve() {
  "$binary" serve --db "$1" --port 0 --quiet >"$work/$2.out" 2>"$work/$2.err" &
  pids+=($!)
  local _
  for _ in $(seq 1 300); do
    if grep -q "listening on" "$work/$2.out" 2>/dev/null; then
      served="$(grep -o 'http://[^ ]*' "$work/$2.out")"
      return 0
    fi
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  cat "$work/$2.err" >&2
  fail "catalog serve did not start on $1"
}

# MARK: - The throwaway database

db="$work/catalog.sqlite"
password="browser-$RANDOM-$RANDOM"
"$binary" demo --db "$db" >/dev/null 2>&1
"$binary" user add ada --password-stdin --db "$db" >/dev/null 2>&1 <<<"$password"
# An administrator who signs in to the web app, for the catalog owner's screens (test_owner.py).
"$binary" user add olga --admin --password-stdin --db "$db" >/dev/null 2>&1 <<<"$password"
# An administrator's API token, for the changes the live-update tests make through the API.
admin_token="$("$binary" user add root --admin --json --db "$db" 2>/dev/null |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"
printf 'id,title,subtitle,description\n%s\n' \
  'x1,<script>window.__pwned=1</script>,"<img src=x onerror=""window.__pwned=2"">","</p><script>window.__pwned=3</script>"' \
  >"$work/hostile.csv"
"$binary" import "$work/hostile.csv" --catalog hostile --db "$db" >/dev/null 2>&1
"$binary" generate --catalog mid --items 2000 --db "$db" --quiet
# Deeper than 20,000 rows, for the windowed list; a German catalog with tabs, for the language walk;
# pictures that load, fail and are missing, for the placeholders and the rows' alignment.
"$binary" generate --catalog deep --items 25000 --seed 7 --db "$db" --quiet
"$binary" generate --catalog tief --items 300 --locale de --seed 5 --title "Werkstatt" --db "$db" --quiet
printf 'id,title,image\np1,Alpha,/images/demo/products/p001.svg\np2,Beta,/images/missing-picture.png\np3,Gamma,\n' \
  >"$work/pictures.csv"
"$binary" import "$work/pictures.csv" --catalog pictures --db "$db" >/dev/null 2>&1
# Japanese titles, for the CJK fonts (test_polish.py; fonts-noto-cjk from install-deps.sh test).
printf 'id,title,subtitle\nj1,抹茶と和菓子の詰め合わせ,京都の老舗\nj2,東京の醤油ラーメン,中華そば\n' >"$work/japanese.csv"
"$binary" import "$work/japanese.csv" --catalog japanese --db "$db" >/dev/null 2>&1
# What the live-update and editing tests change (no other test reads it); ada edits it, and the
# German catalog too (the language walk sees the editor's pages).
"$binary" generate --catalog live --items 300 --seed 11 --title "Live" --db "$db" --quiet
for catalog in live tief; do
  "$binary" user grant ada --catalog "$catalog" --role editor --db "$db" >/dev/null 2>&1
done

serve "$db" demo
url="$served"
export CATALOG_URL="$url" CATALOG_USER=ada CATALOG_PASSWORD="$password" CATALOG_SCREENSHOTS="$screenshots"
export CATALOG_ADMIN_TOKEN="$admin_token" CATALOG_ADMIN_USER=olga
export SE_OFFLINE=true PYTHONDONTWRITEBYTECODE=1

# MARK: - The 1M-record catalog

export CATALOG_1M_URL=""
if [[ "$measure" != "0" ]]; then
  if [[ ! -f "$big_db" ]]; then
    mkdir -p "$(dirname "$big_db")"
    partial="${big_db%.sqlite}.partial.sqlite"
    rm -f "$partial" "$partial-wal" "$partial-shm"
    echo "Generating a 1,000,000-record catalog \"big\" into $big_db (about two minutes)…" >&2
    "$binary" generate --catalog big --items 1000000 --db "$partial" --quiet || fail "catalog generate failed"
    for suffix in "" -wal -shm; do
      if [[ -f "$partial$suffix" ]]; then mv "$partial$suffix" "$big_db$suffix"; fi
    done
  fi
  serve "$big_db" big
  CATALOG_1M_URL="$served"
  export CATALOG_1M_SUMMARY="$work/speed.json"
else
  echo "CATALOG_BROWSER_1M=0: the keystroke-to-results measurement on 1,000,000 records is skipped." >&2
fi

# MARK: - The tests

rm -rf "$screenshots"
echo "Browser tests against $url ($(chromium --version 2>/dev/null | head -n 1))" >&2
filter=()
for pattern in ${CATALOG_BROWSER_FILTER:-}; do filter+=(-k "$pattern"); done
status=0
(cd "$root/Tests/browser" && exec python3 -m unittest "${filter[@]}" -v test_web test_app test_live test_edit test_owner test_polish test_browsing test_screens test_speed) &
runner=$!
wait "$runner" || status=$?
runner=""

if grep -q "error:" "$work/demo.err"; then
  echo "The server logged unexpected errors:" >&2
  grep "error:" "$work/demo.err" >&2
  status=1
fi
echo "Screenshots: $screenshots/phone, $screenshots/desktop" >&2
exit "$status"
