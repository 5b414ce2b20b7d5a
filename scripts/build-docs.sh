#!/usr/bin/env bash
# Builds the CatalogClient documentation with the toolchain's docc: the symbol graph extracted
# from the built module (no rebuild), then the DocC catalog converted into .build/docs. Fails on
# any warning (an unresolved link, a malformed directive).
#   scripts/build-docs.sh [BUILD_DIR]      default .build/debug (after swift build)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/.build/debug}"
[[ -d "$build/Modules" ]] || { echo "build-docs: no modules in $build (swift build first)" >&2; exit 1; }
symbols="$root/.build/symbol-graphs"
output="$root/.build/docs/CatalogClient.doccarchive"
rm -rf "$symbols" "$output"
mkdir -p "$symbols" "$(dirname "$output")"
triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
swift symbolgraph-extract -module-name CatalogClient -I "$build/Modules" -target "$triple" \
  -output-dir "$symbols" -minimum-access-level public -Xcc "-fmodule-map-file=$root/Sources/CSQLite/module.modulemap"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
docc convert "$root/Sources/CatalogClient/CatalogClient.docc" --additional-symbol-graph-dir "$symbols" \
  --output-path "$output" --fallback-display-name CatalogClient --fallback-bundle-identifier org.catalog.CatalogClient \
  --fallback-bundle-version 1.0 --analyze >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
if grep -q "warning:" "$log"; then
  grep -A3 "warning:" "$log" >&2
  echo "build-docs: the documentation has warnings" >&2
  exit 1
fi
echo "documentation: $output"
