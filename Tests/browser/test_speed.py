"""Keystroke to results drawn, scrolling and the index rail, in the browser, on the 1,000,000-record
catalog.

Types 200 keystrokes of real words taken from the catalog's own titles (the field cleared between
words) and reads `window.__catalog.searchTimings`: for each search, the time from the input
event's timestamp to the animation frame after its results are in the page. Prints p50, p95 and
the worst; the goal is p95 <= 50 ms. Only a run that recorded no timing at all fails: the figure
is reported, not enforced, because it depends on the machine.

Scrolling: 20,000 rows scrolled a few rows per animation frame through the windowed list; the
longest frame (goal: none over 50 ms). The rail: a tap on the last letter until its rows are drawn
(goal: within 200 ms), five times, alternating with the first letter.

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


# Scrolls `rows` rows, `per_frame` rows per animation frame, and answers every frame's length.
SCROLL = """
const [rows, perFrame, rowHeight, done] = arguments;
const frames = [];
let scrolled = 0;
let last = 0;
const tick = (now) => {
  if (last) frames.push(now - last);
  last = now;
  if (scrolled >= rows) { done(frames); return; }
  window.scrollBy(0, perFrame * rowHeight);
  scrolled += perFrame;
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""

# Taps a rail letter and answers the milliseconds until a frame shows its rows drawn.
RAIL_JUMP = """
const [label, done] = arguments;
const link = document.querySelector("#rail a[data-label='" + CSS.escape(label) + "']");
const target = link.dataset.target || label;
const started = performance.now();
link.click();
const check = () => {
  const header = document.getElementById("s-" + target);
  const rows = Array.from(document.querySelectorAll("#sections .row")).filter((r) => {
    const b = r.getBoundingClientRect(); return b.bottom > 0 && b.top < innerHeight; });
  if (header && rows.length && rows.every((r) => !r.classList.contains("placeholder"))) {
    done(performance.now() - started);
  } else if (performance.now() - started > 5000) {
    done(-1);
  } else {
    requestAnimationFrame(check);
  }
};
requestAnimationFrame(check);
"""


@unittest.skipUnless(URL, "no 1M-record server (CATALOG_1M_URL); set CATALOG_BROWSER_1M=1 to measure")
class ScrollingAndRail(BrowserCase):
    size = PHONE

    def test_scrolling_twenty_thousand_rows_and_jumping_to_the_last_letter(self):
        self.driver.set_script_timeout(300)
        self.driver.get(URL + "/c/" + CATALOG)
        self.wait_ready()
        count = self.js("return document.getElementById('sections').getAttribute('data-count');")
        row_height = self.js("return parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--row-h')) || 60;")
        # Warm-up: the first pages fill caches in the browser and the server.
        self.driver.execute_async_script(SCROLL, 200, 10, row_height)
        self.js("window.scrollTo(0, 0);")
        self.settle()
        started = time.monotonic()
        frames = self.driver.execute_async_script(SCROLL, 20000, 10, row_height)
        elapsed = time.monotonic() - started
        most_rows = self.js("return document.querySelectorAll('.row').length;")
        self.assertTrue(frames, "no frames were recorded")
        worst = max(frames)
        over = sum(1 for frame in frames if frame > 50)
        verdict = "meets" if worst <= 50 else "MISSES"
        print(
            "\nscrolling 20,000 rows of %s records (10 rows a frame): %d frames in %.1f s, p50 %.1f ms, p95 %.1f ms, "
            "worst %.1f ms, %d over 50 ms, %d rows in the page at the end; %s the goal (no frame over 50 ms)"
            % (count, len(frames), elapsed, percentile(frames, 0.5), percentile(frames, 0.95), worst, over,
               most_rows, verdict),
            flush=True,
        )
        labels = self.js("return Array.from(document.querySelectorAll('#rail a')).map(a => a.dataset.label);")
        jumps = []
        for _ in range(5):
            self.settle()
            self.driver.execute_async_script(RAIL_JUMP, labels[0])
            self.settle()
            jumps.append(self.driver.execute_async_script(RAIL_JUMP, labels[-1]))
        self.assertTrue(all(jump >= 0 for jump in jumps), "a rail jump never drew its rows: %s" % jumps)
        verdict = "meets" if max(jumps) <= 200 else "MISSES"
        print(
            "rail jump to the last letter (%s) until its rows are drawn: %s ms, worst %.1f ms; %s the goal (200 ms)"
            % (labels[-1], ", ".join("%.1f" % jump for jump in jumps), max(jumps), verdict),
            flush=True,
        )
        summary = os.environ.get("CATALOG_1M_SCROLL_SUMMARY")
        if summary:
            with open(summary, "w") as out:
                json.dump({"frames": len(frames), "worst": worst, "over50": over, "jumps": jumps}, out)


if __name__ == "__main__":
    unittest.main()
