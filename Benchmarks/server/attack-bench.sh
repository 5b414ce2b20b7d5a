#!/usr/bin/env bash
# attack-bench.sh: `catalog serve` under a sign-in flood and a soak with slow clients beside it.
#
#   Benchmarks/server/attack-bench.sh [--catalog-binary PATH] [--db FILE] [--catalog ID]
#       [--flood-seconds S] [--soak-seconds S] [--slow-connections N] [--import-file FILE] [--kills N]
#
# 1. Sign-in flood: 8 parallel clients sign in to the web app with the right password again and
#    again (each attempt an argon2id check, never throttled), while wrk reads records and searches
#    through the API with 4 connections (with a token, so the response cache never answers); the
#    API's p50 beside the same reads without the flood. Goal: p50 < 5 ms.
# 2. Soak: 100 connections for 60 s (--soak-seconds) of mixed requests: records, searches and
#    pages, favorites added and removed with a bearer token; a small catalog imported through the
#    API every 3 s; and 500 slow connections (--slow-connections) trickling a request head one byte
#    every 5 s from five loopback addresses, opened again whenever the server closes them.
#    Goal: zero errors and zero 5xx; p99 reported.
# 3. Readers during a 1,000,000-record import: on a copy of the database (so the big catalog
#    never lands in it), catalog "attack-bench-big" is first imported with the file's first 200
#    records, then the whole file (--import-file; default catalog-bench's catalog-1000000.xml
#    beside the database, else the catalog exported with `catalog export`) is uploaded to
#    POST /api/v1/catalogs/attack-bench-big/import?replace=true while two readers, one request
#    after another, read records, searches and pages of the benchmark catalog and of the catalog
#    being imported (import-readers.py). Goal: the readers' worst latency < 100 ms; p99, p50
#    and the import's duration reported.
# 4. Fault run: 20 times (--kills) `kill -9` of the server at a random moment (0.5-3 s) of a
#    write-heavy soak (favorites put and deleted, 50-record catalogs imported, sign-ins) on a
#    20,000-record database of its own (fault-run.py); after each kill PRAGMA integrity_check
#    of the database and the accounts file, and every write answered 2xx before a kill looked
#    for (favorites present or absent as last acknowledged, imported catalogs, signed-in
#    tokens). Goal: integrity ok every time, zero lost writes. On the same kill loop, the change
#    feed: records of the catalog changed through the killed server and through a second server on
#    the same database, whose event stream a reader follows. Goal: every acknowledged change
#    delivered exactly once and in order, with what was written; nothing no client sent.
#
# 1b. Hidden beside missing: a catalog for its members only and a missing one of an id as long,
#    read anonymously through eight API routes, in turns, 3 s each, twice. Goal: p50 within 1.25x
#    either way (what a hidden catalog answers must not tell it exists, in time either).
#
# 5. Expensive clients (expensive-clients.py): two clients, each from a loopback address of its
#    own, loop on the costliest search (empty query, a huge price range, a price sort, two facets)
#    while a third browses, with the per-client CPU budget and without it. Goal: with it, the
#    browsing client's p50 stays within 2x (+0.5 ms) of its p50 alone.
#
# The server runs with --threads 2 --quiet on a port it picks, its accounts in a throwaway file.
# Database: as server-bench.sh (--db FILE, else /tmp/catalog-bench/bench.sqlite when present,
# else Benchmarks/.cache/server-bench.sqlite, generated when missing); the soak's imports add a
# small catalog "attack-bench-imports" to it. Files go to a directory under $TMPDIR (/tmp unless set;
# the import run's copy of the database needs its size again, twice), removed on exit, and every
# process started here is stopped on exit.
#
# Exit status: 0 when the measurements ran, goals met or not; 1 on a set-up failure; 64 usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

binary="$root/.build/release/catalog"
database=""
catalog=""
flood_seconds=10
soak_seconds=60
slow_connections=500
import_file=""
kills=20

