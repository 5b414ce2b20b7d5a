#!/usr/bin/env bash
# The PostgreSQL parts of `make test`: starts a throwaway cluster of Debian's postgresql (as the
# postgres user when run as root), on a private socket directory and port with no TCP at all,
# then runs against it the Swift tests that need it (the behaviour suite on PostgreSQL, the
# engine's own tests, the SQLite/PostgreSQL comparison, catalog copy, the two-server and nginx
# tests, the change feed between two servers and the fault run that kills one again and again)
# and the OpenAPI conformance run against a server on PostgreSQL. The cluster is stopped and
# removed on every way out.
#   scripts/test-postgres.sh [CATALOG_BINARY]          default .build/debug/catalog
#   scripts/test-postgres.sh --shell                    a cluster for trying things: prints
#                                                       CATALOG_TEST_POSTGRES, stops on Ctrl-C
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
mode=test
binary="$root/.build/debug/catalog"
if [[ "${1:-}" == "--shell" ]]; then mode=shell; elif [[ -n "${1:-}" ]]; then binary="$1"; fi
[[ "$binary" == /* ]] || binary="$PWD/$binary"
export PATH="/opt/swift/usr/bin:$PATH"
[[ "$mode" == shell || -x "$binary" ]] || { echo "test-postgres: no catalog binary at $binary" >&2; exit 1; }

# shellcheck source=lib/postgres-cluster.sh
source "$root/scripts/lib/postgres-cluster.sh"
trap postgres_cluster_stop EXIT
trap 'exit 130' INT TERM
# A throwaway cluster: no fsync, and connections for the tests that run in parallel.
postgres_cluster_start fsync=off synchronous_commit=off full_page_writes=off max_connections=300
server="$POSTGRES_CLUSTER_URL"
export CATALOG_TEST_POSTGRES="$server"
export CATALOG_TEST_POSTGRES_PASSWORDS=1

if [[ "$mode" == shell ]]; then
  echo "export CATALOG_TEST_POSTGRES='$server' CATALOG_TEST_POSTGRES_PASSWORDS=1"
  echo "(Ctrl-C stops and removes the cluster)" >&2
  while true; do sleep 3600; done
fi

cd "$root"
echo "test-postgres: Swift tests on PostgreSQL ($server)" >&2
# Every test of this run must run: one skipped here (a suite whose condition no longer holds, a
# renamed suite the filter misses) would pass silently, so a skip fails the run, as does a suite
# of the filter that ran no test at all.
suites=(PostgresCoverageTests CatalogBehaviourTests LiveCatalogTests LiveEditTests CatalogManagementTests
  UserBehaviourTests PostgresDatabaseTests PostgresLiveCatalogTests EngineEquivalenceTests CopyCommandTests TwoServersTests
  SharedDatabaseServersTests FaultRunTests)
log="$(mktemp)"
filter="$(IFS='|'; echo "${suites[*]}")"
swift test --skip-build --filter "$filter" 2>&1 | tee "$log"
if grep -E 'skipped(:| after)' "$log" >&2; then
  echo "test-postgres: the tests above were skipped on PostgreSQL; every one must run here" >&2
  exit 1
fi
for suite in "${suites[@]}"; do
  grep -qE "Suite $suite passed" "$log" || { echo "test-postgres: no test of $suite ran" >&2; exit 1; }
done
rm -f "$log"

echo "test-postgres: OpenAPI conformance against a server on PostgreSQL" >&2
psql "$server" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE conformance" >/dev/null
CATALOG_CONFORMANCE_DB="${server/\/postgres\?//conformance?}" scripts/api-conformance.sh "$binary"
