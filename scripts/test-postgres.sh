#!/usr/bin/env bash
# The PostgreSQL parts of `make test`: starts a throwaway cluster of Debian's postgresql (as the
# postgres user when run as root), on a private socket directory and port with no TCP at all,
# then runs against it the Swift tests that need it (the behaviour suite on PostgreSQL, the
# engine's own tests, the SQLite/PostgreSQL comparison, catalog copy, the two-server and nginx
# tests, the change feed between two servers, the fault run that kills one again and again, and
# servers reading from a streaming replica of the cluster that is stopped and started under them),
# a pg_dump restored with pg_restore and a `catalog copy` into SQLite and back (each must answer
# as the original), and the OpenAPI conformance run against a server on PostgreSQL. The cluster is stopped and
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
# A hot standby streaming from it, for the read-replica tests (`serve --db-read`).
postgres_replica_start
export CATALOG_TEST_POSTGRES_REPLICA="$POSTGRES_REPLICA_URL"
export CATALOG_TEST_POSTGRES_REPLICA_CTL="$POSTGRES_REPLICA_CTL"

if [[ "$mode" == shell ]]; then
  echo "export CATALOG_TEST_POSTGRES='$server' CATALOG_TEST_POSTGRES_PASSWORDS=1" \
    "CATALOG_TEST_POSTGRES_REPLICA='$POSTGRES_REPLICA_URL' CATALOG_TEST_POSTGRES_REPLICA_CTL='$POSTGRES_REPLICA_CTL'"
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
  SharedDatabaseServersTests FaultRunTests CatalogVisibilityTests ReadReplicaServersTests FilteredReaderTests
  SearchSettingsTests CatalogCardTests SearchSuggestionTests FieldFilterTests FieldSortTests RankingFieldTests FieldWeightTests
  WrittenIndexesTests)
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

# A PostgreSQL database is backed up with PostgreSQL's own tools or with `catalog copy` (docs/operating.md):
# a dump restores into a new database, and a copy into a SQLite file and back into another, each answering
# as the original does.
echo "test-postgres: pg_dump and pg_restore, and catalog copy both ways" >&2
database_url() { echo "${server/\/postgres\?//$1?}"; }
scratch="$(mktemp -d)"
for name in dump_source dump_restored copy_back; do
  psql "$server" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $name" >/dev/null
done
source_db="$(database_url dump_source)"
"$binary" demo --db "$source_db" --quiet
"$binary" set cookbook "$("$binary" list --catalog cookbook --db "$source_db" | head -n 1 | cut -f2)" --db "$source_db" \
  subtitle="changed before the dump" >/dev/null
answers() {
  "$binary" catalogs --db "$1"
  for id in cookbook products sequencers; do
    "$binary" export --catalog "$id" --format json --db "$1"
    "$binary" search leves --catalog "$id" --db "$1" || true
  done
}
answers "$source_db" >"$scratch/source.txt"
pg_dump --format=custom --file="$scratch/catalog.dump" "$source_db"
pg_restore --no-owner --dbname="$(database_url dump_restored)" "$scratch/catalog.dump"
answers "$(database_url dump_restored)" >"$scratch/restored.txt"
cmp -s "$scratch/source.txt" "$scratch/restored.txt" ||
  { diff "$scratch/source.txt" "$scratch/restored.txt" | head -n 20 >&2; echo "test-postgres: a restored dump answers otherwise" >&2; exit 1; }
"$binary" copy --db "$source_db" --to "$scratch/copy.sqlite" --users --quiet
"$binary" copy --db "$scratch/copy.sqlite" --to "$(database_url copy_back)" --users --quiet
answers "$(database_url copy_back)" >"$scratch/copied.txt"
cmp -s "$scratch/source.txt" "$scratch/copied.txt" ||
  { diff "$scratch/source.txt" "$scratch/copied.txt" | head -n 20 >&2; echo "test-postgres: a copy there and back answers otherwise" >&2; exit 1; }
rm -rf "$scratch"

echo "test-postgres: OpenAPI conformance against a server on PostgreSQL" >&2
psql "$server" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE conformance" >/dev/null
CATALOG_CONFORMANCE_DB="${server/\/postgres\?//conformance?}" scripts/api-conformance.sh "$binary"
