#!/usr/bin/env bash
# server-bench.sh: `catalog serve` under load, each figure beside a peer measured in the same run.
#
#   Benchmarks/server/server-bench.sh [--catalog-binary PATH] [--db FILE] [--catalog ID]
#       [--item-seconds S] [--search-seconds S] [--peer-seconds S] [--soak-seconds S] [--edit-rate N]
#       [--peers-only]
#
# 1. Item JSON by id: wrk -t2 -c64 against /api/v1/catalogs/ID/items/ITEM, beside nginx serving
#    the same bytes as a static file (worker_processes 2, access_log off).
# 2. As-you-type search: up to 40,000 distinct queries as people type them (every title word letter
#    by letter, two-word queries, words with one typo; workload.py), each request the next one, so
#    the response cache cannot stand in; typo tolerance is always on. Against
#    /search?q=…&limit=50; beside Datasette running FTS5 `MATCH '"word" "prefix"*' ORDER BY rank
#    LIMIT 50` on the same file (catalog-bench's peer_fts table over title, subtitle and
#    description, built here when missing; FTS5 has no typo tolerance). The warm-up uses other
#    queries. Then the same queries with filter=price 10..50 and facets=category, beside Datasette's
#    search_filtered (FTS5 MATCH with a WHERE on the price, the categories of every match counted),
#    at 16 connections and with one client.
# 3. Soak: 100 connections of mixed requests (pages, items, search): errors and peak RSS.
# 4. Edits under search load: on a copy of the file, a second server's searches (-c16) while
#    edit-load.py changes --edit-rate records a second (default 50; 0 skips it) through the API
#    (PUT with an editor's key), beside the same searches just before (goal: at most 10% fewer
#    searches a second), and the same searches once more after the changes.
# The server's memory (/proc/PID/status every 0.2 s from its start): anonymous (RssAnon, its own)
# apart from mapped file pages (RssFile, the database through mmap); goal ≤ 100 MB anonymous.
#
# The server runs with --threads 2 --quiet on a port it picks; nginx and Datasette on free
# loopback ports from 18000. Every process started here is stopped on exit.
#
# Database: --db FILE (generated there when missing), else catalog-bench's
# /tmp/catalog-bench/bench.sqlite when present, else Benchmarks/.cache/server-bench.sqlite
# (a 1,000,000-record catalog, generated once, about two minutes). The catalog is --catalog,
# else the file's first catalog.
#
# --peers-only measures nginx and Datasette alone (the item's JSON then comes from
# `catalog show --json`), to check the set-up without a server.
#
# Exit status: 0 when the measurements ran, goals met or not; 1 on a set-up failure; 64 usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

binary="$root/.build/release/catalog"
database=""
catalog=""
item_seconds=10
search_seconds=10
peer_seconds=20
soak_seconds=30
edit_rate=50
peers_only=0

usage() {
    sed -n '3,4p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2
    exit 64
}

while (($# > 0)); do
    case "$1" in
        --catalog-binary) binary="${2:?}"; shift 2 ;;
        --db) database="${2:?}"; shift 2 ;;
        --catalog) catalog="${2:?}"; shift 2 ;;
        --item-seconds) item_seconds="${2:?}"; shift 2 ;;
        --search-seconds) search_seconds="${2:?}"; shift 2 ;;
        --peer-seconds) peer_seconds="${2:?}"; shift 2 ;;
        --soak-seconds) soak_seconds="${2:?}"; shift 2 ;;
        --edit-rate) edit_rate="${2:?}"; shift 2 ;;
        --peers-only) peers_only=1; shift ;;
        -h | --help) usage ;;
        *) echo "server-bench: unknown option $1" >&2; usage ;;
    esac
done
for value in "$item_seconds" "$search_seconds" "$peer_seconds" "$soak_seconds"; do
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || { echo "server-bench: durations are whole seconds" >&2; exit 64; }
done
[[ "$edit_rate" =~ ^[0-9]+$ ]] || { echo "server-bench: --edit-rate is a whole number" >&2; exit 64; }

