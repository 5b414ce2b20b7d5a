#!/usr/bin/env bash
# postgres-bench.sh: the PostgreSQL figures of `make bench`, each beside its peer in the same run,
# on a throwaway PostgreSQL cluster of this machine (durable settings, stopped and removed on exit).
#
#   Benchmarks/server/postgres-bench.sh [--catalog-binary PATH] [--bench-binary PATH] [--items N]
#       [--dir DIR] [--queries N] [--peer-seconds S] [--search-seconds S] [--paths N]
#
# `make bench` runs it with BENCH_ARGS (catalog-bench's --items, --dir, --queries and
# --peer-seconds go on to catalog-bench).
#
# 1. catalog-bench --postgres: the generated catalog (--items, default 1,000,000) imported into
#    SQLite and into PostgreSQL (records/s side by side), the same 1,000 as-you-type queries in
#    process on both engines and as naive PostgreSQL full text, and whether both engines answer
#    every query the same.
# 2. HTTP search: wrk -c16 over --paths as-you-type requests (default 20,000, mostly distinct, so
#    the response cache does not answer them all), against one `catalog serve --threads 2` on the
#    SQLite file (the peer), one on PostgreSQL, and two on the same PostgreSQL database (one wrk
#    each, 8 connections each, at the same time). Beside requests/s and p99: the CPU time per
#    request of each server process and of PostgreSQL (the postmaster and every backend).
#
# Two cores cannot show two servers scaling out; the CPU per request shows what each part costs.
# Exit status: 0 when the measurements ran; 1 on a set-up failure; 64 usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bench_name=postgres-bench
# shellcheck source=common.sh
source "$here/common.sh"
# shellcheck source=../../scripts/lib/postgres-cluster.sh
source "$root/scripts/lib/postgres-cluster.sh"
# The cluster first: it is the one thing that outlives this script if the rest fails.
trap 'trap "" PIPE; postgres_cluster_stop; cleanup' EXIT

binary="$root/.build/release/catalog"
bench="$root/Benchmarks/.build/release/catalog-bench"
items=1000000
dir=/tmp/catalog-bench
search_seconds=15
paths=20000
bench_args=()
while (($# > 0)); do
    case "$1" in
        --catalog-binary) binary="${2:?}"; shift 2 ;;
        --bench-binary) bench="${2:?}"; shift 2 ;;
        --items) items="${2:?}"; shift 2 ;;
        --dir) dir="${2:?}"; shift 2 ;;
        --queries | --peer-seconds) bench_args+=("$1" "${2:?}"); shift 2 ;;
        --search-seconds) search_seconds="${2:?}"; shift 2 ;;
        --paths) paths="${2:?}"; shift 2 ;;
        *) sed -n '4,5p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 64 ;;
    esac
done
for tool in wrk python3; do command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh bench)"; done
[[ -x "$binary" ]] || fail "no catalog binary at $binary (swift build -c release --product catalog)"
[[ -x "$bench" ]] || fail "no catalog-bench at $bench (cd Benchmarks && swift build -c release)"
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

# A server's settings rather than the tests' throwaway ones: durable commits, a buffer cache, and
# room for an import's WAL between checkpoints.
postgres_cluster_start shared_buffers=1GB max_wal_size=8GB checkpoint_timeout=30min max_connections=100 ||
    fail "the PostgreSQL cluster did not start"
server="$POSTGRES_CLUSTER_URL"
postmaster="$(postgres_cluster_pid)"
say "PostgreSQL $(psql "$server" -Atc 'SHOW server_version') on $postgres_cluster_dir (postmaster $postmaster)"

# MARK: - 1. In process: import, search, equal answers
"$bench" --items "$items" --dir "$dir" --catalog-binary "$binary" --postgres "$server" "${bench_args[@]}" ||
    fail "catalog-bench failed"
sqlite_db="$dir/bench.sqlite"
postgres_db="${server/\/postgres\?//catalog_bench?}"

# MARK: - 2. HTTP search: one server on SQLite, one and two on PostgreSQL
work="$(mktemp -d /tmp/postgres-bench.XXXXXX)"
"$bench" search-paths "$items" "$paths" bench >"$work/paths.txt" 2>"$work/paths.info"
say "HTTP search: $(cat "$work/paths.info") as-you-type requests, limit 50, $search_seconds s each"

