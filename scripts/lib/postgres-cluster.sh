# A throwaway PostgreSQL cluster for tests and benchmarks; source this file, then
#   postgres_cluster_start [SETTING=VALUE…]    initdb + start, exports POSTGRES_CLUSTER_URL
#   postgres_cluster_stop                      stops and removes it (also on exit: set the trap)
#   postgres_replica_start                     a streaming hot standby of it (pg_basebackup -R) on the
#                                              next port, same socket directory; exports
#                                              POSTGRES_REPLICA_URL and POSTGRES_REPLICA_CTL (a script:
#                                              `$POSTGRES_REPLICA_CTL stop|start` stops or starts it)
# Debian's postgresql, as the postgres user when run as root (initdb refuses root), on a private
# socket directory and port with no TCP at all, trust authentication except for one role
# (catalog_password_test) whose password is checked. Settings are extra `-c` options.

postgres_cluster_dir=""
postgres_cluster_as=()
postgres_cluster_bin=""
postgres_cluster_options=""

postgres_cluster_start() {
    postgres_cluster_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    if [[ ! -x "$postgres_cluster_bin/initdb" ]]; then
        echo "PostgreSQL is missing: scripts/install-deps.sh test installs it" >&2
        return 1
    fi
    postgres_cluster_dir="$(mktemp -d /tmp/catalog-postgres-XXXXXX)"
    if [[ "$(id -u)" == "0" ]]; then
        postgres_cluster_as=(runuser -u postgres --)
        chown postgres:postgres "$postgres_cluster_dir"
    fi
    local dir="$postgres_cluster_dir" port="${CATALOG_POSTGRES_PORT:-55433}" setting
    if ! "${postgres_cluster_as[@]}" "$postgres_cluster_bin/initdb" -D "$dir/data" -U postgres --auth=trust \
        -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        return 1
    fi
    { echo "local all catalog_password_test scram-sha-256"; cat "$dir/data/pg_hba.conf"; } >"$dir/hba"
    cat "$dir/hba" >"$dir/data/pg_hba.conf"
    local options="-k $dir -c listen_addresses='' -p $port"
    for setting in "$@"; do options+=" -c $setting"; done
    postgres_cluster_options="$options"
    if ! "${postgres_cluster_as[@]}" "$postgres_cluster_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
        -o "$options" -w start >/dev/null; then
        cat "$dir/server.log" >&2
        return 1
    fi
    export POSTGRES_CLUSTER_URL="postgres://postgres@/postgres?host=$dir&port=$port"
}

postgres_cluster_stop() {
    [[ -n "$postgres_cluster_dir" ]] || return 0
    if [[ -f "$postgres_cluster_dir/data/postmaster.pid" ]]; then
        "${postgres_cluster_as[@]}" "$postgres_cluster_bin/pg_ctl" -D "$postgres_cluster_dir/data" -m immediate -w stop \
            >/dev/null 2>&1 || true
    fi
    if [[ -f "$postgres_cluster_dir/replica/postmaster.pid" ]]; then
        "${postgres_cluster_as[@]}" "$postgres_cluster_bin/pg_ctl" -D "$postgres_cluster_dir/replica" -m immediate -w stop \
            >/dev/null 2>&1 || true
    fi
    rm -rf "$postgres_cluster_dir"
    postgres_cluster_dir=""
}

# A hot standby of the running cluster: a base backup streamed from it (`pg_basebackup -R` writes
# standby.signal and primary_conninfo), started with the primary's settings (a standby needs at
# least its max_connections) on the next port, with hot_standby_feedback so that the primary keeps
# the rows the standby's snapshots read (no recovery conflicts in the tests). The backup begins
# with an immediate checkpoint: the default spreads it over minutes once the cluster holds data.
postgres_replica_start() {
    local dir="$postgres_cluster_dir" port="${CATALOG_POSTGRES_PORT:-55433}"
    local replica_port=$((port + 1))
    if ! "${postgres_cluster_as[@]}" "$postgres_cluster_bin/pg_basebackup" -D "$dir/replica" -R -X stream -c fast \
        -h "$dir" -p "$port" -U postgres >"$dir/basebackup.log" 2>&1; then
        cat "$dir/basebackup.log" >&2
        return 1
    fi
    local options="${postgres_cluster_options/-p $port/-p $replica_port} -c hot_standby=on -c hot_standby_feedback=on"
    local as=""
    [[ ${#postgres_cluster_as[@]} -eq 0 ]] || as="${postgres_cluster_as[*]} "
    cat >"$dir/replica-ctl" <<SCRIPT
#!/bin/bash
# Stops (fast: sessions end at once) or starts the test cluster's standby: replica-ctl stop|start
# Every descriptor but the standard ones is closed first: the server pg_ctl starts stays after it,
# and must not keep a caller's pipes or sockets open (a test's Process waits for them to close).
for fd in /proc/\$\$/fd/*; do
    fd="\${fd##*/}"
    if ((fd > 2)); then eval "exec \$fd>&-" 2>/dev/null; fi
done
case "\$1" in
    stop) exec $as"$postgres_cluster_bin/pg_ctl" -D "$dir/replica" -m fast -w stop ;;
    start) exec $as"$postgres_cluster_bin/pg_ctl" -D "$dir/replica" -l "$dir/replica.log" -o "$options" -w start ;;
    *) echo "usage: \$0 stop|start" >&2; exit 64 ;;
esac
SCRIPT
    chmod 755 "$dir/replica-ctl"
    if ! "$dir/replica-ctl" start >/dev/null; then
        cat "$dir/replica.log" >&2
        return 1
    fi
    export POSTGRES_REPLICA_URL="postgres://postgres@/postgres?host=$dir&port=$replica_port"
    export POSTGRES_REPLICA_CTL="$dir/replica-ctl"
}

# The postmaster's pid (the first line of postmaster.pid).
postgres_cluster_pid() {
    head -n 1 "$postgres_cluster_dir/data/postmaster.pid"
}
