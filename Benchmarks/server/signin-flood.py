#!/usr/bin/env python3
"""A sign-in flood for attack-bench.sh: parallel clients signing in to the web app in a loop.

    signin-flood.py BASE_URL NAME PASSWORD SECONDS [--clients 8]

Each client fetches the sign-in form (for its CSRF cookie and field) once, then posts the
form with the right password again and again: every attempt costs the server a password
check (argon2id), and a right password is never throttled. Prints one line:

    flood-result clients=N seconds=S signins=N ok=N busy=N other=N p50_ms=F p99_ms=F

`ok` counts 303 answers (signed in), `busy` 503 (the password queue was full)."""
import argparse
import http.client
import threading
import time
import urllib.parse


def client(host, port, name, password, end, results, lock):
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.request("GET", "/signin")
    response = connection.getresponse()
    response.read()
    cookie = response.getheader("Set-Cookie", "").split(";")[0]
    token = cookie.split("=", 1)[1] if "=" in cookie else ""
    body = urllib.parse.urlencode({"csrf": token, "name": name, "password": password, "next": "/"})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    while time.monotonic() < end:
        started = time.monotonic()
        try:
            connection.request("POST", "/signin", body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
            connection.close()
            connection = http.client.HTTPConnection(host, port, timeout=30)
        with lock:
            results.append((status, time.monotonic() - started))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("name")
    parser.add_argument("password")
    parser.add_argument("seconds", type=float)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.base)
    results, lock = [], threading.Lock()
    end = time.monotonic() + args.seconds
    threads = [
        threading.Thread(target=client, args=(url.hostname, url.port, args.name, args.password, end, results, lock))
        for _ in range(args.clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    times = sorted(duration for _, duration in results)

    def percentile(p):
        return times[min(len(times) - 1, int(len(times) * p))] * 1000 if times else 0.0

    ok = sum(1 for status, _ in results if status == 303)
    busy = sum(1 for status, _ in results if status == 503)
    print(
        f"flood-result clients={args.clients} seconds={args.seconds:g} signins={len(results)} ok={ok} busy={busy}"
        f" other={len(results) - ok - busy} p50_ms={percentile(0.5):.1f} p99_ms={percentile(0.99):.1f}"
    )


if __name__ == "__main__":
    main()