bench_name=server-bench
# shellcheck source=common.sh
source "$here/common.sh"

# A loopback port nobody listens on, from 18000 up (nginx and Datasette need one given).
free_port() {
    python3 - "$1" <<'EOF'
import socket, sys
for port in range(int(sys.argv[1]), 19000):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        print(port)
        break
else:
    sys.exit("no free port")
EOF
}

# Waits until URL answers 200, for at most SECONDS, while PID lives; shows LOG if it exits.
wait_for_http() {
    local url="$1" pid="$2" seconds="$3" name="$4" log="$5"
    for _ in $(seq $((seconds * 10))); do
        if ! kill -0 "$pid" 2>/dev/null; then
            tail -n 20 "$log" >&2
            fail "$name exited while starting"
        fi
        if [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)" == "200" ]]; then
            return 0
        fi
        sleep 0.1
    done
    fail "$name did not answer $url within $seconds s"
}

# MARK: - Tools

for tool in wrk nginx curl python3 sqlite3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh bench installs it)"
done
# Datasette: from python3, else from a virtual environment under Benchmarks/.cache (Debian's
# own python3 refuses `pip install` outside one), installed with pip when missing.
datasette_python=python3
venv="$root/Benchmarks/.cache/datasette-venv"
if ! python3 -c "import datasette" 2>/dev/null; then
    if [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c "import datasette" 2>/dev/null; then
        datasette_python="$venv/bin/python"
    else
        say "installing datasette with pip"
        if ! python3 -m pip install --quiet datasette; then
            say "pip could not install into python3; installing into $venv"
            python3 -m venv "$venv" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
            "$venv/bin/python" -m pip install --quiet datasette || fail "pip could not install datasette"
            datasette_python="$venv/bin/python"
        fi
    fi
fi
datasette_version="$("$datasette_python" -m datasette --version 2>/dev/null | awk '{print $NF}')"
[[ -n "$datasette_version" ]] || fail "$datasette_python -m datasette does not run"
[[ -x "$binary" ]] || fail "no catalog binary at $binary (swift build -c release --product catalog)"

# MARK: - Database

bench_database "$database"

query() {
    sqlite3 -readonly -batch -noheader "$database" "$1" || fail "cannot read $database: $1"
}
if [[ -z "$catalog" ]]; then
    catalog="$(query "SELECT id FROM catalogs ORDER BY number LIMIT 1")"
    [[ -n "$catalog" ]] || fail "$database holds no catalog"
fi
[[ "$catalog" =~ ^[A-Za-z0-9._-]+$ ]] || fail "catalog id \"$catalog\" needs URL escaping; pick another with --catalog"
catalog_number="$(query "SELECT number FROM catalogs WHERE id = '$catalog'")"
[[ -n "$catalog_number" ]] || fail "no catalog \"$catalog\" in $database"
catalog_version="$(query "SELECT version FROM catalogs WHERE id = '$catalog'")"

# Datasette's index: the FTS5 table catalog-bench's peer builds (peer_fts: title, subtitle,
# description, rowid = items.key), made here when the file has none for the catalog's version.
peer_rows="$(query "SELECT count(*) FROM sqlite_schema WHERE name = 'peer_fts'")"
if [[ "$peer_rows" != 0 ]]; then
    peer_rows="$(query "SELECT count(*) FROM (SELECT rowid FROM peer_fts WHERE rowid >= ($catalog_version << 32)
        AND rowid < (($catalog_version + 1) << 32) LIMIT 1)")"
fi
if [[ "$peer_rows" == 0 ]]; then
    say "building Datasette's FTS5 table peer_fts for catalog \"$catalog\" (version $catalog_version)"
    sqlite3 -batch "$database" "DROP TABLE IF EXISTS peer_fts;
        CREATE VIRTUAL TABLE peer_fts USING fts5 (title, subtitle, description,
            tokenize = 'unicode61 remove_diacritics 2');
        INSERT INTO peer_fts (rowid, title, subtitle, description)
            SELECT key, title, subtitle, json_extract(record, '\$.description') FROM items
            WHERE version = $catalog_version;" || fail "could not build peer_fts in $database"
fi

# Datasette names a database after its file name without the extension.
datasette_name="$(basename "$database")"
datasette_name="${datasette_name%.*}"

work="$(mktemp -d /tmp/server-bench.XXXXXX)"
chmod 755 "$work" # nginx workers run as nobody and read $work/www
results="$work/results.txt"
: >"$results"

workload="$(python3 "$here/workload.py" "$database" "$catalog" "$datasette_name" "$work")" ||
    fail "could not build the request lists"
records="$(sed -n 's/.*records=\([0-9]*\).*/\1/p' <<<"$workload")"
prefixes="$(sed -n 's/.*prefixes=\([0-9]*\).*/\1/p' <<<"$workload")"
words="$(sed -n 's/.*words=\([0-9]*\).*/\1/p' <<<"$workload")"
distinct="$(sed -n 's/.*distinct=\([0-9]*\).*/\1/p' <<<"$workload")"
kinds="$(grep -o 'single=[0-9]* typo=[0-9]* pair=[0-9]*' <<<"$workload" || true)"
echo "database $database" >>"$results"
echo "meta catalog=$catalog records=$records words=$words prefixes=$prefixes distinct=$distinct $kinds" \
    "cores=$(nproc) datasette=$datasette_version nginx=$(nginx -v 2>&1 | sed 's/.*nginx\///')" \
    "peers_only=$peers_only" "load=$(cut -d' ' -f1 /proc/loadavg)" >>"$results"
say "catalog \"$catalog\" ($records records) in $database; $words words, $prefixes queries ($distinct distinct; $kinds)"

# MARK: - Measuring

# run_wrk NAME SECONDS WRK-ARGS…: runs wrk (bounded by timeout), keeps its output, records
# the wrk-result line under NAME. A run that prints no result is a set-up failure.
run_wrk() {
    local name="$1" seconds="$2"
    shift 2
    local log="$work/wrk-$name.txt" before after
    before="$(python3 "$here/cpu.py" snapshot $$)"
    timeout --signal=INT $((seconds + 60)) wrk -d"${seconds}s" "$@" >"$log" 2>&1 || true
    after="$(python3 "$here/cpu.py" snapshot $$)"
    local line
    line="$(grep -m1 '^wrk-result ' "$log" || true)"
    if [[ -z "$line" ]]; then
        cat "$log" >&2
        fail "wrk printed no result for $name"
    fi
    echo "$name ${line#wrk-result } seconds=$seconds other_cpu_pct=$(python3 "$here/cpu.py" share "$before" "$after")" \
        >>"$results"
    python3 "$here/summary.py" --line "$name" "$results"
}

# warm_up SECONDS WRK-ARGS…: a short unrecorded run.
warm_up() {
    local seconds="$1"
    shift
    timeout --signal=INT $((seconds + 30)) wrk -d"${seconds}s" "$@" >/dev/null 2>&1 || true
}

# start_catalog FILE NAME: catalog serve on FILE (its output in $work/NAME.out and .err), as the
# benchmark runs it; sets $started_pid and $started_url once it listens.
start_catalog() {
    local file="$1" name="$2" url=""
    # wrk sends everything from one address: with a per-client CPU budget it would measure the
    # slow lane, not the server.
    "$binary" serve --db "$file" --host 127.0.0.1 --port 0 --threads 2 --quiet --client-cpu-budget 0 \
        >"$work/$name.out" 2>"$work/$name.err" &
    started_pid=$!
    started_pids+=("$started_pid")
    for _ in $(seq 1200); do
        url="$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$work/$name.out" | head -n 1)"
        [[ -n "$url" ]] && break
        if ! kill -0 "$started_pid" 2>/dev/null; then
            cat "$work/$name.err" >&2
            fail "catalog serve exited while starting"
        fi
        sleep 0.1
    done
    [[ -n "$url" ]] || fail "catalog serve printed no \"listening on\" line within 120 s"
    started_url="${url%/}"
}

