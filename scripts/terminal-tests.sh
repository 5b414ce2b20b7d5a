#!/usr/bin/env bash
# Terminal tests: `catalog browse` under tmux (Debian's tmux) against a live `catalog serve` on a
# loopback port with a throwaway database — keys sent with send-keys, screens read with
# capture-pane: search as you type with scopes, details and the placeholder, the Hungarian index
# jumps, the cookbook's tabs, sign-in and favorites, an offline snapshot, an unreachable server
# and retry, wide characters at several sizes and after a resize, NO_COLOR, the help screen, Esc
# going back a level and q quitting, the bottom line at 60 and 40 columns, the search line's
# editing keys (ASCII and CJK), a mouse click, a favorite queued while the server is away, the
# terminal (and its mouse mode) restored after q, Ctrl-C and SIGTERM; and, read from the escapes
# capture-pane keeps (Tests/terminal/screen.py), the contrast of subtitles and matches on both row
# colours at 256 and 24-bit colour (none of the app's colours under the list at eight), the sign-out
# key once signed in, `*` signed out signing in first, the scope chips at 60 and 40 columns, and the
# mouse wheel.
#
#   scripts/terminal-tests.sh [CATALOG_BINARY]      default .build/debug/catalog
#
# CATALOG_TERMINAL_FILTER=PATTERN runs only the tests whose names contain it (unittest -k).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:-$root/.build/debug/catalog}"
[[ "$binary" == /* ]] || binary="$PWD/$binary"
[[ -x "$binary" ]] || { echo "terminal-tests: no catalog binary at $binary (swift build)" >&2; exit 1; }
command -v tmux >/dev/null 2>&1 || { echo "terminal-tests: tmux is missing: scripts/install-deps.sh test installs it" >&2; exit 1; }

filter=()
if [[ -n "${CATALOG_TERMINAL_FILTER:-}" ]]; then filter=(-k "$CATALOG_TERMINAL_FILTER"); fi
cd "$root"
CATALOG_BINARY="$binary" exec python3 -m unittest "${filter[@]}" -v Tests/terminal/test_browse.py
