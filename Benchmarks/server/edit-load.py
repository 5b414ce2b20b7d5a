#!/usr/bin/env python3
"""Record changes at a steady rate through the API, for server-bench.sh's edits under search load.

    edit-load.py URL CATALOG KEY IDS SECONDS RATE READY

Reads the records named in IDS (one id a line), then, once READY exists (the search run has
begun), changes them in turn for SECONDS at RATE changes a second: each a PUT of the record with
its title changed, on one keep-alive connection with an editor's API key, paced by the clock so a
slow answer is not made up for by a burst. Prints one results line:
`edits sent=N errors=E seconds=S rate=R p50_ms=… p99_ms=… max_ms=…`.
"""
import http.client
import json
import os
import sys
import time
import urllib.parse


def main():
    url, catalog, key, ids_path, seconds, rate, ready = sys.argv[1:8]
    seconds, rate = float(seconds), float(rate)
    parsed = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def path(item):
        return f"/api/v1/catalogs/{catalog}/items/{urllib.parse.quote(item, safe='')}"

    records = []
    with open(ids_path, encoding="utf-8") as file:
        for item in (line.strip() for line in file):
            if not item:
                continue
            connection.request("GET", path(item), headers=headers)
            answer = connection.getresponse()
            body = answer.read()
            if answer.status == 200:
                records.append(json.loads(body))
    if not records:
        sys.exit("edit-load: none of the records could be read")

    while not os.path.exists(ready):
        time.sleep(0.05)
    times, errors, sent = [], 0, 0
    start = time.monotonic()
    while True:
        due = start + sent / rate
        now = time.monotonic()
        if due - start >= seconds:
            break
        if due > now:
            time.sleep(due - now)
        record = dict(records[sent % len(records)])
        record["title"] = f"{record.get('title', '')} ({sent})"
        began = time.monotonic()
        try:
            connection.request("PUT", path(record["id"]), body=json.dumps(record).encode(), headers=headers)
            answer = connection.getresponse()
            answer.read()
            if answer.status not in (200, 201):
                errors += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            connection.close()
        times.append((time.monotonic() - began) * 1000)
        sent += 1
    elapsed = time.monotonic() - start
    times.sort()

    def percentile(share):
        return times[min(len(times) - 1, int(len(times) * share))] if times else 0

    print(
        f"edits sent={sent} errors={errors} seconds={elapsed:.1f} rate={sent / elapsed:.1f}"
        f" p50_ms={percentile(0.5):.2f} p99_ms={percentile(0.99):.2f} max_ms={times[-1] if times else 0:.2f}"
    )


if __name__ == "__main__":
    main()
