#!/usr/bin/env bash
# scale-bench.sh: the same figures at two sizes, the larger beside the smaller measured in the same
# run (issue 20's 10,000,000 records: `make bench-10m`).
#
#   Benchmarks/server/scale-bench.sh [--catalog-binary PATH] [--bench-binary PATH] [--dir DIR]
#       [--items N] [--base N] [--postgres URL]
#
# For the base size (1,000,000) and then the large one (10,000,000), each in a file of its own:
#   - the records written as XML (`catalog generate` into a scratch file, `catalog export --format
#     xml`), then `catalog import` of that file, timed, with its peak RSS (goal at the large size:
#     at most 11× the base's time, i.e. linear);
#   - search in process, catalog-bench's 1,000 as-you-type queries (`catalog-bench latency`):
#     p50, p99 (goal: p99 at most 2× the base's);
#   - `catalog serve` on the file, 2,000 searches and 200 records over HTTP, its memory sampled
#     from /proc: anonymous (RssAnon) apart from mapped file pages (goal: anonymous at most 2×);
#   - the offline snapshot downloaded from that server, and `catalog export --format json`, each
#     with the peak memory of the process that streams it (goal: flat, about the same at both sizes);
#   - with --postgres URL, the large import into that PostgreSQL database and the same searches
#     there (goals: import ≥ 0.5× SQLite's rate, search p99 ≤ 2× SQLite's).
#
# Files go in --dir (default /tmp/catalog-scale; about 1.5 GB per million records). Exit status 0
# when the measurements ran, goals met or not; 1 on a set-up failure; 64 on a usage error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
catalog="$root/.build/release/catalog"
bench="$root/Benchmarks/.build/release/catalog-bench"
dir=/tmp/catalog-scale
items=10000000
base=1000000
postgres=""

usage() {
    sed -n '4,5p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2
    exit 64
}
while (($# > 0)); do
    case "$1" in
        --catalog-binary) catalog="${2:?}"; shift 2 ;;
        --bench-binary) bench="${2:?}"; shift 2 ;;
        --dir) dir="${2:?}"; shift 2 ;;
        --items) items="${2:?}"; shift 2 ;;
        --base) base="${2:?}"; shift 2 ;;
        --postgres) postgres="${2:?}"; shift 2 ;;
        *) usage ;;
    esac
done
[[ "$items" =~ ^[0-9]+$ && "$base" =~ ^[0-9]+$ && "$base" -ge 1 && "$items" -gt "$base" ]] || usage
for tool in "$catalog" "$bench"; do
    [[ -x "$tool" ]] || { echo "scale-bench: $tool is missing (make bench builds both)" >&2; exit 1; }
done
mkdir -p "$dir"

say() { echo "scale-bench: $*" >&2; }
fail() {
    echo "scale-bench: $*" >&2
    exit 1
}
load() { cut -d' ' -f1 /proc/loadavg; }
# Arithmetic on decimals: calc EXPRESSION [FORMAT] (awk, so that no calculator package is needed).
calc() { awk "BEGIN { printf \"${2:-%.2f}\", $1 }"; }

server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# The peak of a /proc/PID/status field (kB) over the samples in a file, in MB.
peak() { awk -v key="$1:" '$1 == key && $2 > max { max = $2 } END { printf "%.1f", max / 1024 }' "$2"; }

# Runs a command under GNU time, its memory sampled from /proc every 0.2 s; prints "SECONDS
# PEAK_RSS_MB PEAK_ANONYMOUS_MB". RSS counts the database's pages that SQLite maps (the kernel's
# to drop); anonymous memory is the process's own.
timed() {
    local report="$dir/time.txt" samples="$dir/samples.txt" child=""
    : >"$samples"
    /usr/bin/time -f '%e %M' -o "$report" "$@" >/dev/null &
    local timer=$!
    while kill -0 "$timer" 2>/dev/null; do
        [[ -n "$child" ]] || child="$(awk '{ print $1 }' "/proc/$timer/task/$timer/children" 2>/dev/null)"
        [[ -z "$child" ]] || cat "/proc/$child/status" >>"$samples" 2>/dev/null || true
        sleep 0.2
    done
    wait "$timer" || fail "failed: $*"
    printf '%s %s\n' "$(awk '{ printf "%s %.0f", $1, $2 / 1024 }' "$report")" "$(peak RssAnon "$samples")"
}