usage() {
    sed -n '3,4p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2
    exit 64
}

while (($# > 0)); do
    case "$1" in
        --catalog-binary) binary="${2:?}"; shift 2 ;;
        --db) database="${2:?}"; shift 2 ;;
        --catalog) catalog="${2:?}"; shift 2 ;;
        --flood-seconds) flood_seconds="${2:?}"; shift 2 ;;
        --soak-seconds) soak_seconds="${2:?}"; shift 2 ;;
        --slow-connections) slow_connections="${2:?}"; shift 2 ;;
        --import-file) import_file="${2:?}"; shift 2 ;;
        --kills) kills="${2:?}"; shift 2 ;;
        -h | --help) usage ;;
        *) echo "attack-bench: unknown option $1" >&2; usage ;;
    esac
done
for value in "$flood_seconds" "$soak_seconds" "$slow_connections" "$kills"; do
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || { echo "attack-bench: durations and counts are whole numbers" >&2; exit 64; }
done

bench_name=attack-bench
# shellcheck source=common.sh
source "$here/common.sh"

for tool in wrk curl python3 sqlite3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh bench installs it)"
done
[[ -x "$binary" ]] || fail "no catalog binary at $binary (swift build -c release --product catalog)"

# MARK: - Database

bench_database "$database"
if [[ -z "$catalog" ]]; then
    catalog="$(sqlite3 -readonly -batch -noheader "$database" "SELECT id FROM catalogs ORDER BY number LIMIT 1")"
    [[ -n "$catalog" ]] || fail "$database holds no catalog"
fi
[[ "$catalog" =~ ^[A-Za-z0-9._-]+$ ]] || fail "catalog id \"$catalog\" needs URL escaping; pick another with --catalog"

work="$(mktemp -d "${TMPDIR:-/tmp}/attack-bench.XXXXXX")"
results="$work/results.txt"
: >"$results"
python3 "$here/workload.py" "$database" "$catalog" unused "$work" >"$work/workload.txt" ||
    fail "could not build the request lists"
records="$(sed -n 's/.*records=\([0-9]*\).*/\1/p' "$work/workload.txt")"
echo "meta catalog=$catalog records=$records cores=$(nproc) load=$(cut -d' ' -f1 /proc/loadavg)" >>"$results"
say "catalog \"$catalog\" ($records records) in $database"

# MARK: - The server, with an administrator who also signs in with a password

users="$work/users.sqlite"
password="attack-bench-$RANDOM-$RANDOM"
token="$("$binary" user add bench --admin --password-stdin --db "$database" --users-db "$users" <<<"$password" 2>"$work/user.err")" ||
    { cat "$work/user.err" >&2; fail "catalog user add failed"; }
# The soak's wrk sends everything from one address: no per-client CPU budget here (the
# expensive-clients run below measures it with clients of their own addresses).
"$binary" serve --db "$database" --users-db "$users" --host 127.0.0.1 --port 0 --threads 2 --quiet \
    --client-cpu-budget 0 >"$work/catalog.out" 2>"$work/catalog.err" &
catalog_pid=$!
started_pids+=("$catalog_pid")
url=""
for _ in $(seq 1200); do
    url="$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$work/catalog.out" | head -n 1)"
    [[ -n "$url" ]] && break
    kill -0 "$catalog_pid" 2>/dev/null || { cat "$work/catalog.err" >&2; fail "catalog serve exited while starting"; }
    sleep 0.1
done
[[ -n "$url" ]] || fail "catalog serve printed no \"listening on\" line within 120 s"
port="${url##*:}"
say "catalog serve (pid $catalog_pid) listening on $url"

# run_wrk NAME SECONDS WRK-ARGS…: runs wrk (bounded by timeout) and records its wrk-result line.
run_wrk() {
    local name="$1" seconds="$2"
    shift 2
    local log="$work/wrk-$name.txt"
    timeout --signal=INT $((seconds + 60)) wrk -d"${seconds}s" "$@" >"$log" 2>&1 || true
    local line
    line="$(grep -m1 '^wrk-result ' "$log" || true)"
    [[ -n "$line" ]] || { cat "$log" >&2; fail "wrk printed no result for $name"; }
    echo "$name ${line#wrk-result }" >>"$results"
}

