"""Live updates in a real Chromium, at a phone size and a desktop size: an open list, search
results, Hot, Favorites, a record's page and the record beside the list follow the catalog's changes made
through the API by someone else (an administrator's token), without a page load; the screen
stays on the same rows, the focus on its record; the stream pauses offline and catches up after.

The tests change the catalog "live", which no other test reads, and put back what they change.
Every wait is on the page (the DOM, or `window.__catalog.live`), never on time."""

import json
import unittest

from harness import ADMIN_TOKEN, DESKTOP, PHONE, BrowserCase, DevTools, api, api_change, quote

CATALOG = "live"


class LiveBehaviour:
    """Tests that hold at every size (mixed into one class per size below)."""

    def setUp(self):
        if not ADMIN_TOKEN:
            raise unittest.SkipTest("CATALOG_ADMIN_TOKEN is not set: run scripts/browser-tests.sh")
        super().setUp()
        self.made = set()

    def tearDown(self):
        for item in self.made:
            api_change("DELETE", "/api/v1/catalogs/%s/items/%s" % (CATALOG, quote(item)))
        super().tearDown()

    # ---- Changes through the API ---------------------------------------------------------------

    def item_id(self, name):
        return "t-%s-%s" % (self.size["name"], name)

    def put(self, item, title, **values):
        record = {"id": item, "title": title, "fields": {}}
        record.update(values)
        status, _, body = api_change("PUT", "/api/v1/catalogs/%s/items/%s" % (CATALOG, quote(item)), record)
        self.assertIn(status, (200, 201), body)
        self.made.add(item)
        return json.loads(body)

    def delete(self, item):
        status, _, body = api_change("DELETE", "/api/v1/catalogs/%s/items/%s" % (CATALOG, quote(item)))
        self.assertEqual(status, 204, body)

    # ---- The page ----------------------------------------------------------------------------------

    def row_title(self, item):
        """The title of the record's row in the page's list, or None when it has no row."""
        return self.js(
            "const row = Array.from(document.querySelectorAll('#list li.row')).find(r => r.dataset.id === arguments[0]);"
            "return row ? row.querySelector('.title').textContent : null;", item)

    def wait_row(self, item, title, message):
        self.wait_for(lambda: self.row_title(item) == title, timeout=10, message=lambda: "%s: %s" % (message, self.state()))

    def state(self):
        """What the page's live updates did, for a failure's message."""
        return self.js(
            "const l = window.__catalog.live || {}; const w = window.__catalog.list;"
            "return JSON.stringify({connected: l.connected, last: l.last, events: l.events, refreshes: l.refreshes,"
            " opened: l.opened, count: w && w.count, rows: Array.from(document.querySelectorAll('#list li.row'), r => r.dataset.id).slice(0, 8),"
            " server: (() => { if (!w || !w.source.rows) return null; const x = new XMLHttpRequest(); x.open('GET', w.source.rows, false); x.send();"
            " return x.responseText.slice(0, 300); })()});")

    def first_row_on_screen(self):
        return self.js("const l = window.__catalog.list; const p = l.place_(); return (l.rendered.get(p.position) || {dataset: {}}).dataset.id || null;")

    def text_of(self, selector):
        """The text of the first element `selector` finds (read afresh: live updates replace elements)."""
        return self.js("const n = document.querySelector(arguments[0]); return n ? n.textContent : null;", selector)

    def live(self, name):
        return self.js("return window.__catalog.live ? window.__catalog.live[arguments[0]] : null;", name)

    def wait_connected(self):
        self.wait_for(lambda: self.live("connected") is True, timeout=10, message="the change stream did not open")

    # ---- Lists -----------------------------------------------------------------------------------

    def test_an_open_list_follows_changes_made_elsewhere(self):
        first, second = self.item_id("aardvark"), self.item_id("aardwolf")
        self.put(first, "Aardvark " + self.size["name"], subtitle="before")
        self.open("/c/" + CATALOG)
        self.wait_row(first, "Aardvark " + self.size["name"], "the record is not in the list")
        self.mark_page()
        # Changed: the row is drawn anew where it stands.
        self.put(first, "Aardvark %s renamed" % self.size["name"], subtitle="after")
        self.wait_row(first, "Aardvark %s renamed" % self.size["name"], "the changed record was not drawn again")
        self.assertEqual(self.js(
            "return Array.from(document.querySelectorAll('#list li.row')).find(r => r.dataset.id === arguments[0])"
            ".querySelector('.subtitle').textContent;", first), "after")
        # New: it appears in its place (after the first, by title).
        self.put(second, "Aardwolf " + self.size["name"])
        self.wait_row(second, "Aardwolf " + self.size["name"], "the new record did not appear")
        positions = self.js(
            "const at = id => Number(Array.from(document.querySelectorAll('#list li.row')).find(r => r.dataset.id === id).dataset.position);"
            "return [at(arguments[0]), at(arguments[1])];", first, second)
        self.assertEqual(positions[1], positions[0] + 1)
        count = self.js("return window.__catalog.list.count;")
        self.assertEqual(count, api("/api/v1/catalogs/%s/outline" % CATALOG)["count"])
        # Deleted: it leaves, and the count follows.
        self.delete(first)
        self.wait_for(lambda: self.row_title(first) is None, timeout=10, message="the deleted record stayed")
        self.assertEqual(self.js("return window.__catalog.list.count;"), count - 1)
        self.assertEqual(self.js("return document.getElementById('sections').getAttribute('data-count');"), str(count - 1))
        self.assertTrue(self.page_kept(), "a change loaded the page again")

    def test_the_screen_stays_on_its_rows_and_the_focus_on_its_record(self):
        self.open("/c/" + CATALOG)
        self.settle()
        # Scrolled into the list: a record added at the top does not move what is on screen.
        self.js("window.__catalog.list.scrollToPosition(120);")
        self.settle()
        shown = self.first_row_on_screen()
        top = self.js("return window.__catalog.list.place_().offset;")
        refreshes = self.live("refreshes") or 0
        self.put(self.item_id("aaa"), "Aaa " + self.size["name"])
        self.wait_for(lambda: self.live("refreshes") > refreshes, timeout=10, message="the list was not drawn again")
        self.settle()
        self.assertEqual(self.first_row_on_screen(), shown)
        self.assertEqual(self.js("return window.__catalog.list.place_().offset;"), top)
        # The focused row's record changes: the focus stays on it.
        focused = self.js(
            "const l = window.__catalog.list; const row = l.rendered.get(l.place_().position + 2);"
            "row.querySelector('.row-link').focus(); return row.dataset.id;")
        record = api("/api/v1/catalogs/%s/items/%s" % (CATALOG, quote(focused)))
        original = dict(record)
        record["subtitle"] = "focused " + self.size["name"]
        status, _, body = api_change("PUT", "/api/v1/catalogs/%s/items/%s" % (CATALOG, quote(focused)), record)
        self.assertEqual(status, 200, body)
        try:
            self.wait_for(lambda: self.js(
                "const row = document.activeElement.closest('.row');"
                "return row && row.dataset.id === arguments[0] && row.querySelector('.subtitle').textContent;",
                focused) == "focused " + self.size["name"], timeout=10, message="the focus left the changed record")
        finally:
            api_change("PUT", "/api/v1/catalogs/%s/items/%s" % (CATALOG, quote(focused)), original)

    def test_search_results_follow_changes(self):
        # The id is searched too: it must not hold the word.
        item = self.item_id("found")
        word = "zebrafink" + self.size["name"]
        self.open("/c/%s?q=%s&search=1" % (CATALOG, word))
        self.assertTrue(self.find("#empty").is_displayed())
        self.wait_connected()
        # A record that now matches comes, with the total.
        self.put(item, word.capitalize() + " blau")
        self.wait_row(item, word.capitalize() + " blau", "the matching record did not appear")
        self.wait_for(lambda: self.text_of("#total") == "1 result", message="the total did not follow")
        self.assertFalse(self.find("#empty").is_displayed())
        self.assertEqual(self.find("#results .row .title mark").text.lower(), word)
        # One that no longer matches goes.
        self.put(item, "Kanarienvogel")
        self.wait_for(lambda: self.row_title(item) is None, timeout=10, message="the record that left stayed")
        self.wait_for(lambda: self.find("#empty").is_displayed(), message="no 'no results'")
        # One message says so: the total says nothing beside it.
        self.assertEqual(self.find("#total").text, "")

    # ---- A record ----------------------------------------------------------------------------------

    def test_a_record_page_shows_new_values_and_says_when_it_was_deleted(self):
        item = self.item_id("okapi")
        self.put(item, "Okapi", subtitle="forest", price=12.5, currency="EUR")
        self.open("/c/%s/i/%s" % (CATALOG, quote(item)))
        self.mark_page()
        self.put(item, "Okapi spotted", subtitle="river", price=14, currency="EUR")
        self.wait_for(lambda: self.text_of(".detail-title") == "Okapi spotted", timeout=10,
                      message="the page did not show the new title")
        self.assertEqual(self.find(".detail-subtitle").text, "river")
        self.assertIn("€14.00", self.find(".facts").text)
        self.assertEqual(self.driver.title, "Okapi spotted")
        self.assertEqual(self.find("#bar-title").text, "Okapi spotted")
        self.delete(item)
        self.wait_for(lambda: self.js("const n = document.querySelector('article.detail .notice'); return n && n.textContent;")
                      == "This record was deleted.", timeout=10, message="the page did not say the record was deleted")
        self.assertEqual(self.find("article.detail .notice").get_attribute("role"), "status")
        # Put back, it shows again.
        self.put(item, "Okapi returns")
        self.wait_for(lambda: self.text_of(".detail-title") == "Okapi returns", timeout=10,
                      message="the record put back did not show")
        self.assertEqual(self.find_all("article.detail .notice"), [])
        self.assertTrue(self.page_kept())

    def test_offline_the_stream_pauses_and_catches_up_online(self):
        item = self.item_id("ibex")
        self.put(item, "Aardvark ibex " + self.size["name"])
        self.open("/c/" + CATALOG)
        self.wait_connected()
        opened = self.live("opened")
        devtools = DevTools(self.driver)
        self.allowed_console += ["ERR_INTERNET_DISCONNECTED", "Failed to fetch", "catalog:"]
        try:
            devtools.network(offline=True)
            self.wait_for(lambda: self.live("connected") is False, timeout=10, message="the stream stayed open offline")
            self.put(item, "Aardvark ibex %s, changed offline" % self.size["name"])
            devtools.network(offline=False)
        finally:
            devtools.close()
        # Back online, it resumes after the last change it had and draws what it missed.
        self.wait_row(item, "Aardvark ibex %s, changed offline" % self.size["name"], "the change made offline did not come")
        self.assertGreater(self.live("opened"), opened)


    # ---- Hot and Favorites -------------------------------------------------------------------------

    def collection_titles(self):
        return self.js(
            "return Array.from(document.querySelectorAll('#collection li.row'), r => [r.dataset.id, r.querySelector('.title').textContent]);")

    def wait_collection(self, test, message):
        self.wait_for(lambda: test(dict(self.collection_titles())), timeout=10,
                      message=lambda: "%s: %s %s" % (message, self.collection_titles(), self.state()))

    def test_hot_follows_changes(self):
        first, second = self.item_id("hot-a"), self.item_id("hot-b")
        self.put(first, "Hot A " + self.size["name"], featured=2)
        self.open("/c/%s/hot" % CATALOG)
        self.wait_connected()
        self.wait_collection(lambda rows: first in rows, "the featured record is not in Hot")
        self.mark_page()
        # A record that becomes featured joins Hot in its place; one that changed is drawn anew.
        self.put(second, "Hot B " + self.size["name"], featured=1)
        self.put(first, "Hot A %s renamed" % self.size["name"], featured=2)
        self.wait_collection(lambda rows: rows.get(first) == "Hot A %s renamed" % self.size["name"] and second in rows,
                             "Hot did not follow the changes")
        ids = [item for item, _ in self.collection_titles()]
        self.assertLess(ids.index(second), ids.index(first), "featured 1 comes before featured 2")
        # No longer featured, or deleted: it leaves.
        self.put(second, "Hot B " + self.size["name"])
        self.delete(first)
        self.made.discard(first)
        self.wait_collection(lambda rows: first not in rows and second not in rows, "records that left Hot stayed")
        self.assertTrue(self.page_kept(), "a change loaded the page again")

    def test_favorites_kept_in_this_browser_follow_changes(self):
        item = self.item_id("fav")
        self.put(item, "Favorite " + self.size["name"])
        self.open("/c/%s/favorites" % CATALOG)
        self.js("localStorage.setItem('catalog:favorites', JSON.stringify([[arguments[0], arguments[1]]]));", CATALOG, item)
        self.open("/c/%s/favorites" % CATALOG)
        self.wait_connected()
        self.wait_collection(lambda rows: item in rows, "the browser's favorite is not listed")
        self.mark_page()
        self.put(item, "Favorite %s renamed" % self.size["name"])
        self.wait_collection(lambda rows: rows.get(item) == "Favorite %s renamed" % self.size["name"],
                             "the changed favorite was not drawn again")
        self.delete(item)
        self.made.discard(item)
        self.wait_collection(lambda rows: item not in rows, "the deleted favorite stayed")
        self.assertFalse(self.js("return document.getElementById('empty').hidden;"), "the empty note is not shown")
        self.assertTrue(self.page_kept(), "a change loaded the page again")
        self.js("localStorage.removeItem('catalog:favorites');")


class PhoneLiveTests(LiveBehaviour, BrowserCase):
    size = PHONE


class DesktopLiveTests(LiveBehaviour, BrowserCase):
    size = DESKTOP

    def test_the_record_beside_the_list_follows_too(self):
        item = self.item_id("tapir")
        self.put(item, "Aardvark tapir")
        self.open("/c/%s?open=%s" % (CATALOG, quote(item)))
        self.mark_page()
        self.put(item, "Aardvark tapir, striped")
        self.wait_for(lambda: self.text_of("#pane .detail-title") == "Aardvark tapir, striped", timeout=10,
                      message="the pane did not show the new title")
        self.wait_row(item, "Aardvark tapir, striped", "the list beside it did not follow")
        self.delete(item)
        self.wait_for(lambda: bool(self.find_all("#pane .notice")), timeout=10, message="the pane did not say it was deleted")
        self.wait_for(lambda: self.row_title(item) is None, timeout=10, message="the row stayed")
        self.assertTrue(self.page_kept())


if __name__ == "__main__":
    unittest.main()
