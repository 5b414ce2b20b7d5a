#!/usr/bin/env python3
"""Checks `GET /metrics` with the real Prometheus parser (PyPI `prometheus-client`).

Starts `catalog serve` on a throwaway demo database and a loopback port, makes a few requests
(a search, an unknown path, a probe), then parses `/metrics` with
`prometheus_client.parser.text_string_to_metric_families`: any parse error fails, and so does a
missing family, a raw path as a route label, or a request counter that did not move.
Run by scripts/metrics-check.sh, which provides the package in a virtual environment.
    scripts/metrics-check.py CATALOG_BINARY
"""
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

EXPECTED_FAMILIES = [
    "catalog_http_requests",
    "catalog_http_request_duration_seconds",
    "catalog_search_duration_seconds",
    "catalog_search_hits",
    "catalog_cache_requests",
    "catalog_cache_hit_ratio",
    "catalog_http_connections_open",
    "catalog_http_connections_refused",
    "catalog_event_streams_open",
    "catalog_sign_ins_throttled",
    "catalog_imports_running",
    "catalog_database_bytes",
    "catalog_change_number",
]


def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def parse(text):
    """Every sample, as (family name, sample name, labels, value); raises on any parse error."""
    samples = []
    families = set()
    for family in text_string_to_metric_families(text):
        families.add(family.name)
        for sample in family.samples:
            samples.append((family.name, sample.name, sample.labels, sample.value))
    return families, samples


def search_count(samples):
    return sum(
        value
        for _, name, labels, value in samples
        if name == "catalog_http_requests_total" and labels.get("route") == "/api/v1/catalogs/{id}/search"
    )


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/catalog"
    with tempfile.TemporaryDirectory() as work:
        database = f"{work}/catalog.sqlite"
        subprocess.run([binary, "demo", "--db", database], check=True, capture_output=True)
        with open(f"{work}/serve.out", "w") as out, open(f"{work}/serve.err", "w") as err:
            server = subprocess.Popen([binary, "serve", "--db", database, "--port", "0", "--quiet"], stdout=out, stderr=err)
        try:
            url = None
            for _ in range(600):
                match = re.search(r"http://\S+", open(f"{work}/serve.out").read())
                if match:
                    url = match.group(0)
                    break
                time.sleep(0.1)
            if url is None:
                sys.exit("metrics-check: catalog serve did not start: " + open(f"{work}/serve.err").read())

            status, headers, text = get(f"{url}/metrics")
            if status != 200 or not headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"):
                sys.exit(f"metrics-check: /metrics answered {status} {headers.get('Content-Type')}")
            _, before = parse(text)

            for query in ["leves", "a", "zzzz"]:
                get(f"{url}/api/v1/catalogs/cookbook/search?q={query}")
            get(f"{url}/no/such/path")
            get(f"{url}/healthz")
            get(f"{url}/readyz")

            status, _, text = get(f"{url}/metrics")
            families, after = parse(text)
            problems = [f"no family {name}" for name in EXPECTED_FAMILIES if name not in families]
            routes = {labels["route"] for _, _, labels, _ in after if "route" in labels}
            if any("cookbook" in route for route in routes):
                problems.append(f"a raw path is a route label: {sorted(routes)}")
            if "unmatched" not in routes:
                problems.append("the unknown path is not counted under route=\"unmatched\"")
            if search_count(after) - search_count(before) != 3:
                problems.append(f"3 searches moved the counter by {search_count(after) - search_count(before)}")
            if problems:
                sys.exit("metrics-check: " + "; ".join(problems))
            print(f"metrics-check: {len(families)} families, {len(after)} samples parsed by prometheus_client")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