catalog_pid=""
catalog_url=""
# Whether our server is measured and still running (a crash is reported, not a set-up failure).
ours() {
    ((peers_only == 0)) && kill -0 "$catalog_pid" 2>/dev/null
}
if ((peers_only == 0)); then
    start_catalog "$database" catalog
    catalog_pid="$started_pid"
    catalog_url="$started_url"
    say "catalog serve (pid $catalog_pid) listening on $catalog_url"

    # /proc/PID/status every 0.2 s for the whole run: VmRSS, RssAnon (heap), RssFile (mapped file
    # pages), VmHWM, and the phase of the run ($work/phase, set by phase NAME below).
    echo start >"$work/phase"
    (
        while kill -0 "$catalog_pid" 2>/dev/null; do
            awk -v phase="$(cat "$work/phase" 2>/dev/null)" \
                '/^(VmRSS|VmHWM|RssAnon|RssFile):/ { printf "%s%s ", $1, $2 } END { print "phase:" phase }' \
                "/proc/$catalog_pid/status" 2>/dev/null || break
            sleep 0.2
        done
    ) >"$work/rss.txt" &
    sampler_pid=$!
    started_pids+=("$sampler_pid")
fi

# phase NAME: what the run does from now on, for the memory samples.
phase() {
    if ((peers_only == 0)); then echo "$1" >"$work/phase"; fi
}

