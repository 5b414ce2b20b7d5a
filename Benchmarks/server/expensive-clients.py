#!/usr/bin/env python3
"""Clients that loop on the most expensive search, beside a client that browses.

    expensive-clients.py BINARY DATABASE CATALOG [--seconds S]

Starts `catalog serve --threads 2` on DATABASE twice: once with the per-client CPU budget
(the default) and once without it (--client-cpu-budget 0). Against each, for S seconds (10):
a browsing client from 127.0.0.4 asks for a cheap search every 10 ms, first alone, then
while two clients from 127.0.0.2 and 127.0.0.3 loop on an empty query with a huge price range,
a price sort and two facets (each request a new range, so no cache answers). Each client has
its own loopback address, as clients of a real server have. Prints the browsing client's
p50/p99 alone and beside the attackers, and the attackers' request rate, for both servers:

    expensive budget=on alone_p50_ms=… alone_p99_ms=… attacked_p50_ms=… attacked_p99_ms=… attacker_rps=… slowed_429=…

Every request loop is bounded by time and count, and targets loopback only.
"""
import http.client
import itertools
import statistics
import subprocess
import sys
import threading
import time


def start(binary, database, extra):
    process = subprocess.Popen(
        [binary, "serve", "--db", database, "--host", "127.0.0.1", "--port", "0", "--threads", "2", "--quiet"]
        + extra,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = process.stdout.readline()
    if "listening on" not in line:
        process.kill()
        sys.exit("catalog serve did not start: " + line)
    port = int(line.strip().rsplit(":", 1)[1])
    return process, port


def connection(port, source):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))


def browse(port, catalog, seconds, latencies):
    """Cheap searches from 127.0.0.4, one every 10 ms at most: a person typing fast, not a load
    generator (which would be an expensive client itself)."""
    words = ["a", "ka", "lamp", "chair", "b", "tee", "gar", "mo", "st", "ro", "e", "li", "pa", "ve", "do"]
    client = connection(port, "127.0.0.4")
    end = time.monotonic() + seconds
    for count in itertools.count():
        if time.monotonic() > end or count > 200_000:
            break
        # Mostly distinct requests (15 words, 500 page sizes), so the response cache rarely answers.
        path = f"/api/v1/catalogs/{catalog}/search?q={words[count % len(words)]}&limit={1 + (count // 15) % 500}"
        start = time.perf_counter()
        client.request("GET", path)
        response = client.getresponse()
        response.read()
        elapsed = time.perf_counter() - start
        latencies.append(elapsed * 1000)
        time.sleep(max(0.0, 0.01 - elapsed))
    client.close()


def attack(port, catalog, source, seconds, counts, stop):
    """The most expensive request, each time with a new range, from `source`."""
    client = connection(port, source)
    end = time.monotonic() + seconds
    for count in itertools.count():
        if stop.is_set() or time.monotonic() > end or count > 100_000:
            break
        path = (
            f"/api/v1/catalogs/{catalog}/search?q=&price=0..{999_999 + count}"
            f"&sort={'-price' if count % 2 else 'price'}&facets=categories,country&limit={20 + count % 30}"
        )
        client.request("GET", path)
        response = client.getresponse()
        response.read()
        counts[response.status] = counts.get(response.status, 0) + 1
        if response.status == 429:
            time.sleep(float(response.getheader("Retry-After") or "1"))
    client.close()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")


def run(binary, database, catalog, seconds, budget):
    process, port = start(binary, database, [] if budget else ["--client-cpu-budget", "0"])
    try:
        alone = []
        browse(port, catalog, seconds, alone)
        counts = [{}, {}]
        stop = threading.Event()
        attackers = [
            threading.Thread(target=attack, args=(port, catalog, source, seconds + 4, counts[index], stop))
            for index, source in enumerate(["127.0.0.2", "127.0.0.3"])
        ]
        for thread in attackers:
            thread.start()
        time.sleep(3)  # the attackers spend their burst before the browsing client measures
        attacked = []
        browse(port, catalog, seconds, attacked)
        stop.set()
        for thread in attackers:
            thread.join()
        answered = sum(sum(c.values()) for c in counts)
        refused = sum(c.get(429, 0) for c in counts)
        print(
            f"expensive budget={'on' if budget else 'off'} alone_p50_ms={statistics.median(alone):.2f} "
            f"alone_p99_ms={percentile(alone, 0.99):.2f} attacked_p50_ms={statistics.median(attacked):.2f} "
            f"attacked_p99_ms={percentile(attacked, 0.99):.2f} attacker_rps={answered / (seconds + 4):.0f} "
            f"slowed_429={refused}",
            flush=True,
        )
    finally:
        process.terminate()
        process.wait(timeout=30)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, database, catalog = sys.argv[1:4]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 10.0
    for budget in (True, False):
        run(binary, database, catalog, seconds, budget)


if __name__ == "__main__":
    main()
