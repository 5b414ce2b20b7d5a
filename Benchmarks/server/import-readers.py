#!/usr/bin/env python3
"""Readers during a big import, for attack-bench.sh.

    import-readers.py BASE_URL TOKEN CATALOG FILE FORMAT OTHER_PATHS SAME_PATHS [--quiet-seconds S]

For S seconds (default 5) two reader threads run alone: one reads OTHER_PATHS (records, searches,
pages of a catalog the import does not touch), one SAME_PATHS (of CATALOG, the one imported into),
each request after the previous one on a keep-alive connection with the bearer TOKEN (so the
response cache never answers). Then FILE is uploaded with POST /api/v1/catalogs/CATALOG/import
?format=FORMAT&replace=true while both readers go on, until the import answers.

Prints:
  import-result status= seconds= records= mb=
  readers-quiet requests= p50_us= p99_us= max_us= non2xx= errors=
  readers-import requests= p50_us= p99_us= max_us= non2xx= errors= other_max_us= same_max_us=
      other_p99_us= same_p99_us= over_100ms=
and on standard error the five slowest reads during the import: when each began (seconds into the
import, beside its length), which reader sent it and what it asked for.
"""
import http.client
import json
import os
import sys
import threading
import time
from urllib.parse import urlsplit


def percentile(values, fraction):
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    args = sys.argv[1:]
    quiet_seconds = 5.0
    if "--quiet-seconds" in args:
        index = args.index("--quiet-seconds")
        quiet_seconds = float(args[index + 1])
        del args[index:index + 2]
    if len(args) != 7:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(64)
    base, token, catalog, path, format_name, other_file, same_file = args
    parts = urlsplit(base)
    host, port = parts.hostname, parts.port

    def read(name):
        with open(name, encoding="utf-8") as file:
            return [line.strip() for line in file if line.strip()]

    lists = {"other": read(other_file), "same": read(same_file)}
    phase = {"name": "quiet"}
    samples = []  # (phase, reader, microseconds, status, began, path); status 0: no answer
    lock = threading.Lock()
    stop = threading.Event()

    def reader(name):
        paths = lists[name]
        position = 0
        connection = http.client.HTTPConnection(host, port, timeout=30)
        headers = {"Authorization": f"Bearer {token}"}
        while not stop.is_set():
            target = paths[position % len(paths)]
            position += 1
            current = phase["name"]
            began = time.perf_counter()
            try:
                connection.request("GET", target, headers=headers)
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = 0
                connection.close()
                connection = http.client.HTTPConnection(host, port, timeout=30)
            elapsed = int((time.perf_counter() - began) * 1e6)
            with lock:
                samples.append((current, name, elapsed, status, began, target))
        connection.close()

    threads = [threading.Thread(target=reader, args=(name,)) for name in ("other", "same")]
    for thread in threads:
        thread.start()
    time.sleep(quiet_seconds)

    size = os.path.getsize(path)
    upload = http.client.HTTPConnection(host, port, timeout=900)
    began = time.perf_counter()
    phase["name"] = "import"
    status, body = 0, b""
    try:
        with open(path, "rb") as file:
            upload.request("POST", f"/api/v1/catalogs/{catalog}/import?format={format_name}&replace=true",
                           body=file, headers={"Authorization": f"Bearer {token}",
                                               "Content-Type": "application/octet-stream",
                                               "Content-Length": str(size)})
            response = upload.getresponse()
            body = response.read()
            status = response.status
    except (OSError, http.client.HTTPException) as error:
        print(f"import-readers: the import failed: {error}", file=sys.stderr)
    seconds = time.perf_counter() - began
    phase["name"] = "after"
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    upload.close()
    try:
        answer = json.loads(body)
        records = answer.get("total", answer.get("added", 0))
    except ValueError:
        records = 0
        print(f"import-readers: import answered {status}: {body[:300]!r}", file=sys.stderr)
    print(f"import-result status={status} seconds={seconds:.1f} records={records} mb={size / 1e6:.0f}")

    for name in ("quiet", "import"):
        chosen = [s for s in samples if s[0] == name]
        times = [s[2] for s in chosen]
        line = (f"readers-{name} requests={len(chosen)} p50_us={percentile(times, 0.5)}"
                f" p99_us={percentile(times, 0.99)} max_us={max(times, default=0)}"
                f" non2xx={sum(1 for s in chosen if s[3] and not 200 <= s[3] < 300)}"
                f" errors={sum(1 for s in chosen if s[3] == 0)}")
        if name == "import":
            for reader_name in ("other", "same"):
                mine = [s[2] for s in chosen if s[1] == reader_name]
                line += (f" {reader_name}_requests={len(mine)} {reader_name}_p99_us={percentile(mine, 0.99)}"
                         f" {reader_name}_max_us={max(mine, default=0)}")
            line += f" over_100ms={sum(1 for t in times if t >= 100000)}"
        print(line)
    slowest = sorted((s for s in samples if s[0] == "import"), key=lambda s: -s[2])[:5]
    for sample in slowest:
        print(f"import-readers: {sample[2] / 1000:.0f} ms from {sample[4] - began:.1f} s of {seconds:.1f} s "
              f"({sample[1]}): GET {sample[5][:160]}", file=sys.stderr)


if __name__ == "__main__":
    main()
