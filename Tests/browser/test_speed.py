"""Keystroke to results drawn, in the browser, on the 1,000,000-record catalog.

Types 200 keystrokes of real words taken from the catalog's own titles (the field cleared between
words) and reads `window.__catalog.searchTimings`: for each search, the time from the input
event's timestamp to the animation frame after its results are in the page. Prints p50, p95 and
the worst; the goal is p95 <= 50 ms. Only a run that recorded no timing at all fails: the figure
is reported, not enforced, because it depends on the machine.

Needs CATALOG_1M_URL (a server with the catalog named by CATALOG_1M_CATALOG, default "big").
"""

import json
import os
import re
import time
import unittest
import urllib.request

from harness import PHONE, BrowserCase

URL = os.environ.get("CATALOG_1M_URL", "").rstrip("/")
CATALOG = os.environ.get("CATALOG_1M_CATALOG", "big")
KEYSTROKES = int(os.environ.get("CATALOG_1M_KEYSTROKES", "200"))
GOAL_MS = 50.0


def fetch(path):
    with urllib.request.urlopen(URL + path, timeout=30) as response:
        return json.load(response)


def words_of_the_catalog(count):
    """Distinct title words of 4+ letters from pages spread over the catalog's sections."""
    sections = fetch("/api/v1/catalogs/%s/sections" % CATALOG)["sections"]
    words = []
    seen = set()
    for section in sections[:: max(1, len(sections) // 12)]:
        page = fetch("/api/v1/catalogs/%s/items?limit=40&section=%s" % (CATALOG, urllib.request.quote(section["label"])))
        for record in page["items"]:
            for word in re.findall(r"[^\W\d_]{4,}", record["title"]):
                if word.lower() not in seen:
                    seen.add(word.lower())
                    words.append(word.lower())
    # Interleave sections so the typed words are not all alike.
    words = words[::3] + words[1::3] + words[2::3]
    return words[:count]


def cpu_busy(since=None):
    """The machine's busy CPU share since `since` (a reading from /proc/stat), or a new reading."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    reading = (sum(fields), idle)
    if since is None:
        return reading
    total = reading[0] - since[0]
    return 100.0 * (total - (reading[1] - since[1])) / total if total else 0.0


def load_average():
    with open("/proc/loadavg") as loadavg:
        return " ".join(loadavg.read().split()[:3])


# Waits inside the page (so that no WebDriver polling competes with the page's own work) until a
# new timing is in and the page is idle; answers false after the time-out.
WAIT_FOR_TIMING = """
const [before, timeout, done] = arguments;
const started = performance.now();
const check = () => {
  const page = window.__catalog;
  if (page.searchTimings.length > before && page.idle) done(true);
  else if (performance.now() - started > timeout) done(false);
  else setTimeout(check, 25);
};
check();
"""


def percentile(values, share):
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


@unittest.skipUnless(URL, "no 1M-record server (CATALOG_1M_URL); set CATALOG_BROWSER_1M=1 to measure")
class KeystrokeToResults(BrowserCase):
    size = PHONE

    def test_keystroke_to_results_on_a_million_records(self):
        words = words_of_the_catalog(100)
        self.assertTrue(words, "the catalog has no words to type")
        self.driver.get(URL + "/c/" + CATALOG)
        self.wait_ready()
        count = self.js("return document.getElementById('list').dataset.count;")
        field = self.find("#q")
        field.click()
        self.settle()

        def clear():
            self.js("const q = document.getElementById('q'); q.value = '';")

        # Warm-up (not counted): the first searches fill caches in the browser and the server.
        for key in "warm":
            field.send_keys(key)
            self.settle()
        clear()
        self.js("window.__catalog.searchTimings = []; window.__catalog.searchPhases = [];")
        busy_before = cpu_busy()

        typed = 0
        missed = 0
        started = time.monotonic()
        for word in words * 4:
            clear()
            for key in word[:8]:
                if typed == KEYSTROKES:
                    break
                before = len(self.js("return window.__catalog.searchTimings;"))
                field.send_keys(key)
                typed += 1
                if not self.driver.execute_async_script(WAIT_FOR_TIMING, before, 3000):
                    missed += 1
            if typed == KEYSTROKES:
                break
        elapsed = time.monotonic() - started
        busy = cpu_busy(busy_before)
        timings = self.js("return window.__catalog.searchTimings;")
        phases = self.js("return window.__catalog.searchPhases;")
        self.assertTrue(timings, "no search timings were recorded")
        p50 = percentile(timings, 0.50)
        p95 = percentile(timings, 0.95)
        verdict = "meets" if p95 <= GOAL_MS else "MISSES"
        print(
            "\nkeystroke to results drawn, %s records: %d keystrokes, %d timings (%d without results in 3 s), "
            "p50 %.1f ms, p95 %.1f ms, max %.1f ms; %s the goal p95 <= %.0f ms (%.0f s)"
            % (count, typed, len(timings), missed, p50, p95, max(timings), verdict, GOAL_MS, elapsed),
            flush=True,
        )
        parts = {name: percentile([phase[name] for phase in phases], 0.5) for name in ("wait", "answer", "draw", "frame")}
        print(
            "  p50 of its parts: %.1f ms to start, %.1f ms for the server's answer, %.1f ms to draw, %.1f ms to the "
            "frame; the machine's CPU was %.0f%% busy meanwhile (this run included), load average %s"
            % (parts["wait"], parts["answer"], parts["draw"], parts["frame"], busy, load_average()),
            flush=True,
        )
        summary = os.environ.get("CATALOG_1M_SUMMARY")
        if summary:
            with open(summary, "w") as out:
                json.dump({"records": count, "keystrokes": typed, "timings": len(timings), "p50": p50, "p95": p95,
                           "max": max(timings)}, out)


if __name__ == "__main__":
    unittest.main()