# MARK: - 1. Item JSON by id, beside nginx serving the same bytes

item_id="$(cat "$work/item-id.txt")"
[[ "$item_id" =~ ^[A-Za-z0-9._-]+$ ]] || fail "item id \"$item_id\" needs URL escaping"
item_path="/api/v1/catalogs/$catalog/items/$item_id"
item_file="$work/www$item_path"
mkdir -p "$(dirname "$item_file")"
if ((peers_only == 0)); then
    status="$(curl -sS -o "$item_file" -w '%{http_code}' "$catalog_url$item_path")" ||
        fail "curl $catalog_url$item_path failed"
    [[ "$status" == "200" ]] || fail "GET $item_path answered $status"
else
    "$binary" show --catalog "$catalog" "$item_id" --json --db "$database" >"$item_file" ||
        fail "catalog show failed"
fi
[[ -s "$item_file" ]] || fail "empty item JSON"
chmod -R a+rX "$work/www"
item_bytes="$(wc -c <"$item_file")"
echo "item bytes=$item_bytes id=$item_id" >>"$results"

nginx_port="$(free_port 18000)"
sed -e "s#@DIR@#$work#g" -e "s#@PORT@#$nginx_port#g" "$here/nginx.conf.in" >"$work/nginx.conf"
nginx -t -q -e "$work/nginx-error.log" -p "$work" -c "$work/nginx.conf" || fail "nginx rejects its configuration"
nginx -e "$work/nginx-error.log" -p "$work" -c "$work/nginx.conf" >"$work/nginx.out" 2>&1 &
nginx_pid=$!
started_pids+=("$nginx_pid")
nginx_url="http://127.0.0.1:$nginx_port"
wait_for_http "$nginx_url$item_path" "$nginx_pid" 10 nginx "$work/nginx-error.log"
curl -sS -o "$work/item-nginx.json" "$nginx_url$item_path" || fail "curl against nginx failed"
cmp -s "$item_file" "$work/item-nginx.json" || fail "nginx does not serve the same bytes"
say "item $item_id: $item_bytes bytes of JSON; nginx (pid $nginx_pid) on port $nginx_port"

if ours; then
    phase items
    warm_up 2 -t2 -c64 "$catalog_url$item_path"
    run_wrk item_catalog "$item_seconds" -t2 -c64 -s "$here/report.lua" "$catalog_url$item_path"