# MARK: - 1. Sign-in flood beside API reads

# Reads with a bearer token, which the server's response cache never answers: each read is a
# lookup of a record or a search, as a real client's would be.
python3 - "$work" <<'PY' || fail "could not list the reads"
import sys
work = sys.argv[1]
def read(name):
    with open(f"{work}/{name}", encoding="utf-8") as file:
        return [line.strip() for line in file if line.strip()]
items, searches = read("items-ours.txt"), read("search-ours.txt")
lines = [f"GET {items[i % len(items)]}" if i % 2 == 0 else f"GET {searches[i % len(searches)]}" for i in range(8000)]
with open(f"{work}/reads.txt", "w", encoding="utf-8") as file:
    file.write("\n".join(lines) + "\n")
PY
timeout --signal=INT 30 wrk -d2s -t1 -c4 -s "$here/mixed.lua" "$url" -- "$work/reads.txt" "$token" >/dev/null 2>&1 || true
run_wrk reads_quiet 5 -t1 -c4 -s "$here/mixed.lua" "$url" -- "$work/reads.txt" "$token"
python3 "$here/signin-flood.py" "$url" bench "$password" $((flood_seconds + 2)) --clients 8 >"$work/flood.txt" 2>&1 &
flood_pid=$!
started_pids+=("$flood_pid")
sleep 1
run_wrk reads_flood "$flood_seconds" -t1 -c4 -s "$here/mixed.lua" "$url" -- "$work/reads.txt" "$token"
wait "$flood_pid" || true
stop_process "$flood_pid"
grep -m1 '^flood-result ' "$work/flood.txt" | sed 's/^flood-result /flood /' >>"$results" ||
    { cat "$work/flood.txt" >&2; fail "the sign-in flood printed no result"; }

# MARK: - 1b. A hidden catalog is refused as fast as a missing one is

# A catalog for its members only, and a missing one of an id as long: anonymous reads of both,
# taken in turns (hidden, missing, hidden, missing) so that both meet the same load.
hidden=attack-bench-hidden
missing=attack-bench-hiddex
status="$(curl -s -o "$work/hidden.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
    -H "Content-Type: text/csv" --data-binary $'id,title\nh1,Hidden one\nh2,Hidden two\n' \
    "$url/api/v1/catalogs/$hidden/import?replace=true")"
[[ "$status" == 200 ]] || { cat "$work/hidden.out" >&2; fail "could not import the hidden catalog ($status)"; }
status="$(curl -s -o "$work/hidden.out" -w '%{http_code}' -X PATCH -H "Authorization: Bearer $token" \
    -H "Content-Type: application/merge-patch+json" --data '{"visibility":"members"}' "$url/api/v1/catalogs/$hidden")"
[[ "$status" == 200 ]] || { cat "$work/hidden.out" >&2; fail "could not hide the catalog ($status)"; }
for id in "$hidden" "$missing"; do
    for path in "" /items /items/h1 "/search?q=hid" /sections /outline /featured /changes; do
        echo "GET /api/v1/catalogs/$id$path"
    done >"$work/refused-$id.txt"
done
for round in a b; do
    run_wrk "hidden_$round" 3 -t1 -c4 -s "$here/mixed.lua" "$url" -- "$work/refused-$hidden.txt" ""
    run_wrk "missing_$round" 3 -t1 -c4 -s "$here/mixed.lua" "$url" -- "$work/refused-$missing.txt" ""
done
curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $token" "$url/api/v1/catalogs/$hidden" || true

# MARK: - 2. Soak: mixed reads and writes, imports, and slow clients

