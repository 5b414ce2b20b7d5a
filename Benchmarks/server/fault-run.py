#!/usr/bin/env python3
"""The fault run of attack-bench.sh: `kill -9` of `catalog serve` during a write-heavy soak.

    fault-run.py BINARY DB USERS_DB TOKEN USER PASSWORD CATALOG [--kills N] [--seed S]

Starts `catalog serve --db DB --users-db USERS_DB` (loopback, a port it picks), then N times:
clients write as fast as the server answers (4 threads putting and deleting favorites of
CATALOG's records with the bearer TOKEN, each thread on its own records; one importing a
50-record CSV catalog under a new id again and again; one signing in as USER with PASSWORD),
and after a random 0.5-3 s the server gets SIGKILL. With the server down, PRAGMA
integrity_check runs on both files, and every write a client saw answered 2xx before the kill
is looked for: each favorite present or absent as its last acknowledged write left it (one
whose last request got no answer is skipped until written again), each acknowledged import's
catalog with its 50 records; then the server starts again and each acknowledged sign-in's token
must still be accepted. The checks are cumulative: every round looks at all the writes so far.

Prints one line: fault-result kills= integrity_ok= integrity_checks= acked_checked= lost=
lost_favorites= lost_imports= lost_tokens= acked_writes= unanswered= restarts_failed= seconds=
(the lost ones are listed on standard error). Every process it starts is killed before it exits.
"""
import http.client
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from urllib.parse import quote


