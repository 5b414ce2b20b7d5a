#!/usr/bin/env bash
# deployment-bench.sh: the README's three deployments side by side, in one short run on loopback.
#
#   Benchmarks/server/deployment-bench.sh [--catalog-binary PATH] [--items N] [--seconds S]
#
# For each, as-you-type search and records by id, requests/s, p50 and p99:
#   1. one server on SQLite;
#   2. two servers on one PostgreSQL database;
#   3. one server on the primary and one reading from a streaming standby of it (`--db-read`).
# The catalog: `catalog generate --items N` (default 100,000) into a SQLite file, copied into a
# throwaway PostgreSQL cluster with `catalog copy`; the standby is a `pg_basebackup -R` of that
# cluster (scripts/lib/postgres-cluster.sh, as the tests make it), caught up before the servers start.
# Search: workload.py's as-you-type queries, each distinct, so the response caches do not answer
# them; records: every record by id in a shuffled order, also each distinct. Each figure: wrk
# (rotate.lua, report.lua) for S seconds (default 5) after 2 s of warm-up on other paths, 16
# connections in all; with two servers, one wrk each with 8 connections at the same time: the
# requests/s are their sum, p50 and p99 the higher of the two. Every server runs with --threads 2.
# After the third, the read server's reads on the standby and on the primary (its /metrics).
# About a minute and a half in all with the defaults; every process and the cluster are stopped
# and removed on exit.
#
# Exit status: 0 when the measurements ran; 1 on a set-up failure; 64 usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bench_name=deployment-bench
# shellcheck source=common.sh
source "$here/common.sh"
# shellcheck source=../../scripts/lib/postgres-cluster.sh
source "$root/scripts/lib/postgres-cluster.sh"
# The cluster first: it is the one thing that outlives this script if the rest fails.
trap 'trap "" PIPE; postgres_cluster_stop; cleanup' EXIT

binary="$root/.build/release/catalog"
items=100000
seconds=5
while (($# > 0)); do
    case "$1" in
        --catalog-binary) binary="${2:?}"; shift 2 ;;
        --items) items="${2:?}"; shift 2 ;;
        --seconds) seconds="${2:?}"; shift 2 ;;
        *) sed -n '4p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 64 ;;
    esac
done
[[ "$items" =~ ^[1-9][0-9]{2,}$ && "$seconds" =~ ^[1-9][0-9]*$ ]] ||
    { echo "deployment-bench: --items takes a whole number from 100, --seconds one from 1" >&2; exit 64; }
for tool in wrk python3 sqlite3 psql curl; do
    command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh bench)"
done
[[ -x "$binary" ]] || fail "no catalog binary at $binary (swift build -c release --product catalog)"
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
began="$(date -u '+%F %T')"

# MARK: - The catalog, on SQLite and on PostgreSQL with a standby

work="$(mktemp -d /tmp/deployment-bench.XXXXXX)"
sqlite_db="$work/catalog.sqlite"
"$binary" generate --catalog bench --items "$items" --seed 1 --db "$sqlite_db" --quiet || fail "catalog generate failed"
workload="$(python3 "$here/workload.py" "$sqlite_db" bench bench "$work")" || fail "could not build the request lists"
version="$(sqlite3 -readonly "$sqlite_db" "SELECT version FROM catalogs WHERE id = 'bench'")"
sqlite3 -readonly "$sqlite_db" "SELECT '/api/v1/catalogs/bench/items/' || id FROM items
    WHERE key >= ($version << 32) AND key < (($version + 1) << 32) ORDER BY random()" >"$work/items.txt"
grep -qvE '^/api/v1/catalogs/bench/items/[A-Za-z0-9._-]+$' "$work/items.txt" && fail "an item id needs URL escaping"
# A twentieth of the records warms up; the rest are measured.
head -n $((items / 20)) "$work/items.txt" >"$work/items-warm.txt"
sed -i "1,$((items / 20))d" "$work/items.txt"

postgres_cluster_start shared_buffers=256MB max_connections=100 || fail "the PostgreSQL cluster did not start"
server="$POSTGRES_CLUSTER_URL"
psql "$server" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE deployment" >/dev/null
primary_db="${server/\/postgres\?//deployment?}"
"$binary" copy --db "$sqlite_db" --to "$primary_db" --quiet || fail "catalog copy into PostgreSQL failed"
postgres_replica_start || fail "the standby did not start"
standby_db="${POSTGRES_REPLICA_URL/\/postgres\?//deployment?}"
state="SELECT data_version FROM catalog_state"
for _ in $(seq 600); do
    [[ "$(psql "$standby_db" -Atc "$state" 2>/dev/null)" == "$(psql "$primary_db" -Atc "$state")" ]] && break
    sleep 0.1
