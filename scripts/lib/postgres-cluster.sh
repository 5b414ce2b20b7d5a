# A throwaway PostgreSQL cluster for tests and benchmarks; source this file, then
#   postgres_cluster_start [SETTING=VALUE…]    initdb + start, exports POSTGRES_CLUSTER_URL
#   postgres_cluster_stop                      stops and removes it (also on exit: set the trap)
# Debian's postgresql, as the postgres user when run as root (initdb refuses root), on a private
# socket directory and port with no TCP at all, trust authentication except for one role
# (catalog_password_test) whose password is checked. Settings are extra `-c` options.

postgres_cluster_dir=""
postgres_cluster_as=()
postgres_cluster_bin=""

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
    rm -rf "$postgres_cluster_dir"
    postgres_cluster_dir=""
}

# The postmaster's pid (the first line of postmaster.pid).
postgres_cluster_pid() {
    head -n 1 "$postgres_cluster_dir/data/postmaster.pid"
}