python3 "$here/workload.py" --pages "$url" "$catalog" "$work" >/dev/null || fail "could not follow the item pages"
python3 - "$work" "$catalog" <<'PY' || fail "could not mix the soak requests"
import sys
work, catalog = sys.argv[1], sys.argv[2]
def read(name):
    with open(f"{work}/{name}", encoding="utf-8") as file:
        return [line.strip() for line in file if line.strip()]
lists = {"search": read("search-ours.txt"), "item": read("items-ours.txt"), "page": read("pages.txt")}
favorites = [path.replace(f"/api/v1/catalogs/{catalog}/items/", f"/api/v1/favorites/{catalog}/") for path in lists["item"]]
pattern = ["item", "search", "item", "put", "search", "item", "page", "delete", "item", "search"]
positions = {}
lines = []
for index in range(20000):
    kind = pattern[index % len(pattern)]
    source = favorites if kind in ("put", "delete") else lists[kind]
    position = positions.get(kind, 0)
    positions[kind] = position + 1
    method = {"put": "PUT", "delete": "DELETE"}.get(kind, "GET")
    lines.append(f"{method} {source[position % len(source)]}")
with open(f"{work}/soak-mixed.txt", "w", encoding="utf-8") as file:
    file.write("\n".join(lines) + "\n")
PY
python3 - "$work/small.csv" <<'PY'
import sys
with open(sys.argv[1], "w", encoding="utf-8") as file:
    file.write("id,title,price\n")
    for index in range(200):
        file.write(f"s{index:03d},Soak item {index},{index}.50\n")
PY

python3 "$here/slow-clients.py" 127.0.0.1 "$port" "$slow_connections" $((soak_seconds + 4)) --addresses 5 --every 5 \
    >"$work/slow.txt" 2>&1 &
slow_pid=$!
started_pids+=("$slow_pid")
(
    end=$((SECONDS + soak_seconds))
    while ((SECONDS < end)); do
        curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 -X POST -H "Authorization: Bearer $token" \
            -H "Content-Type: text/csv" --data-binary @"$work/small.csv" \
            "$url/api/v1/catalogs/attack-bench-imports/import?format=csv&replace=true" || echo 000
        sleep 3
    done
) >"$work/imports.txt" &
imports_pid=$!
started_pids+=("$imports_pid")
sleep 2
run_wrk soak "$soak_seconds" -t2 -c100 --timeout 5s -s "$here/mixed.lua" "$url" -- "$work/soak-mixed.txt" "$token"
wait "$imports_pid" || true
wait "$slow_pid" || true
stop_process "$imports_pid"
stop_process "$slow_pid"
imports_ok="$(grep -c '^200$' "$work/imports.txt" || true)"
imports_all="$(grep -c . "$work/imports.txt" || true)"
echo "imports ok=$imports_ok total=$imports_all" >>"$results"
grep -m1 '^slow-result ' "$work/slow.txt" | sed 's/^slow-result /slow /' >>"$results" ||
    { cat "$work/slow.txt" >&2; fail "the slow clients printed no result"; }
kill -0 "$catalog_pid" 2>/dev/null || echo "crash" >>"$results"
server_errors="$(grep -c 'error:' "$work/catalog.err" || true)"
echo "server logged_errors=$server_errors load=$(cut -d' ' -f1 /proc/loadavg)" >>"$results"
if ((server_errors > 0)); then grep -m 5 'error:' "$work/catalog.err" >&2 || true; fi

stop_process "$catalog_pid"

# MARK: - 3. Readers during a 1,000,000-record import through the API

if [[ -z "$import_file" ]]; then
    import_file="$(dirname "$database")/catalog-1000000.xml"
    if [[ ! -f "$import_file" ]]; then
        import_file="$work/export.xml"
        say "exporting catalog \"$catalog\" to import it again"
        "$binary" export --catalog "$catalog" --format xml --output "$import_file" --db "$database" ||
            fail "catalog export failed"
    fi
fi
[[ -f "$import_file" ]] || fail "no import file $import_file"
case "$import_file" in
    *.csv) import_format=csv ;;
    *.json) import_format=json ;;
    *) import_format=xml ;;
