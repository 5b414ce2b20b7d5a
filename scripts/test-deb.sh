#!/usr/bin/env bash
# Tests the Debian package end to end (make test-deb; make test runs it).
#
#   scripts/test-deb.sh
#
# THIS INSTALLS AND PURGES A SYSTEM PACKAGE: it needs root, and it installs `catalog` with
# dpkg -i, creating the catalog user and /var/lib/catalog, then purges it. To be safe on a
# developer machine it refuses to run when a catalog package is already installed or
# /var/lib/catalog exists (a purge would delete its databases), unless CATALOG_TEST_DEB_FORCE=1;
# and whatever happens it stops the server it started and purges the package it installed
# (a trap on EXIT).
#
# Steps: scripts/build-deb.sh (reuses .build/deb/release/catalog when newer than the sources:
# the release build is the slow part, several minutes on two cores; the rest takes seconds),
# lintian (warnings fail it; overrides are in the package), dpkg -i, the user, folders, conffile
# and modes checked, systemd-analyze verify on the installed unit, `catalog demo` as the catalog
# user, the unit's ExecStart line run as the catalog user (setpriv) with the unit's environment
# file on a free loopback port, /api/v1/catalogs answered with the demo catalogs, SIGTERM, then
# dpkg --purge and a check that nothing is left. systemd is not PID 1 here: the unit is never
# started through systemctl.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
started=$(date +%s)
say() { echo "test-deb: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

[[ "$(id -u)" == 0 ]] || fail "run as root (it installs and purges the catalog package)"
if [[ "${CATALOG_TEST_DEB_FORCE:-0}" != 1 ]]; then
    if dpkg-query -W -f='${Status}' catalog 2>/dev/null | grep -q " installed$"; then
        fail "a catalog package is installed; its purge would delete /var/lib/catalog (CATALOG_TEST_DEB_FORCE=1 to go on)"
    fi
    [[ ! -e /var/lib/catalog ]] || fail "/var/lib/catalog exists (CATALOG_TEST_DEB_FORCE=1 to go on; it is deleted)"
fi
for tool in dpkg-deb dpkg-shlibdeps lintian systemd-analyze setpriv curl python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh test installs it)"
done

scratch="$(mktemp -d)"
server=""
installed=0
cleanup() {
    local status=$?
    if [[ -n "$server" ]] && kill -0 "$server" 2>/dev/null; then
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    if [[ $installed == 1 ]]; then dpkg --purge catalog >/dev/null 2>&1 || true; fi
    rm -rf "$scratch"
    if [[ $status == 0 ]]; then say "passed in $(($(date +%s) - started)) s"; fi
}
trap cleanup EXIT

deb="$("$root/scripts/build-deb.sh" | tail -1)"
say "built $deb in $(($(date +%s) - started)) s"

say "lintian"
lintian --fail-on error,warning "$deb" || fail "lintian"

say "dpkg -i"
installed=1
dpkg -i "$deb" >/dev/null || fail "dpkg -i"
[[ -x /usr/bin/catalog ]] || fail "no /usr/bin/catalog"
/usr/bin/catalog --version | grep -q "^catalog " || fail "catalog --version"
getent passwd catalog | grep -q ':/var/lib/catalog:/usr/sbin/nologin$' || fail "the catalog user: $(getent passwd catalog)"
[[ "$(stat -c '%U:%G %a' /var/lib/catalog)" == "catalog:catalog 750" ]] ||
    fail "/var/lib/catalog: $(stat -c '%U:%G %a' /var/lib/catalog)"
[[ "$(stat -c '%U:%G %a' /etc/catalog/catalog.env)" == "root:catalog 640" ]] ||
    fail "/etc/catalog/catalog.env: $(stat -c '%U:%G %a' /etc/catalog/catalog.env)"