fi
warm_up 2 -t2 -c64 "$nginx_url$item_path"
run_wrk item_nginx "$item_seconds" -t2 -c64 -s "$here/report.lua" "$nginx_url$item_path"
stop_process "$nginx_pid"

# MARK: - 2. As-you-type search, beside Datasette

if ours; then
    phase search
    first_search="$(head -n 1 "$work/search-ours.txt")"
    status="$(curl -sS -o "$work/search-first.json" -w '%{http_code}' "$catalog_url$first_search")" ||
        fail "curl $catalog_url$first_search failed"
    [[ "$status" == "200" ]] || fail "GET $first_search answered $status"
    grep -q '"items"' "$work/search-first.json" || fail "GET $first_search: no \"items\" in the answer"
    warm_up 3 -t2 -c16 -s "$here/rotate.lua" "$catalog_url" -- "$work/search-warm.txt"
    run_wrk search_catalog "$search_seconds" -t2 -c16 --timeout 10s -s "$here/rotate.lua" "$catalog_url" \
        -- "$work/search-ours.txt"
    # 2b. The same queries with a number range and a facet (filtered-ours.txt).
    phase filtered
    first_filtered="$(head -n 1 "$work/filtered-ours.txt")"
    status="$(curl -sS -o "$work/filtered-first.json" -w '%{http_code}' "$catalog_url$first_filtered")" ||
        fail "curl $catalog_url$first_filtered failed"
    [[ "$status" == "200" ]] || { cat "$work/filtered-first.json" >&2; fail "GET $first_filtered answered $status"; }
    grep -q '"facets"' "$work/filtered-first.json" || fail "GET $first_filtered: no \"facets\" in the answer"
    run_wrk filtered_catalog "$search_seconds" -t2 -c16 --timeout 10s -s "$here/rotate.lua" "$catalog_url" \
        -- "$work/filtered-ours.txt"
    # 2c. The same with one keep-alive client: what one request costs, without 16 connections'
    # queue on two cores in front of it (the p99 goal's figure; -c16 gives the throughput).
    run_wrk filtered_catalog_one "$search_seconds" -t1 -c1 --timeout 10s -s "$here/rotate.lua" "$catalog_url" \
        -- "$work/filtered-ours.txt"
fi

phase peers
datasette_port="$(free_port 18100)"
sed -e "s#@DATABASE@#$datasette_name#g" -e "s#@NUMBER@#$catalog_number#g" \
    "$here/datasette-metadata.json.in" >"$work/datasette-metadata.json"
"$datasette_python" -m datasette serve -i "$database" --host 127.0.0.1 --port "$datasette_port" \
    --metadata "$work/datasette-metadata.json" --setting sql_time_limit_ms 60000 \
    >"$work/datasette.out" 2>"$work/datasette.err" &
datasette_pid=$!
started_pids+=("$datasette_pid")
datasette_url="http://127.0.0.1:$datasette_port"
wait_for_http "$datasette_url/-/versions.json" "$datasette_pid" 120 Datasette "$work/datasette.err"
first_peer="$(head -n 1 "$work/search-peer.txt")"
status="$(curl -sS -o "$work/peer-first.json" -w '%{http_code}' --max-time 60 "$datasette_url$first_peer")" ||
    fail "curl $datasette_url$first_peer failed"
[[ "$status" == "200" ]] || { cat "$work/peer-first.json" >&2; fail "Datasette answered $status to $first_peer"; }
say "Datasette $datasette_version (pid $datasette_pid) on port $datasette_port"
warm_up 3 -t2 -c8 --timeout 30s -s "$here/rotate.lua" "$datasette_url" -- "$work/search-peer.txt"
run_wrk search_datasette "$peer_seconds" -t2 -c8 --timeout 30s -s "$here/rotate.lua" "$datasette_url" \
    -- "$work/search-peer.txt"