declare -A figures

measure() {
    local n="$1" label="$2"
    local xml="$dir/records-$label.xml" db="$dir/scale-$label.sqlite"
    if [[ ! -s "$xml" ]]; then
        say "$label: generating $n records and writing them as XML"
        rm -f "$dir/generated-$label.sqlite"*
        "$catalog" generate --catalog bench --items "$n" --seed 1 --quiet --db "$dir/generated-$label.sqlite" ||
            fail "catalog generate failed"
        "$catalog" export --catalog bench --format xml --db "$dir/generated-$label.sqlite" >"$xml.partial" ||
            fail "catalog export failed"
        mv "$xml.partial" "$xml"
        rm -f "$dir/generated-$label.sqlite"*
    fi
    rm -f "$db"*
    say "$label: importing (load $(load))"
    read -r seconds rss anon < <(timed "$catalog" import "$xml" --catalog bench --db "$db" --quiet)
    figures[$label.import]="$seconds"
    figures[$label.import_rss]="$rss"
    printf '  %-40s %s s, %s records/s, peak RSS %s MB, anonymous %s MB (load %s)\n' "import ($label)" \
        "$seconds" "$(calc "$n / $seconds" %.0f)" "$rss" "$anon" "$(load)"

    local latency
    latency="$("$bench" latency "$db")" || fail "catalog-bench latency failed"
    figures[$label.p99]="$(sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p' <<<"$latency")"
    printf '  %-40s %s (load %s)\n' "search in process ($label)" "$latency" "$(load)"

    "$catalog" serve --db "$db" --port 0 --threads 2 --quiet >"$dir/serve.out" 2>"$dir/serve.err" &
    server_pid=$!
    local url=""
    for _ in $(seq 1 1200); do
        url="$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$dir/serve.out" | head -n 1)"
        [[ -n "$url" ]] && break
        kill -0 "$server_pid" 2>/dev/null || fail "catalog serve exited: $(cat "$dir/serve.err")"
        sleep 0.1
    done
    [[ -n "$url" ]] || fail "catalog serve did not listen within 120 s"
    : >"$dir/status.txt"
    (while kill -0 "$server_pid" 2>/dev/null; do cat "/proc/$server_pid/status" >>"$dir/status.txt" 2>/dev/null; sleep 0.2; done) &
    local sampler=$!
    python3 - "$url" <<'EOF' || fail "the HTTP searches failed"
import sys, urllib.parse, urllib.request
url = sys.argv[1]
words = ["lamp", "kaffee", "stuhl", "garden", "light", "wasserdicht", "table", "hammer", "sofa", "kitchen"]
for round in range(20):
    for word in words:
        for end in range(1, len(word) + 1):
            query = urllib.parse.quote(word[:end] + ("x" * (round % 3 == 2 and end > 5)))
            urllib.request.urlopen(f"{url}/api/v1/catalogs/bench/search?q={query}&limit=50").read()
import json
answer = json.load(urllib.request.urlopen(f"{url}/api/v1/catalogs/bench/search?q=a&limit=200"))
for hit in answer["items"]:
    urllib.request.urlopen(f"{url}/api/v1/catalogs/bench/items/{urllib.parse.quote(hit['id'])}").read()