def main():
    args = sys.argv[1:]
    kills, seed = 20, None
    if "--kills" in args:
        index = args.index("--kills")
        kills = int(args[index + 1])
        del args[index:index + 2]
    if "--seed" in args:
        index = args.index("--seed")
        seed = int(args[index + 1])
        del args[index:index + 2]
    if len(args) != 7:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(64)
    binary, db, users_db, token, user, password, catalog = args
    rng = random.Random(seed)

    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        ids = [row[0] for row in connection.execute(
            "SELECT i.id FROM items i JOIN catalogs c ON i.version = c.version WHERE c.id = ? LIMIT 800",
            (catalog,))]
    if len(ids) < 40:
        sys.exit(f"fault-run: catalog {catalog} has too few records")
    with sqlite3.connect(f"file:{users_db}?mode=ro", uri=True) as connection:
        user_id = connection.execute("SELECT id FROM users WHERE name = ?", (user,)).fetchone()[0]

    small_csv = "id,title,price\n" + "".join(f"f{n:03d},Fault item {n},{n}.25\n" for n in range(50))

    # What the clients saw acknowledged (2xx): favorites item -> True (present) / False (absent);
    # items whose last request went unanswered are in `unknown` until acknowledged again.
    lock = threading.Lock()
    favorites, unknown = {}, set()
    imports, tokens, new_tokens = [], [], []
    counts = {"acked": 0, "unanswered": 0}

    server = {"process": None, "port": None}
    stop = threading.Event()
    log_path = f"{os.path.dirname(os.path.abspath(users_db))}/fault-serve.log"

    def start_server():
        out = open(log_path, "w", encoding="utf-8")
        process = subprocess.Popen(
            [binary, "serve", "--db", db, "--users-db", users_db, "--host", "127.0.0.1", "--port", "0",
             "--threads", "2", "--quiet"], stdout=out, stderr=subprocess.STDOUT)
        out.close()
        server["process"] = process
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return False
            with open(log_path, encoding="utf-8", errors="replace") as file:
                match = re.search(r"listening on http://[^ :]+:(\d+)", file.read())
            if match:
                server["port"] = int(match.group(1))
                return True
            time.sleep(0.05)
        return False

    def kill_server():
        process = server["process"]
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
        if process is not None:
            process.wait()
        server["process"] = None

    def request(connection, method, path, body=None, headers=None):
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, data

    def client(work):
        def run():
            connection = None
            while not stop.is_set():
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=10)
                try:
                    work(connection)
                except (OSError, http.client.HTTPException):
                    connection.close()
                    connection = None
                    time.sleep(0.01)
            if connection is not None:
                connection.close()
        return run

    def favorite_worker(mine, local_rng):
        auth = {"Authorization": f"Bearer {token}"}

        def work(connection):
            item = local_rng.choice(mine)
            put = local_rng.random() < 0.5
            with lock:
                unknown.add(item)
                counts["unanswered"] += 1
            status, _ = request(connection, "PUT" if put else "DELETE",
                                f"/api/v1/favorites/{quote(catalog)}/{quote(item, safe='')}", headers=auth)
            with lock:
                counts["unanswered"] -= 1
                if 200 <= status < 300:
                    favorites[item] = put
                    unknown.discard(item)
                    counts["acked"] += 1
        return work

    import_number = [0]

    def import_work(connection):
        with lock:
            import_number[0] += 1
            name = f"fault-{import_number[0]:04d}"
        status, _ = request(connection, "POST", f"/api/v1/catalogs/{name}/import?format=csv",
                            body=small_csv.encode(),
                            headers={"Authorization": f"Bearer {token}", "Content-Type": "text/csv"})
        if 200 <= status < 300:
            with lock:
                imports.append(name)
                counts["acked"] += 1

    def signin_work(connection):
        status, data = request(connection, "POST", "/api/v1/signin",
                               body=json.dumps({"name": user, "password": password}).encode(),
                               headers={"Content-Type": "application/json"})
        if 200 <= status < 300:
            with lock:
                new_tokens.append(json.loads(data)["token"])
                counts["acked"] += 1

    shares = [ids[n::4] for n in range(4)]
    result = {"kills": 0, "integrity_ok": 0, "integrity_checks": 0, "checked": 0, "lost_favorites": 0,
              "lost_imports": 0, "lost_tokens": 0, "restarts_failed": 0}
    started = time.monotonic()

    def check_files():
        for path in (db, users_db):
            result["integrity_checks"] += 1
            with sqlite3.connect(path) as connection:
                rows = connection.execute("PRAGMA integrity_check").fetchall()
            if rows == [("ok",)]:
                result["integrity_ok"] += 1
            else:
                print(f"fault-run: integrity_check of {path}: {rows[:5]}", file=sys.stderr)
        with sqlite3.connect(f"file:{users_db}?mode=ro", uri=True) as connection:
            present = {row[0] for row in connection.execute(
                "SELECT item_id FROM favorites WHERE user_id = ? AND catalog_id = ?", (user_id, catalog))}
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            catalogs = dict(connection.execute("SELECT id, item_count FROM catalogs"))
        with lock:
            for item, wanted in favorites.items():
                if item in unknown:
                    continue
                result["checked"] += 1
                if (item in present) != wanted:
                    result["lost_favorites"] += 1
                    print(f"fault-run: favorite {item} acknowledged {'present' if wanted else 'absent'}, "
                          f"found {'present' if item in present else 'absent'}", file=sys.stderr)
            for name in imports:
                result["checked"] += 1
                if catalogs.get(name) != 50:
                    result["lost_imports"] += 1
                    print(f"fault-run: import {name} acknowledged, found {catalogs.get(name)} records",
                          file=sys.stderr)

    def check_tokens():
        with lock:
            batch = list(new_tokens)
            new_tokens.clear()
        connection = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=10)
        try:
            for signed_in in batch:
                result["checked"] += 1
                status, _ = request(connection, "GET", "/api/v1/favorites",
                                    headers={"Authorization": f"Bearer {signed_in}"})
                if status != 200:
                    result["lost_tokens"] += 1
                    print(f"fault-run: signed-in token {signed_in[:12]}… answered {status} after the restart",
                          file=sys.stderr)
                tokens.append(signed_in)
        finally:
            connection.close()

    try:
        if not start_server():
            sys.exit("fault-run: catalog serve did not start")
        for round_number in range(kills):
            stop.clear()
            threads = [threading.Thread(target=client(favorite_worker(share, random.Random(rng.random()))))
                       for share in shares]
            threads.append(threading.Thread(target=client(import_work)))
            threads.append(threading.Thread(target=client(signin_work)))
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.5, 3.0))
            kill_server()
            result["kills"] += 1
            stop.set()
            for thread in threads:
                thread.join(timeout=20)
            check_files()
            if not start_server():
                result["restarts_failed"] += 1
                print(f"fault-run: catalog serve did not start again after kill {round_number + 1}",
                      file=sys.stderr)
                break
            check_tokens()
    finally:
        stop.set()
        kill_server()

    lost = result["lost_favorites"] + result["lost_imports"] + result["lost_tokens"]
    print(
        f"fault-result kills={result['kills']} integrity_ok={result['integrity_ok']}"
        f" integrity_checks={result['integrity_checks']} acked_checked={result['checked']} lost={lost}"
        f" lost_favorites={result['lost_favorites']} lost_imports={result['lost_imports']}"
        f" lost_tokens={result['lost_tokens']} acked_writes={counts['acked']}"
        f" favorites_acked={len(favorites)} imports_acked={len(imports)} tokens_acked={len(tokens)}"
        f" unanswered={counts['unanswered']} restarts_failed={result['restarts_failed']}"
        f" seconds={time.monotonic() - started:.0f}"
    )


if __name__ == "__main__":
    main()