first_filtered_peer="$(head -n 1 "$work/filtered-peer.txt")"
status="$(curl -sS -o "$work/filtered-peer-first.json" -w '%{http_code}' --max-time 60 \
    "$datasette_url$first_filtered_peer")" || fail "curl $datasette_url$first_filtered_peer failed"
[[ "$status" == "200" ]] || {
    cat "$work/filtered-peer-first.json" >&2
    fail "Datasette answered $status to $first_filtered_peer"
}
run_wrk filtered_datasette "$peer_seconds" -t2 -c8 --timeout 30s -s "$here/rotate.lua" "$datasette_url" \
    -- "$work/filtered-peer.txt"
stop_process "$datasette_pid"

# MARK: - 3. Soak: 100 connections of mixed requests

if ours; then
    page_count="$(python3 "$here/workload.py" --pages "$catalog_url" "$catalog" "$work")" ||
        fail "could not follow the item pages"
    say "soak: ${page_count#pages=} item pages, items and search mixed"
    python3 "$here/workload.py" --mix "$work" || fail "could not mix the soak requests"

    phase soak
    run_wrk soak "$soak_seconds" -t2 -c100 --timeout 5s -s "$here/rotate.lua" "$catalog_url" -- "$work/soak.txt"
    stop_process "$sampler_pid"
    awk '{ for (i = 1; i <= NF; i++) { split($i, kv, ":"); if (kv[2] + 0 > peak[kv[1]]) peak[kv[1]] = kv[2] + 0 } }
         END { printf "rss samples=%d vmhwm_kb=%d vmrss_kb=%d rssanon_kb=%d rssfile_kb=%d\n",
               NR, peak["VmHWM"], peak["VmRSS"], peak["RssAnon"], peak["RssFile"] }' \
        "$work/rss.txt" >>"$results"
    # What holds the anonymous memory, as the server counts it (its /metrics, served to loopback).
    if curl -fsS "$catalog_url/metrics" -o "$work/metrics.txt"; then
        {
            # The peak of each phase: what the server had grown to by its end.
            awk '{ anon = 0; name = ""
                   for (i = 1; i <= NF; i++) {
                       split($i, kv, ":")
                       if (kv[1] == "RssAnon") anon = kv[2] + 0
                       if (kv[1] == "phase") name = kv[2]
                   }
                   if (name == "") next
                   if (!(name in peak)) order[++count] = name
                   if (anon > peak[name]) peak[name] = anon }
                 END { printf "Anonymous memory, the peak of each phase:"
                       for (i = 1; i <= count; i++) printf " %s %.1f MB%s", order[i], peak[order[i]] / 1024, (i < count ? "," : "")
                       print "" }' "$work/rss.txt"
            echo "What the server's caches hold after the soak (its /metrics):"
            awk '/^catalog_(search_cache_bytes|search_index_bytes|thumbnail_cache_bytes|search_cache_entries|process_resident_bytes|heap_free_bytes)/ {
                     printf "  %-60s %12.1f %s\n", $1, ($1 ~ /bytes/ ? $2 / 1048576 : $2), ($1 ~ /bytes/ ? "MB" : "entries") }
                 /^catalog_heap_trim/ { printf "  %-60s %12.3f\n", $1, $2 }
                 /^catalog_cache_hit_ratio/ { printf "  %-60s %12.2f\n", $1, $2 }' "$work/metrics.txt"
            echo "  (search_index_bytes: the loaded indexes' lexicons and price columns, mapped files (file pages,"
            echo "  not anonymous memory) or the heap; the rest of the anonymous memory: the index's infix, title"
            echo "  lengths and orders, the response caches (8 MB a worker), SQLite's page caches per connection,"
            echo "  thread stacks and buffers, and what the allocator holds free (heap_free_bytes))"
        } >"$work/breakdown.txt"
    fi
fi

# MARK: - SIGTERM: how long the server takes to stop, and its exit status