EOF
    local before_snapshot
    before_snapshot="$(peak RssAnon "$dir/status.txt")"
    curl -fsS -o "$dir/snapshot-$label.sqlite" "$url/api/v1/catalogs/bench/snapshot" || fail "snapshot download failed"
    kill -TERM "$server_pid"
    wait "$server_pid" || true
    server_pid=""
    wait "$sampler" 2>/dev/null || true
    figures[$label.anon]="$before_snapshot"
    printf '  %-40s anonymous %s MB (during the snapshot %s MB); mapped file %s MB apart (load %s)\n' \
        "server memory ($label)" "$before_snapshot" "$(peak RssAnon "$dir/status.txt")" \
        "$(peak RssFile "$dir/status.txt")" "$(load)"
    read -r seconds rss anon < <(timed "$catalog" export --catalog bench --format json --db "$db")
    figures[$label.export_anon]="$anon"
    figures[$label.snapshot_anon]="$(peak RssAnon "$dir/status.txt")"
    printf '  %-40s %s s, peak RSS %s MB (mapped database pages with it), anonymous %s MB; snapshot %s MB\n' \
        "export as JSON ($label)" "$seconds" "$rss" "$anon" "$(du -m "$dir/snapshot-$label.sqlite" | cut -f1)"
    rm -f "$dir/snapshot-$label.sqlite"
}

echo "scale-bench: started $(date -u '+%F %T') UTC, load $(load), $(nproc) cores; $base and $items records"
measure "$base" base
measure "$items" large

verdict() { if [[ "$(calc "$1" %d)" == 1 ]]; then echo met; else echo MISSED; fi; }
ratio() { calc "$1 / $2"; }
scale="$(calc "$items / $base")"
echo "At $items records beside $base (×$scale):"
import_ratio="$(ratio "${figures[large.import]}" "${figures[base.import]}")"
printf '  %-40s %s× (goal ≤ %.1f×, linear) %s\n' "import time" "$import_ratio" "$(calc "$scale * 1.1")" \
    "$(verdict "$import_ratio <= $scale * 1.1")"
p99_ratio="$(ratio "${figures[large.p99]}" "${figures[base.p99]}")"
printf '  %-40s %s× (goal ≤ 2×) %s\n' "search p99" "$p99_ratio" "$(verdict "$p99_ratio <= 2")"
anon_ratio="$(ratio "${figures[large.anon]}" "${figures[base.anon]}")"
printf '  %-40s %s× (goal ≤ 2×) %s\n' "server anonymous memory" "$anon_ratio" "$(verdict "$anon_ratio <= 2")"
export_ratio="$(ratio "${figures[large.export_anon]}" "${figures[base.export_anon]}")"
printf '  %-40s %s× (streamed: about 1×) %s\n' "export, anonymous memory" "$export_ratio" \
    "$(verdict "$export_ratio <= 1.25")"
snapshot_ratio="$(ratio "${figures[large.snapshot_anon]}" "${figures[base.snapshot_anon]}")"
printf '  %-40s %s× (streamed: about the server'"'"'s own ratio) %s\n' "server memory with the snapshot" \
    "$snapshot_ratio" "$(verdict "$snapshot_ratio <= 2")"

if [[ -n "$postgres" ]]; then
    say "PostgreSQL: importing $items records (load $(load))"
    read -r seconds rss _ < <(timed "$catalog" import "$dir/records-large.xml" --catalog bench --db "$postgres" --quiet)
    rate_ratio="$(ratio "${figures[large.import]}" "$seconds")"
    printf '  %-40s %s s, peak RSS %s MB; %s× SQLite'"'"'s rate (goal ≥ 0.5×) %s\n' "PostgreSQL import" "$seconds" \
        "$rss" "$rate_ratio" "$(verdict "$rate_ratio >= 0.5")"
    latency="$("$bench" latency "$postgres")" || fail "catalog-bench latency on PostgreSQL failed"
    pg_p99="$(sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p' <<<"$latency")"
    pg_ratio="$(ratio "$pg_p99" "${figures[large.p99]}")"
    printf '  %-40s %s; %s× SQLite'"'"'s p99 (goal ≤ 2×) %s\n' "PostgreSQL search" "$latency" "$pg_ratio" \
        "$(verdict "$pg_ratio <= 2")"
fi
echo "scale-bench: ended $(date -u '+%F %T') UTC, load $(load)"