esac
import_db="$work/import.sqlite"
say "copying $database for the import run"
sqlite3 "$database" ".backup '$import_db'" || fail "could not copy the database"
python3 - "$import_file" "$work/head.$import_format" "$import_format" <<'PY' || fail "could not cut the import file's first records"
import sys
source, target, kind = sys.argv[1:]
# The first 200 records of the file: XML and CSV with one record a line group, as catalog-bench
# and `catalog export` write them.
with open(source, encoding="utf-8") as file, open(target, "w", encoding="utf-8") as out:
    if kind == "csv":
        for number, line in enumerate(file):
            if number > 200:
                break
            out.write(line)
    elif kind == "xml":
        root, records = None, 0
        for line in file:
            stripped = line.strip()
            if root is None and stripped.startswith("<") and not stripped.startswith(("<?", "<!")):
                root = stripped[1:].split(">")[0].split()[0]
            elif line.startswith("  </") and stripped != f"</{root}>":
                records += 1
            if stripped != f"</{root}>":
                out.write(line)
            if records == 200:
                break
        out.write(f"</{root}>\n")
    else:
        sys.exit("a JSON import file is used whole; give --import-file an XML or CSV file")
PY
"$binary" serve --db "$import_db" --users-db "$users" --host 127.0.0.1 --port 0 --threads 2 --quiet \
    --client-cpu-budget 0 \
    --max-upload-mb 4096 --import-timeout 1200 >"$work/import-serve.out" 2>"$work/import-serve.err" &
import_serve_pid=$!
started_pids+=("$import_serve_pid")
url=""
for _ in $(seq 1200); do
    url="$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$work/import-serve.out" | head -n 1)"
    [[ -n "$url" ]] && break
    kill -0 "$import_serve_pid" 2>/dev/null || { cat "$work/import-serve.err" >&2; fail "catalog serve exited while starting"; }
    sleep 0.1
done
[[ -n "$url" ]] || fail "catalog serve printed no \"listening on\" line within 120 s"
status="$(curl -s -o "$work/head-import.json" -w '%{http_code}' --max-time 120 -X POST -H "Authorization: Bearer $token" \
    --data-binary @"$work/head.$import_format" "$url/api/v1/catalogs/attack-bench-big/import?format=$import_format")"
[[ "$status" == 200 ]] || { cat "$work/head-import.json" >&2; fail "importing the first records answered $status"; }
mkdir -p "$work/big"
python3 "$here/workload.py" "$import_db" attack-bench-big unused "$work/big" >/dev/null ||
    fail "could not build the request lists of attack-bench-big"
python3 "$here/workload.py" --pages "$url" attack-bench-big "$work/big" >/dev/null ||
    fail "could not follow the pages of attack-bench-big"
python3 - "$work" <<'PY' || fail "could not mix the readers' requests"
import sys
work = sys.argv[1]
def read(name):
    with open(f"{work}/{name}", encoding="utf-8") as file:
        return [line.strip() for line in file if line.strip()]
