# common.sh: what server-bench.sh and attack-bench.sh share. Sourced, not run; set bench_name
# (for messages) and root (the repository) first.
#
#   fail MESSAGE…          prints "NAME: MESSAGE" on standard error and exits 1
#   say MESSAGE…           prints "NAME: MESSAGE"
#   started_pids+=(PID)    a process started here: stopped on exit
#   stop_process PID       SIGTERM, then SIGKILL after 10 s; forgets the PID
#   work                   a directory removed on exit (set it once made)
#   bench_database FILE    the benchmark database: FILE, else catalog-bench's
#                          /tmp/catalog-bench/bench.sqlite, else Benchmarks/.cache/server-bench.sqlite,
#                          generated (1,000,000 records, about two minutes) when missing; sets
#                          $database to its absolute path. Needs $binary.
#   field LINE KEY         a value of a wrk-result line (report.lua)
#   start_server NAME DB [OPTION…]
#                          `catalog serve --db DB --threads 2 --quiet --client-cpu-budget 0` on a
#                          loopback port it picks, with OPTIONs after; its output in $work/NAME.out
#                          and .err; waits (at most 60 s) for its "listening on" line, then sets
#                          $server_url (no trailing slash) and $server_pid. Needs $binary, $work.

fail() {
    echo "$bench_name: $*" >&2
    exit 1
}

say() {
    echo "$bench_name: $*"
}

started_pids=()
work=""

stop_process() {
    local pid="$1" kept=() other
    for other in "${started_pids[@]}"; do
        [[ "$other" == "$pid" ]] || kept+=("$other")
    done
    started_pids=("${kept[@]}")
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "$bench_name: process $pid did not stop in 10 s; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local pid
    for pid in "${started_pids[@]}"; do
        stop_process "$pid"
    done
    if [[ -n "$work" && -d "$work" ]]; then
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bench_database() {
    database="$1"
    if [[ -z "$database" ]]; then
        if [[ -f /tmp/catalog-bench/bench.sqlite ]]; then
            database=/tmp/catalog-bench/bench.sqlite
        else
            database="$root/Benchmarks/.cache/server-bench.sqlite"
        fi
    fi
    if [[ ! -f "$database" ]]; then
        mkdir -p "$(dirname "$database")"
        local partial="${database%.sqlite}.partial.sqlite" suffix
        rm -f "$partial" "$partial-wal" "$partial-shm"
        say "generating a 1,000,000-record catalog \"big\" into $database (about two minutes)"
        "$binary" generate --catalog big --items 1000000 --db "$partial" --quiet || fail "catalog generate failed"
        for suffix in "" -wal -shm; do
            if [[ -f "$partial$suffix" ]]; then mv "$partial$suffix" "$database$suffix"; fi
        done
    fi
    database="$(cd "$(dirname "$database")" && pwd)/$(basename "$database")"
}

field() { sed -n "s/.* $2=\([0-9.-]*\).*/\1/p" <<<" $1"; }

start_server() {
    local name="$1" db="$2" url=""
    shift 2
    # One load generator, one address: no per-client CPU budget (it would measure the slow lane).
    "$binary" serve --db "$db" --host 127.0.0.1 --port 0 --threads 2 --quiet --client-cpu-budget 0 "$@" \
        >"$work/$name.out" 2>"$work/$name.err" &
    local pid=$!
    started_pids+=("$pid")
    for _ in $(seq 600); do
        url="$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$work/$name.out" | head -n 1)"
        [[ -n "$url" ]] && break
        kill -0 "$pid" 2>/dev/null || { cat "$work/$name.err" >&2; fail "catalog serve ($name) exited"; }
        sleep 0.1
    done
    [[ -n "$url" ]] || fail "catalog serve ($name) printed no listening line"
    server_url="${url%/}"
    server_pid="$pid"
}