done
[[ "$(psql "$standby_db" -Atc "$state")" == "$(psql "$primary_db" -Atc "$state")" ]] ||
    fail "the standby did not replay the catalog within a minute"
say "$(sed 's/ typo=.*//' <<<"$workload"); PostgreSQL $(psql "$server" -Atc 'SHOW server_version') with a standby;" \
    "set up in $SECONDS s"

# MARK: - Measuring

# measure KIND PATHS WARM URL…: wrk against every URL at once (16 connections in all), after a
# warm-up on WARM; prints one row: requests/s in all, the highest p50 and p99, errors.
measure() {
    local kind="$1" paths="$2" warm="$3" urls=() wrk_pids=() i
    shift 3
    urls=("$@")
    local connections=$((16 / ${#urls[@]})) threads=$((${#urls[@]} == 1 ? 2 : 1))
    for url in "${urls[@]}"; do
        timeout 60 wrk -t"$threads" -c"$connections" -d2s -s "$here/rotate.lua" "$url" -- "$warm" >/dev/null 2>&1 &
        wrk_pids+=("$!")
    done
    for pid in "${wrk_pids[@]}"; do wait "$pid" || true; done
    wrk_pids=()
    for ((i = 0; i < ${#urls[@]}; i++)); do
        timeout $((seconds + 60)) wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout 10s \
            -s "$here/rotate.lua" "${urls[i]}" -- "$paths" >"$work/wrk-$kind-$i.txt" 2>&1 &
        wrk_pids+=("$!")
    done
    for pid in "${wrk_pids[@]}"; do wait "$pid" || true; done
    local requests=0 duration=0 errors=0 p50=0 p99=0 line value
    for ((i = 0; i < ${#urls[@]}; i++)); do
        line="$(grep -m1 '^wrk-result ' "$work/wrk-$kind-$i.txt" || true)"
        [[ -n "$line" ]] || { cat "$work/wrk-$kind-$i.txt" >&2; fail "wrk printed no result ($kind)"; }
        requests=$((requests + $(field "$line" requests)))
        value="$(field "$line" duration_us)"
        ((value > duration)) && duration="$value"
        for value in connect_errors read_errors write_errors timeouts non2xx; do
            errors=$((errors + $(field "$line" "$value")))
        done
        value="$(field "$line" p50_us)"
        ((value > p50)) && p50="$value"
        value="$(field "$line" p99_us)"
        ((value > p99)) && p99="$value"
    done
    printf '  %-8s %8.0f req/s   p50 %6.2f ms   p99 %6.2f ms   errors %d\n' "$kind" \
        "$(awk -v r="$requests" -v d="$duration" 'BEGIN { print r * 1e6 / d }')" \
        "$(awk -v p="$p50" 'BEGIN { print p / 1000 }')" "$(awk -v p="$p99" 'BEGIN { print p / 1000 }')" "$errors"
}

# deployment TITLE URL…: both figures of one deployment.
deployment() {
    local title="$1"
    shift
    echo "$title (load average $(cut -d' ' -f1 /proc/loadavg))"
    measure search "$work/search-ours.txt" "$work/search-warm.txt" "$@"
    measure records "$work/items.txt" "$work/items-warm.txt" "$@"
}

echo
echo "Deployments on $(nproc) cores shared by wrk, the servers and PostgreSQL; $items records;" \
    "${seconds} s a figure; started $began UTC"
start_server sqlite "$sqlite_db"
deployment "1. one server on SQLite" "$server_url"
stop_process "$server_pid"

start_server first "$primary_db"
first_url="$server_url" first_pid="$server_pid"
start_server second "$primary_db"
deployment "2. two servers on one PostgreSQL" "$first_url" "$server_url"
stop_process "$server_pid"
stop_process "$first_pid"

# Servers started afresh: the response caches of the last ones hold the same requests.
start_server primary "$primary_db"
first_url="$server_url" first_pid="$server_pid"
start_server reader "$primary_db" --db-read "$standby_db"
deployment "3. one server on the primary, one reading from a standby" "$first_url" "$server_url"
curl -fsS "$server_url/metrics" | awk '
    /^catalog_database_reads_total\{/ { where = ($1 ~ /server="primary"/) ? "primary" : "standby"; reads[where] = $2 }
    END { total = reads["primary"] + reads["standby"]
          printf "  the read server'"'"'s reads: %d on the standby, %d on the primary (%.1f %% on the standby)\n",
              reads["standby"], reads["primary"], (total > 0 ? 100 * reads["standby"] / total : 0) }'
stop_process "$server_pid"
stop_process "$first_pid"
echo "ended $(date -u '+%F %T') UTC, $SECONDS s in all, load average $(cut -d' ' -f1 /proc/loadavg)"