dpkg-query -W -f='${Conffiles}' catalog | grep -q '/etc/catalog/catalog.env' || fail "catalog.env is not a conffile"
unit=/lib/systemd/system/catalog.service
[[ -f $unit ]] || fail "no $unit"
for setting in ProtectSystem=strict ProtectHome=yes NoNewPrivileges=yes PrivateTmp=yes PrivateDevices=yes \
    ReadWritePaths=/var/lib/catalog CacheDirectory=catalog User=catalog EnvironmentFile=/etc/catalog/catalog.env Restart=on-failure \
    Type=exec; do
    grep -qx "$setting" "$unit" || fail "$unit lacks $setting"
done

say "systemd-analyze verify"
verify="$(systemd-analyze verify "$unit" 2>&1)" || fail "systemd-analyze verify: $verify"
# Without systemd running, verify may only say so; anything about the unit itself fails.
if grep -v -e "^$" -e "System has not been booted with systemd" -e "Failed to connect to bus" \
    <<<"$verify" | grep -q "catalog.service"; then
    fail "systemd-analyze verify: $verify"
fi

say "catalog demo as the catalog user"
cd /
setpriv --reuid=catalog --regid=catalog --init-groups -- \
    /usr/bin/catalog demo --db /var/lib/catalog/catalog.sqlite >"$scratch/demo.log" 2>&1 ||
    fail "catalog demo: $(cat "$scratch/demo.log")"

# The unit's command line and environment, on a free loopback port.
exec_start="$(sed -n 's/^ExecStart=//p' "$unit")"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
environment=()
while IFS= read -r line; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    environment+=("$line")
done </etc/catalog/catalog.env
environment+=("CATALOG_HOST=127.0.0.1" "CATALOG_PORT=$port")

# Starts the unit's command (plus "$@") as the catalog user; sets $server and $listening.
start_server() {
    : >"$scratch/serve.log"
    # shellcheck disable=SC2086  # ExecStart is split into words as systemd does for a plain line.
    setpriv --reuid=catalog --regid=catalog --init-groups -- \
        env -i PATH=/usr/bin:/bin "${environment[@]}" $exec_start "$@" >"$scratch/serve.out" 2>"$scratch/serve.log" &
    server=$!
    listening=""
    for _ in $(seq 1 600); do
        listening="$(sed -n 's/^listening on //p' "$scratch/serve.out")"
        [[ -n "$listening" ]] && return 0
        kill -0 "$server" 2>/dev/null || fail "the server exited: $(cat "$scratch/serve.log")"
        sleep 0.1
    done
    fail "the server did not listen within 60 s: $(cat "$scratch/serve.log")"
}
stop_server() {
    kill -TERM "$server"
    wait "$server" || fail "the server did not stop cleanly: $(cat "$scratch/serve.log")"
    server=""
}

say "ExecStart as the catalog user: $exec_start"
start_server
# The unit passes its options only through the environment file (CATALOG_* variables).
[[ "$listening" == "http://127.0.0.1:$port" ]] || fail "the server ignored CATALOG_HOST/CATALOG_PORT: $listening"
[[ "$(ps -o user= -p "$server")" == catalog ]] || fail "the server runs as $(ps -o user= -p "$server")"
answer="$(curl -fsS "$listening/api/v1/catalogs")" || fail "GET /api/v1/catalogs"
for id in cookbook products sequencers; do
    grep -q "\"$id\"" <<<"$answer" || fail "/api/v1/catalogs lacks $id: $answer"
done
stop_server

say "dpkg --purge"
dpkg --purge catalog >/dev/null || fail "dpkg --purge"
installed=0
for path in /usr/bin/catalog /etc/catalog /var/lib/catalog "$unit" /usr/share/doc/catalog; do
    [[ ! -e "$path" ]] || fail "$path is left after the purge"
done
! getent passwd catalog >/dev/null || fail "the catalog user is left after the purge"
! getent group catalog >/dev/null || fail "the catalog group is left after the purge"
! dpkg-query -W catalog >/dev/null 2>&1 || fail "dpkg still knows the package"