# ticks PID: CPU clock ticks of PID and its descendants, with the children it reaped.
ticks() { python3 "$here/cpu.py" snapshot "$1" | awk '{print $3}'; }
hz="$(getconf CLK_TCK)"

# serve DB NAME: starts a server; sets $url_NAME and $pid_NAME.
serve() {
    start_server "$2" "$1"
    printf -v "url_$2" '%s' "$server_url"
    printf -v "pid_$2" '%s' "$server_pid"
    # Warm: the index loaded, the first pages read.
    timeout 60 wrk -t1 -c4 -d3s -s "$here/rotate.lua" "$server_url" -- "$work/paths.txt" >/dev/null 2>&1 || true
}

# measure LABEL ENGINE PID URL CONNECTIONS [PID URL CONNECTIONS]: wrk against each server at
# once; prints requests/s (all), the worst p99, and each server's CPU per request it served, and
# for ENGINE postgres PostgreSQL's CPU per request.
measure() {
    local label="$1" engine="$2" pids=() urls=() connections=() wrk_pids=() before=() after=() i
    shift 2
    while (($# > 0)); do
        pids+=("$1") urls+=("$2") connections+=("$3")
        shift 3
    done
    for pid in "${pids[@]}"; do before+=("$(ticks "$pid")"); done
    local before_pg after_pg
    before_pg="$(ticks "$postmaster")"
    for ((i = 0; i < ${#urls[@]}; i++)); do
        timeout $((search_seconds + 60)) wrk -t$((connections[i] > 8 ? 2 : 1)) -c"${connections[i]}" \
            -d"${search_seconds}s" --timeout 10s -s "$here/rotate.lua" "${urls[i]}" -- "$work/paths.txt" \
            >"$work/wrk-$engine-${#urls[@]}-$i.txt" 2>&1 &
        wrk_pids+=("$!")
    done
    for pid in "${wrk_pids[@]}"; do wait "$pid" || true; done
    for pid in "${pids[@]}"; do after+=("$(ticks "$pid")"); done
    after_pg="$(ticks "$postmaster")"
    local requests=0 errors=0 p99=0 cpu="" names=(A B C D) line served p
    for ((i = 0; i < ${#urls[@]}; i++)); do
        line="$(grep -m1 '^wrk-result ' "$work/wrk-$engine-${#urls[@]}-$i.txt" || true)"
        [[ -n "$line" ]] || { cat "$work/wrk-$engine-${#urls[@]}-$i.txt" >&2; fail "wrk printed no result ($label)"; }
        served="$(field "$line" requests)"
        requests=$((requests + served))
        errors=$((errors + $(field "$line" non2xx) + $(field "$line" timeouts)))
        p="$(field "$line" p99_us)"
        ((p > p99)) && p99="$p"
        cpu+="server ${names[i]} $(per_request $((after[i] - before[i])) "$served") µs, "
    done
    if [[ "$engine" == postgres ]]; then
        cpu+="PostgreSQL $(per_request $((after_pg - before_pg)) "$requests") µs"
    else
        cpu="${cpu%, }"
    fi
    printf '  %-30s %6.0f req/s  p99 %6.1f ms  errors %d  CPU per request: %s\n' \
        "$label" "$(awk -v r="$requests" -v s="$search_seconds" 'BEGIN { print r / s }')" \
        "$(awk -v p="$p99" 'BEGIN { print p / 1000 }')" "$errors" "$cpu"
}

# per_request TICKS REQUESTS: microseconds of CPU per request.
per_request() {
    awk -v t="$1" -v r="$2" -v hz="$hz" 'BEGIN { printf "%.0f", (r > 0 ? t * 1e6 / hz / r : 0) }'
}

echo
echo "HTTP as-you-type search ($(nproc) cores shared by wrk, the servers and PostgreSQL)"
serve "$sqlite_db" sqlite
measure "one server, SQLite (peer)" sqlite "$pid_sqlite" "$url_sqlite" 16
stop_process "$pid_sqlite"
serve "$postgres_db" one
measure "one server, PostgreSQL" postgres "$pid_one" "$url_one" 16
serve "$postgres_db" two
measure "two servers, one PostgreSQL" postgres "$pid_one" "$url_one" 8 "$pid_two" "$url_two" 8
stop_process "$pid_one"
stop_process "$pid_two"