for prefix, target in (("", "readers-other.txt"), ("big/", "readers-same.txt")):
    lists = [read(f"{prefix}items-ours.txt"), read(f"{prefix}search-ours.txt"), read(f"{prefix}pages.txt")]
    pattern = [0, 1, 0, 1, 2]
    lines = [lists[kind][index % len(lists[kind])] for index, kind in
             ((index, pattern[index % len(pattern)]) for index in range(20000))]
    with open(f"{work}/{target}", "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
PY
say "importing $import_file ($(($(stat -c %s "$import_file") / 1000000)) MB) through the API beside the readers"
timeout 1500 python3 "$here/import-readers.py" "$url" "$token" attack-bench-big "$import_file" "$import_format" \
    "$work/readers-other.txt" "$work/readers-same.txt" >"$work/import-readers.txt" 2>"$work/import-readers.err" ||
    { cat "$work/import-readers.err" >&2; fail "the import run failed"; }
cat "$work/import-readers.err" >&2
cat "$work/import-readers.txt" >>"$results"
echo "import_load load=$(cut -d' ' -f1 /proc/loadavg)" >>"$results"
kill -0 "$import_serve_pid" 2>/dev/null || echo "import_crash" >>"$results"
stop_process "$import_serve_pid"
rm -f "$import_db" "$import_db-wal" "$import_db-shm"

# MARK: - 4. Fault run: kill -9 during a write-heavy soak

fault_db="$work/fault.sqlite"
fault_users="$work/fault-users.sqlite"
"$binary" generate --catalog fault --items 20000 --db "$fault_db" --quiet || fail "catalog generate failed"
fault_password="fault-run-$RANDOM-$RANDOM"
fault_token="$("$binary" user add bench --admin --password-stdin --db "$fault_db" --users-db "$fault_users" \
    <<<"$fault_password" 2>"$work/user.err")" || { cat "$work/user.err" >&2; fail "catalog user add failed"; }
say "fault run: $kills kills of the server during a write-heavy soak"
timeout $((kills * 30 + 120)) python3 "$here/fault-run.py" "$binary" "$fault_db" "$fault_users" "$fault_token" \
    bench "$fault_password" fault --kills "$kills" >"$work/fault.txt" 2>"$work/fault.err" ||
    { cat "$work/fault.err" >&2; fail "the fault run failed"; }
if [[ -s "$work/fault.err" ]]; then head -n 20 "$work/fault.err" >&2; fi
grep -m1 '^fault-result ' "$work/fault.txt" | sed 's/^fault-result /fault /' >>"$results" ||
    { cat "$work/fault.txt" >&2; fail "the fault run printed no result"; }
grep -m1 '^feed-result ' "$work/fault.txt" | sed 's/^feed-result /feed /' >>"$results" ||
    { cat "$work/fault.txt" >&2; fail "the fault run printed no change-feed result"; }
echo "fault_load load=$(cut -d' ' -f1 /proc/loadavg)" >>"$results"

# MARK: - Expensive clients

say "two clients looping on the most expensive search beside a browsing client, with and without the CPU budget"
timeout 300 python3 "$here/expensive-clients.py" "$binary" "$database" "$catalog" --seconds 10 \
    >"$work/expensive.txt" 2>"$work/expensive.err" || { cat "$work/expensive.err" >&2; fail "the expensive-clients run failed"; }
sed -n 's/^expensive budget=\([a-z]*\) /expensive_\1 /p' "$work/expensive.txt" >>"$results"

# MARK: - Summary

python3 - "$results" <<'PY'
import sys
records = {}
for line in open(sys.argv[1], encoding="utf-8"):
    kind, _, rest = line.strip().partition(" ")
    records[kind] = dict(pair.partition("=")[::2] for pair in rest.split(" ") if pair)
def n(kind, key):
    return float(records.get(kind, {}).get(key, 0) or 0)
def ms(us):
    return f"{us / 1000:.2f} ms"
def verdict(ok):
    return "met" if ok else "MISSED"
meta = records.get("meta", {})
print(f"\nAttack benchmarks: catalog \"{meta.get('catalog')}\", {int(n('meta', 'records')):,} records, {meta.get('cores')} cores")
quiet, flood = records.get("reads_quiet"), records.get("reads_flood")
if quiet and flood:
    p50 = n("reads_flood", "p50_us")
    print(
        f"sign-in flood, 8 clients: API reads p50 {ms(p50)}, p99 {ms(n('reads_flood', 'p99_us'))}"
        f" ({int(n('reads_flood', 'requests')):,} reads) beside p50 {ms(n('reads_quiet', 'p50_us'))} without the flood;"
        f" {int(n('flood', 'ok'))} sign-ins (p50 {n('flood', 'p50_ms'):.0f} ms), {int(n('flood', 'busy'))} answered 503;"
        f" goal p50 < 5 ms: {verdict(p50 < 5000)}"
    )
soak = records.get("soak")
if soak:
    socket = sum(int(n("soak", key)) for key in ("connect_errors", "read_errors", "write_errors"))
    errors = socket + int(n("soak", "timeouts")) + int(n("soak", "non2xx"))
    s5xx = int(n("soak", "s5xx"))
    imports_failed = int(n("imports", "total") - n("imports", "ok"))
    seconds = n("soak", "duration_us") / 1e6
    print(
        f"soak, 100 connections, {seconds:.0f} s: {int(n('soak', 'requests')):,} requests"
        f" ({n('soak', 'requests') / max(seconds, 1):,.0f}/s, {int(n('soak', 'writes')):,} favorite writes),"
        f" p50 {ms(n('soak', 'p50_us'))}, p99 {ms(n('soak', 'p99_us'))}, max {ms(n('soak', 'max_us'))};"
        f" errors {errors} ({socket} socket, {int(n('soak', 'timeouts'))} timeouts, {int(n('soak', 'non2xx'))} non-2xx),"
        f" 5xx {s5xx}; imports {int(n('imports', 'ok'))} of {int(n('imports', 'total'))} answered 200"
    )
    slow = records.get("slow", {})
    print(
        f"  beside {slow.get('connections')} slow connections from 5 addresses: {slow.get('opened')} opened,"
        f" {slow.get('closed_by_server')} closed by the server's header deadline, longest open"
        f" {slow.get('longest_open_s')} s; the server logged {int(n('server', 'logged_errors'))} errors"
    )
    print(
        f"  goal zero errors and zero 5xx: {verdict(errors == 0 and s5xx == 0 and imports_failed == 0)}"
        + ("" if "crash" not in records else "; the server EXITED during the run")
    )
imp, during, quiet_r = records.get("import-result"), records.get("readers-import"), records.get("readers-quiet")
if imp and during:
    worst = n("readers-import", "max_us")
    print(
        f"readers during a {int(n('import-result', 'records')):,}-record import through the API"
        f" ({int(n('import-result', 'mb'))} MB, answered {int(n('import-result', 'status'))}"
        f" in {n('import-result', 'seconds'):.1f} s): max {ms(worst)}, p99 {ms(n('readers-import', 'p99_us'))},"
        f" p50 {ms(n('readers-import', 'p50_us'))} ({int(n('readers-import', 'requests')):,} reads,"
        f" {int(n('readers-import', 'over_100ms'))} of 100 ms or more, {int(n('readers-import', 'non2xx'))} non-2xx,"
        f" {int(n('readers-import', 'errors'))} errors; load {records.get('import_load', {}).get('load')})"
    )
    print(
        f"  other catalog max {ms(n('readers-import', 'other_max_us'))} p99 {ms(n('readers-import', 'other_p99_us'))};"
        f" the catalog imported into max {ms(n('readers-import', 'same_max_us'))} p99 {ms(n('readers-import', 'same_p99_us'))};"
        f" before the import p50 {ms(n('readers-quiet', 'p50_us'))}, max {ms(n('readers-quiet', 'max_us'))}"
    )
    ok = worst < 100000 and n("import-result", "status") == 200 and "import_crash" not in records
    print(f"  goal worst reader latency < 100 ms: {verdict(ok)}"
          + ("" if n("import-result", "status") == 200 else "; the import did NOT succeed"))
if all(records.get(f"{kind}_{r}") for kind in ("hidden", "missing") for r in "ab"):
    def both(kind, key):
        return (n(f"{kind}_a", key) + n(f"{kind}_b", key)) / 2
    hidden_p50, missing_p50 = both("hidden", "p50_us"), both("missing", "p50_us")
    answered = sum(n(f"{kind}_{r}", "requests") for kind in ("hidden", "missing") for r in "ab")
    refused = sum(n(f"{kind}_{r}", "non2xx") for kind in ("hidden", "missing") for r in "ab")
    ratio = hidden_p50 / missing_p50 if missing_p50 else float("inf")
    print(
        f"a members-only catalog asked anonymously beside a missing one (8 API routes, in turns): p50"
        f" {ms(hidden_p50)} against {ms(missing_p50)} ({ratio:.2f}x), p99 {ms(both('hidden', 'p99_us'))} against"
        f" {ms(both('missing', 'p99_us'))}; {int(refused):,} of {int(answered):,} answers refused"
    )
    print(f"  goal the same answer time within noise (p50 within 1.25x either way): {verdict(0.8 <= ratio <= 1.25)}")
if records.get("expensive_on") and records.get("expensive_off"):
    for kind in ("expensive_on", "expensive_off"):
        print(
            f"2 clients looping on the costliest search ({'with' if kind.endswith('on') else 'without'} the per-client"
            f" CPU budget): a browsing client's p50 {n(kind, 'attacked_p50_ms'):.2f} ms, p99 {n(kind, 'attacked_p99_ms'):.2f} ms"
            f" beside p50 {n(kind, 'alone_p50_ms'):.2f} ms, p99 {n(kind, 'alone_p99_ms'):.2f} ms alone;"
            f" the attackers got {int(n(kind, 'attacker_rps'))} answers/s, {int(n(kind, 'slowed_429'))} 429s"
        )
    ok = n("expensive_on", "attacked_p50_ms") <= 2 * n("expensive_on", "alone_p50_ms") + 0.5
    print(f"  goal with the budget, the browsing client's p50 within 2x (+0.5 ms) of its p50 alone: {verdict(ok)}")
fault = records.get("fault")
if fault:
    print(
        f"fault run: {int(n('fault', 'kills'))} kill -9 during a write-heavy soak ({int(n('fault', 'acked_writes')):,} writes acknowledged:"
        f" {int(n('fault', 'favorites_acked'))} favorites, {int(n('fault', 'imports_acked'))} imports, {int(n('fault', 'tokens_acked'))} sign-ins;"
        f" {int(n('fault', 'seconds'))} s, load {records.get('fault_load', {}).get('load')}):"
        f" integrity_check ok {int(n('fault', 'integrity_ok'))} of {int(n('fault', 'integrity_checks'))},"
        f" acknowledged writes checked {int(n('fault', 'acked_checked')):,}, lost {int(n('fault', 'lost'))}"
        f" ({int(n('fault', 'lost_favorites'))} favorites, {int(n('fault', 'lost_imports'))} imports, {int(n('fault', 'lost_tokens'))} tokens)"
    )
    ok = (n("fault", "integrity_ok") == n("fault", "integrity_checks") and n("fault", "lost") == 0
          and n("fault", "restarts_failed") == 0 and n("fault", "kills") > 0)
    print(f"  goal integrity ok after every kill and zero lost writes: {verdict(ok)}")
feed = records.get("feed")
if feed:
    print(
        f"change feed on the same kill loop (records changed through the killed server and a second one, an event"
        f" stream on the second): changes acknowledged {int(n('feed', 'acknowledged')):,}, delivered"
        f" {int(n('feed', 'delivered')):,}, duplicated {int(n('feed', 'duplicated'))}, missing {int(n('feed', 'missing'))},"
        f" out of order {int(n('feed', 'out_of_order'))}, not as written {int(n('feed', 'mismatched'))};"
        f" {int(n('feed', 'unacknowledged_delivered'))} unanswered writes arrived (in flight at a kill),"
        f" {int(n('feed', 'foreign'))} changes no client sent; the stream reconnected {int(n('feed', 'reconnects'))} times"
    )
    wrong = ("duplicated", "missing", "out_of_order", "mismatched", "foreign", "problems")
    ok = (all(n("feed", key) == 0 for key in wrong) and n("feed", "complete") == 1
          and n("feed", "acknowledged") > 0)
    print(f"  goal every acknowledged change delivered exactly once, in order, nothing foreign: {verdict(ok)}")
PY
