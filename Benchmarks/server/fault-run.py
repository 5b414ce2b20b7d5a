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

The change feed on the same kill loop: a second server (B) on the same database is never killed;
two more clients change records of CATALOG (PUT of whole records, PATCH, DELETE, each writing a
subtitle unique in the run), one through the killed server, one through B, and a reader follows
CATALOG's event stream on B (GET .../changes, Accept: text/event-stream, opened again with
Last-Event-ID if it drops). At the end every acknowledged change number (Catalog-Change) must have
arrived exactly once, in order, with the kind, id and subtitle written; a change no client got an
answer for may have arrived (it was in flight at a kill), but only as it was sent.

Prints two lines: fault-result kills= integrity_ok= integrity_checks= acked_checked= lost=
lost_favorites= lost_imports= lost_tokens= acked_writes= unanswered= restarts_failed= seconds=
(the lost ones are listed on standard error), and feed-result acknowledged= delivered=
duplicated= missing= out_of_order= mismatched= unacknowledged_delivered= foreign= reconnects=
complete= (complete=1 when the reader reached the last change). Every process it starts is
killed before it exits.
"""
import http.client
import json
import os
import random
import re
import signal
import socket
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
    reader_server = {"process": None, "port": None}
    stop = threading.Event()
    log_dir = os.path.dirname(os.path.abspath(users_db))

    def start_server(target=server, name="fault-serve"):
        log_path = f"{log_dir}/{name}.log"
        out = open(log_path, "w", encoding="utf-8")
        process = subprocess.Popen(
            [binary, "serve", "--db", db, "--users-db", users_db, "--host", "127.0.0.1", "--port", "0",
             "--threads", "2", "--quiet", "--client-cpu-budget", "0"], stdout=out, stderr=subprocess.STDOUT)
        out.close()
        target["process"] = process
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return False
            with open(log_path, encoding="utf-8", errors="replace") as file:
                match = re.search(r"listening on http://[^ :]+:(\d+)", file.read())
            if match:
                target["port"] = int(match.group(1))
                return True
            time.sleep(0.05)
        return False

    def kill_server(target=server):
        process = target["process"]
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
        if process is not None:
            process.wait()
        target["process"] = None

    def request(connection, method, path, body=None, headers=None):
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, data

    def client(work, target=server):
        def run():
            connection = None
            while not stop.is_set():
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", target["port"], timeout=10)
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

    # The change feed's part: records of CATALOG changed through each server, and the reader.
    feed = ChangeFeedCheck(catalog, token)
    record_ids = ids[-40:]
    ids = ids[:-40]
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
        if not start_server(reader_server, "fault-serve-reader"):
            sys.exit("fault-run: the reader's catalog serve did not start")
        feed.start(reader_server["port"])
        for round_number in range(kills):
            stop.clear()
            threads = [threading.Thread(target=client(favorite_worker(share, random.Random(rng.random()))))
                       for share in shares]
            for side, (target, mine) in enumerate(((server, record_ids[:20]), (reader_server, record_ids[20:]))):
                threads.append(threading.Thread(
                    target=client(feed.writer(mine, "A" if side == 0 else "B", random.Random(rng.random())), target)))
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
        feed.finish()
    finally:
        stop.set()
        feed.stop_reader()
        kill_server()
        kill_server(reader_server)

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
    print(feed.result_line())


class ChangeFeedCheck:
    """Writers of records whose answers are noted, and a reader of the catalog's event stream."""

    def __init__(self, catalog, token):
        self.catalog, self.token = catalog, token
        self.lock = threading.Lock()
        self.acked = {}  # change number -> (kind, id, subtitle)
        self.unanswered = []  # (kind, id, subtitle) of requests that got no answer
        self.problems = []
        self.events = []  # (number, kind, id, subtitle) as the stream delivered them
        self.reconnects = 0
        self.stopping = threading.Event()
        self.socket = None
        self.thread = None
        self.port = None
        self.start_change = 0
        self.complete = False
        self.token_number = 0

    def start(self, port):
        self.port = port
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", f"/api/v1/catalogs/{quote(self.catalog)}/changes?since=0&limit=1")
        response = connection.getresponse()
        response.read()
        connection.close()
        self.start_change = int(response.getheader("Catalog-Change"))
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        last = self.start_change
        while not self.stopping.is_set():
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                connection.connect()
                # Kept to be shut down under the reading thread (http.client may let go of it).
                self.socket = connection.sock
                connection.request("GET", f"/api/v1/catalogs/{quote(self.catalog)}/changes?since={last}",
                                   headers={"Accept": "text/event-stream", "Last-Event-ID": str(last)})
                response = connection.getresponse()
                if response.status != 200:
                    with self.lock:
                        self.problems.append(f"the event stream answered {response.status}")
                    return
                number, event, data = None, None, []
                while True:
                    line = response.readline()
                    if not line:
                        break
                    line = line.decode("utf-8").rstrip("\r\n")
                    if line == "":
                        if event == "change" and number is not None:
                            change = json.loads("\n".join(data))
                            record = change.get("record") or {}
                            with self.lock:
                                self.events.append((number, change.get("kind"), change.get("id"),
                                                    record.get("subtitle")))
                            last = number
                        elif event is not None:
                            with self.lock:
                                self.problems.append(f"event {event} id {number}")
                        number, event, data = None, None, []
                    elif line.startswith(":"):
                        continue
                    else:
                        name, _, value = line.partition(":")
                        value = value[1:] if value.startswith(" ") else value
                        if name == "id":
                            number = int(value)
                        elif name == "event":
                            event = value
                        elif name == "data":
                            data.append(value)
            except (OSError, http.client.HTTPException, ValueError):
                pass
            if not self.stopping.is_set():
                with self.lock:
                    self.reconnects += 1
                time.sleep(0.05)

    def writer(self, mine, side, local_rng):
        auth = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        known = {}  # id -> True (present) / False (absent); missing: unknown

        def work(connection):
            item = local_rng.choice(mine)
            with self.lock:
                self.token_number += 1
                subtitle = f"{side}-{self.token_number}"
            path = f"/api/v1/catalogs/{quote(self.catalog)}/items/{quote(item, safe='')}"
            choice = local_rng.random() if known.get(item) else 0
            if choice < 0.4:
                kind, method, headers = "upsert", "PUT", auth
                body = json.dumps({"id": item, "title": f"Feed record {item}", "subtitle": subtitle,
                                   "price": local_rng.randint(0, 99999) / 100, "currency": "EUR"})
            elif choice < 0.75:
                kind, method = "upsert", "PATCH"
                headers = dict(auth, **{"Content-Type": "application/merge-patch+json"})
                body = json.dumps({"subtitle": subtitle})
            else:
                kind, method, headers, body, subtitle = "delete", "DELETE", auth, None, None
            known.pop(item, None)
            try:
                connection.request(method, path, body=body.encode() if body else None, headers=headers)
                response = connection.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                with self.lock:
                    self.unanswered.append((kind, item, subtitle))
                raise
            change = response.getheader("Catalog-Change")
            with self.lock:
                if 200 <= response.status < 300 and change is not None:
                    self.acked[int(change)] = (kind, item, subtitle)
                    known[item] = kind != "delete"
                else:
                    self.problems.append(f"{method} {item} answered {response.status}")
        return work

    def finish(self):
        """Waits (at most 60 s) until the reader has the catalog's last change."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", f"/api/v1/catalogs/{quote(self.catalog)}/changes?since=0&limit=1")
        response = connection.getresponse()
        response.read()
        connection.close()
        final = int(response.getheader("Catalog-Change"))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with self.lock:
                if self.events and self.events[-1][0] >= final or final == self.start_change:
                    self.complete = True
                    return
            time.sleep(0.05)

    def stop_reader(self):
        self.stopping.set()
        if self.socket is not None:
            try:
                self.socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self.thread is not None:
            self.thread.join(timeout=10)

    def result_line(self):
        with self.lock:
            events, acked, unanswered = list(self.events), dict(self.acked), list(self.unanswered)
            reconnects, problems = self.reconnects, list(self.problems)
        seen = {}
        out_of_order, previous = 0, self.start_change
        for number, kind, item, subtitle in events:
            seen[number] = seen.get(number, 0) + 1
            if number <= previous:
                out_of_order += 1
            previous = max(previous, number)
        duplicated = sum(count - 1 for count in seen.values())
        delivered = {number: (kind, item, subtitle) for number, kind, item, subtitle in events}
        missing = [number for number in acked if number not in delivered]
        mismatched = [number for number, change in acked.items()
                      if number in delivered and delivered[number] != change]
        in_flight = set(unanswered)
        others = [number for number in delivered if number not in acked]
        foreign = [number for number in others if delivered[number] not in in_flight]
        for number in missing[:10]:
            print(f"fault-run: acknowledged change {number} {acked[number]} never arrived", file=sys.stderr)
        for number in mismatched[:10]:
            print(f"fault-run: change {number} acknowledged as {acked[number]}, arrived as {delivered[number]}",
                  file=sys.stderr)
        for number in foreign[:10]:
            print(f"fault-run: change {number} {delivered[number]} arrived, and no client sent it", file=sys.stderr)
        for problem in problems[:10]:
            print(f"fault-run: change feed: {problem}", file=sys.stderr)
        return (
            f"feed-result acknowledged={len(acked)} delivered={len(events)} duplicated={duplicated}"
            f" missing={len(missing)} out_of_order={out_of_order} mismatched={len(mismatched)}"
            f" unacknowledged_delivered={len(others) - len(foreign)} foreign={len(foreign)}"
            f" reconnects={reconnects} problems={len(problems)} complete={int(self.complete)}"
        )


if __name__ == "__main__":
    main()
