#!/usr/bin/env bash
# The PostgreSQL parts of `make test`: starts a throwaway cluster of Debian's postgresql (as the
# postgres user when run as root), on a private socket directory and port with no TCP at all,
# then runs against it the Swift tests that need it (the behaviour suite on PostgreSQL, the
# engine's own tests, the SQLite/PostgreSQL comparison, catalog copy, the two-server and nginx
# tests) and the OpenAPI conformance run against a server on PostgreSQL. The cluster is stopped
# and removed on every way out.
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

fail() { echo "test-postgres: $*" >&2; exit 1; }

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[[ -x "$bin/initdb" ]] || fail "PostgreSQL is missing: scripts/install-deps.sh test installs it"
[[ "$mode" == shell || -x "$binary" ]] || fail "no catalog binary at $binary (swift build)"

# initdb refuses to run as root: then the cluster belongs to postgres.
as_owner=()
dir="$(mktemp -d /tmp/catalog-postgres-XXXXXX)"
if [[ "$(id -u)" == "0" ]]; then
  as_owner=(runuser -u postgres --)
  chown postgres:postgres "$dir"
fi
port="${CATALOG_TEST_POSTGRES_PORT:-55433}"
started=""
cleanup() {
  if [[ -n "$started" ]]; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; fail "initdb failed"; }
# One role whose password is checked, for the bad-credentials test; everyone else is trusted.
{ echo "local all catalog_password_test scram-sha-256"; cat "$dir/data/pg_hba.conf"; } >"$dir/hba"
cat "$dir/hba" >"$dir/data/pg_hba.conf"
# A throwaway cluster: no fsync, and connections for tests that run in parallel.
options="-k $dir -c listen_addresses='' -p $port -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
options+=" -c max_connections=300"
started=1
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$options" -w start >/dev/null ||
  { cat "$dir/server.log" >&2; fail "the cluster did not start"; }

server="postgres://postgres@/postgres?host=$dir&port=$port"
export CATALOG_TEST_POSTGRES="$server"
export CATALOG_TEST_POSTGRES_PASSWORDS=1

if [[ "$mode" == shell ]]; then
  echo "export CATALOG_TEST_POSTGRES='$server'"
  echo "(Ctrl-C stops and removes the cluster)" >&2
  while true; do sleep 3600; done
fi

cd "$root"
echo "test-postgres: Swift tests on PostgreSQL ($server)" >&2
swift test --skip-build --filter \
  'CatalogBehaviourTests|UserBehaviourTests|PostgresDatabaseTests|EngineEquivalenceTests|CopyCommandTests|TwoServersTests'

echo "test-postgres: OpenAPI conformance against a server on PostgreSQL" >&2
psql "$server" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE conformance" >/dev/null
CATALOG_CONFORMANCE_DB="postgres://postgres@/conformance?host=$dir&port=$port" scripts/api-conformance.sh "$binary"
