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
        self.js("window.__catalog.searchTimings = [];")

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
                try:
                    self.wait_for(
                        lambda: self.js("return window.__catalog.searchTimings.length") > before and
                        self.js("return window.__catalog.idle === true"),
                        timeout=3,
                    )
                except AssertionError:
                    missed += 1
            if typed == KEYSTROKES:
                break
        elapsed = time.monotonic() - started
        timings = self.js("return window.__catalog.searchTimings;")
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
        summary = os.environ.get("CATALOG_1M_SUMMARY")
        if summary:
            with open(summary, "w") as out:
                json.dump({"records": count, "keystrokes": typed, "timings": len(timings), "p50": p50, "p95": p95,
                           "max": max(timings)}, out)


if __name__ == "__main__":
    unittest.main()