if ((peers_only == 0)); then
    if kill -0 "$catalog_pid" 2>/dev/null; then
        stop_started="${EPOCHREALTIME/./}"
        kill -TERM "$catalog_pid"
        for _ in $(seq 200); do
            kill -0 "$catalog_pid" 2>/dev/null || break
            sleep 0.05
        done
        if kill -0 "$catalog_pid" 2>/dev/null; then
            echo "stop status=running ms=10000" >>"$results"
        else
            stop_status=0
            wait "$catalog_pid" || stop_status=$?
            echo "stop status=$stop_status ms=$(((${EPOCHREALTIME/./} - stop_started) / 1000))" >>"$results"
        fi
    else
        stop_status=0
        wait "$catalog_pid" || stop_status=$?
        echo "crash status=$stop_status" >>"$results"
        echo "server-bench: catalog serve exited during the run (status $stop_status); its last messages:" >&2
        tail -n 20 "$work/catalog.err" >&2
    fi
    stop_process "$catalog_pid"
fi

# MARK: - 4. Edits under search load, on a copy of the file

if ((peers_only == 0 && edit_rate > 0)); then
    # A copy, so the edits never change the file later runs measure.
    edits_db="$work/edits.sqlite"
    say "edits: copying $(du -m "$database" | cut -f1) MB for a second server"
    cp "$database" "$edits_db"
    "$binary" user add bench-editor --admin --password-stdin --db "$edits_db" <<<"bench-editor-password" \
        >/dev/null 2>"$work/edits-user.err" || { cat "$work/edits-user.err" >&2; fail "catalog user add failed"; }
    "$binary" key add bench-edits --user bench-editor --catalog "$catalog" --actions read,write \
        --db "$edits_db" >"$work/edits-key.txt" 2>"$work/edits-user.err" ||
        { cat "$work/edits-user.err" >&2; fail "catalog key add failed"; }
    edit_key="$(sed -n '/^cak_/{p;q}' "$work/edits-key.txt")"
    [[ -n "$edit_key" ]] || fail "catalog key add printed no key"
    sed -n '1,200s#.*/##p' "$work/items-ours.txt" >"$work/edit-ids.txt"
    start_catalog "$edits_db" edits
    edits_pid="$started_pid"
    edits_url="$started_url"
    say "edits: catalog serve (pid $edits_pid) on a copy; $edit_rate changes a second during a search run"
    # The same queries once unrecorded, so the measured runs meet warm caches; then without changes,
    # with them, and after them.
    warm_up "$search_seconds" -t2 -c16 -s "$here/rotate.lua" "$edits_url" -- "$work/search-ours.txt"
    run_wrk search_quiet "$search_seconds" -t2 -c16 --timeout 10s -s "$here/rotate.lua" "$edits_url" \
        -- "$work/search-ours.txt"
    rm -f "$work/edits-ready"
    python3 "$here/edit-load.py" "$edits_url" "$catalog" "$edit_key" "$work/edit-ids.txt" "$search_seconds" \
        "$edit_rate" "$work/edits-ready" >"$work/edit-load.txt" &
    edit_load_pid=$!
    started_pids+=("$edit_load_pid")
    touch "$work/edits-ready"
    run_wrk search_edits "$search_seconds" -t2 -c16 --timeout 10s -s "$here/rotate.lua" "$edits_url" \
        -- "$work/search-ours.txt"
    wait "$edit_load_pid" || fail "edit-load.py failed"
    cat "$work/edit-load.txt" >>"$results"
    # And once more after them: what the changes left (segments not yet merged) costs later searches.
    run_wrk search_after "$search_seconds" -t2 -c16 --timeout 10s -s "$here/rotate.lua" "$edits_url" \
        -- "$work/search-ours.txt"
    stop_process "$edits_pid"
    rm -f "$edits_db" "$edits_db"-*
fi

echo "end load=$(cut -d' ' -f1 /proc/loadavg)" >>"$results"
echo
python3 "$here/summary.py" "$results"
if [[ -f "$work/breakdown.txt" ]]; then cat "$work/breakdown.txt"; fi
