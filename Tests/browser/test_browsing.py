"""Browsing a catalog, in a real Chromium at phone and desktop sizes: the records viewed last on the
catalog's start page (kept in the browser, per catalog, newest first, at most ten, cleared on
request, shown offline, a deleted record dropped), sorting while browsing with the index rail still
one Tab stop after the search field, searching offline in the rows saved on the device (said so,
never every row), and the offline banner under the bar, never over the search field or the list's
sticky header."""

import json
import os
import unicodedata
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import DESKTOP, PHONE, BrowserCase, DevTools, api, api_change, quote

STRINGS = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "CatalogServer", "Web", "Strings")
# Network failures the page logs while the tests take it offline.
OFFLINE_CONSOLE = ["ERR_INTERNET_DISCONNECTED", "Failed to fetch", "ERR_FAILED", "catalog:", "503"]


def strings(language):
    with open(os.path.join(STRINGS, language + ".json"), encoding="utf-8") as file:
        return json.load(file)


def fold(text):
    """Lower case without accents, as the offline search compares."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


class Behaviour:
    """Tests that hold at every size (mixed into one class per size below)."""

    def stored_recent(self, catalog):
        return self.js("return JSON.parse(localStorage.getItem(arguments[0]) || '[]');", "catalog:recent:" + catalog)

    def serve_offline(self, path):
        """Opens `path` until the service worker controls it (it then keeps what the page loads)."""
        self.open(path)
        self.wait_for(lambda: self.js("return !!navigator.serviceWorker.controller;") or self.reload_once(),
                      timeout=10, message="no service worker")
        self.open(path)
        self.settle()

    def reload_once(self):
        self.driver.refresh()
        self.wait_ready()
        return False

    # ---- Recently viewed -------------------------------------------------------------------------

    def test_recently_viewed_records_on_the_start_page(self):
        words = strings("en")
        self.open("/c/products")
        self.js("localStorage.clear();")
        self.open("/c/products")
        self.assertEqual(self.find_all("#recent"), [], "recently viewed before anything was viewed")
        items = api("/api/v1/catalogs/products/items?limit=12")["items"]
        self.assertEqual(len(items), 12)
        for item in items:
            self.open("/c/products/i/" + quote(item["id"]))
        self.open("/c/products")
        self.wait_for(lambda: self.find_all("#recent .recent-item"), message="no recently viewed records")
        self.settle()
        # Newest first, at most ten, with their titles, in the page's language.
        newest = list(reversed(items))[:10]
        self.assertEqual([node.get_attribute("data-id") for node in self.find_all("#recent .recent-item")],
                         [item["id"] for item in newest])
        self.assertEqual(self.texts("#recent .recent-link"), [item["title"] for item in newest])
        self.assertEqual(self.find("#recent-title").text, words["recentlyViewed"])
        self.assertEqual(len(self.stored_recent("products")), 10)
        # Above the rows, which are not drawn under it.
        first_row = self.find("#sections .row")
        self.assertLessEqual(self.rect(self.find("#recent"))["bottom"], self.rect(first_row)["top"] + 0.5)
        # The rail stays one Tab stop after the search field; the links come after the rail.
        self.js("document.getElementById('q').focus();")
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertTrue(self.js("return !!document.activeElement.closest('#rail');"), "the rail is not one Tab away")
        self.screenshot("27-recently-viewed")

        # Per catalog: another catalog's start page has its own (none).
        self.open("/c/sequencers")
        self.assertEqual(self.find_all("#recent"), [])

        # A link opens its record.
        self.open("/c/products")
        link = self.find("#recent .recent-item[data-id='%s'] .recent-link" % newest[1]["id"])
        self.follow(link)
        self.assertTrue(self.find_all("article.detail[data-id='%s']" % newest[1]["id"]))
        self.open("/c/products")
        self.assertEqual(self.find("#recent .recent-item").get_attribute("data-id"), newest[1]["id"],
                         "the record viewed last is not first")

        # Clear: gone from the page and from the browser.
        self.tap(self.find("#recent-clear"))
        self.assertEqual(self.find_all("#recent"), [])
        self.assertEqual(self.stored_recent("products"), [])
        self.open("/c/products")
        self.assertEqual(self.find_all("#recent"), [])

    def test_a_deleted_record_drops_out_of_recently_viewed(self):
        item = "recent-%s" % self.size["name"]
        path = "/api/v1/catalogs/live/items/%s" % quote(item)
        status, _, body = api_change("PUT", path, {"id": item, "title": "Aardvark recent %s" % self.size["name"],
                                                   "fields": {}})
        self.assertIn(status, (200, 201), body)
        try:
            self.open("/c/live")
            self.js("localStorage.clear();")
            self.open("/c/live/i/%s" % quote(item))
            others = api("/api/v1/catalogs/live/items?limit=2")["items"]
            other = next(record for record in others if record["id"] != item)
            self.open("/c/live/i/%s" % quote(other["id"]))
            self.assertEqual([entry["id"] for entry in self.stored_recent("live")], [other["id"], item])
        finally:
            status, _, body = api_change("DELETE", path)
            self.assertIn(status, (200, 204), body)
        self.open("/c/live")
        self.wait_for(lambda: self.find_all("#recent[data-checked]"), message="the kept records were not checked")
        self.assertEqual([node.get_attribute("data-id") for node in self.find_all("#recent .recent-item")],
                         [other["id"]])
        self.assertEqual([entry["id"] for entry in self.stored_recent("live")], [other["id"]])

    def test_recently_viewed_show_offline(self):
        self.serve_offline("/c/products")
        self.js("localStorage.clear();")
        items = api("/api/v1/catalogs/products/items?limit=2")["items"]
        for item in items:
            self.open("/c/products/i/" + quote(item["id"]))
        devtools = DevTools(self.driver)
        self.allowed_console += OFFLINE_CONSOLE
        try:
            devtools.network(offline=True)
            self.driver.get(self.driver.current_url.split("/c/")[0] + "/c/products")
            self.wait_ready()
            self.wait_for(lambda: self.find("#banner").is_displayed(), message="no offline banner")
            self.assertEqual(self.texts("#recent .recent-link"), [item["title"] for item in reversed(items)])
        finally:
            devtools.close()

    # ---- Sorting while browsing ------------------------------------------------------------------

    def test_sorting_while_browsing_keeps_the_rail_one_tab_after_the_field(self):
        self.open("/c/products")
        self.js("localStorage.clear();")
        self.open("/c/products")
        sort = self.find("#browse-sort")
        self.assertTrue(sort.is_displayed(), "no sort while browsing")
        self.assertNotIn("searching", self.find("#list").get_attribute("class"))
        # Field, rail, sort: the sort is after the rail in the focus order.
        self.js("document.getElementById('q').focus();")
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(self.js("return document.activeElement.closest('#rail') && document.activeElement.dataset.label;"),
                         "A")
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(self.js("return document.activeElement.id;"), "browse-sort")
        # Not under the rail: the whole control is left of it.
        self.assertLessEqual(self.rect(sort)["right"], self.rect(self.find("#rail"))["left"] + 0.5)
        before = self.renders()
        Select(sort).select_by_value("-price")
        self.wait_for(lambda: self.renders() > before, message="sorting drew nothing")
        self.settle()
        self.assertEqual(self.query().get("sort"), "-price")
        self.assertIn("searching", self.find("#list").get_attribute("class"))
        self.assertEqual(self.find("#sort").get_attribute("value"), "-price")
        prices = [api("/api/v1/catalogs/products/items/%s" % quote(node.get_attribute("data-id")))["price"]
                  for node in self.find_all("#results .row")[:8]]
        self.assertGreater(len(prices), 5)
        self.assertEqual(prices, sorted(prices, reverse=True))
        self.screenshot("28-sorted-while-browsing")
        # Cancel: back to the list in index order, with its sort.
        self.follow(self.find("#search-cancel"))
        self.assertNotIn("searching", self.find("#list").get_attribute("class"))
        self.assertTrue(self.find("#browse-sort").is_displayed())

    # ---- Offline -----------------------------------------------------------------------------------

    def test_sorting_by_a_field_of_the_catalog(self):
        self.open("/c/products")
        sort = self.find("#browse-sort")
        labels = {option.get_attribute("value"): option.get_attribute("textContent")
                  for option in Select(sort).options}
        # The catalog's own fields, by their labels, both ways.
        self.assertEqual(labels.get("sku"), "Item number, ascending")
        self.assertEqual(labels.get("-sku"), "Item number, descending")
        self.assertEqual(labels.get("weight"), "Weight, ascending")
        before = self.renders()
        Select(sort).select_by_value("-sku")
        self.wait_for(lambda: self.renders() > before, message="sorting by a field drew nothing")
        self.settle()
        self.assertEqual(self.query().get("sort"), "-sku")
        self.assertEqual(self.find("#sort").get_attribute("value"), "-sku")
        skus = [api("/api/v1/catalogs/products/items/%s" % quote(node.get_attribute("data-id")))["fields"]["sku"]
                for node in self.find_all("#results .row")[:8]]
        self.assertGreater(len(skus), 5)
        self.assertEqual(skus, sorted(skus, reverse=True))
        # The filters' sort offers the same fields while searching.
        filter_labels = [option.get_attribute("textContent") for option in Select(self.find("#sort")).options]
        self.assertIn("Weight, descending", filter_labels)
        self.screenshot("29-sorted-by-a-field")

    def test_searching_offline_searches_the_saved_rows_and_says_so(self):
        words = strings("en")
        self.serve_offline("/c/products")
        saved = self.js("return Array.from(document.querySelectorAll('#sections .row')).map(r => r.dataset.id);")
        title = api("/api/v1/catalogs/products/items/%s" % quote(saved[1]))["title"]
        word = title.split()[0][:4]
        devtools = DevTools(self.driver)
        self.allowed_console += OFFLINE_CONSOLE
        try:
            devtools.network(offline=True)
            self.wait_for(lambda: self.find("#banner").is_displayed(), message="no offline banner")
            self.type_search(word)
            total = self.find("#total")
            self.wait_for(lambda: total.get_attribute("data-offline") is not None, message="not said to be offline")
            self.assertEqual(total.text, words["offlineSearch"])
            ids = [node.get_attribute("data-id") for node in self.find_all("#results .row")]
            self.assertIn(saved[1], ids)
            count = api("/api/v1/catalogs/products/outline")["count"]
            self.assertLess(len(ids), count, "every row matched offline")
            for node in self.find_all("#results .row"):
                self.assertIn(fold(word), fold(node.text))
            # Nothing saved matches: "no results", never the whole list.
            self.find("#q").send_keys("zqxv")
            self.wait_for(lambda: self.find("#empty").is_displayed(), message="no 'no results' offline")
            self.assertEqual(self.find_all("#results .row"), [])
            self.screenshot("29-offline-search")

            # A search page opened offline (a saved copy of the list) searches the saved rows too.
            self.driver.get(self.driver.current_url.split("/c/")[0] + "/c/products?q=%s&search=1" % quote(word))
            self.wait_ready()
            self.wait_for(lambda: self.find_all("#total[data-offline]"), message="the saved copy did not search")
            self.settle()
            self.assertIn(saved[1], [node.get_attribute("data-id") for node in self.find_all("#results .row")])
            self.assertEqual(self.find("#q").get_attribute("value"), word)
        finally:
            devtools.close()
        # Online again, the banner's Retry has the server answer the search.
        self.wait_for(lambda: self.js("return navigator.onLine;"), message="still offline")
        self.tap(self.find("#retry"))
        self.wait_for(lambda: not self.find_all("#total[data-offline]"), timeout=10,
                      message="Retry did not search the server")
        self.settle()
        self.assertFalse(self.find("#banner").is_displayed())
        self.assertIn(saved[1], [node.get_attribute("data-id") for node in self.find_all("#results .row")])

    def test_searching_offline_keeps_the_scope_filters_and_order(self):
        # The sequencers' whole list is one saved page: offline, each scope finds its records among them.
        records = api("/api/v1/catalogs/sequencers/items?limit=100")["items"]
        both = {r["id"] for r in records if {"Apple", "Windows"} <= set(r["categories"])}
        self.assertTrue(both, "the demo has programs for both platforms")
        self.serve_offline("/c/sequencers")
        saved = set(self.js("return Array.from(document.querySelectorAll('#sections .row')).map(r => r.dataset.id);"))
        devtools = DevTools(self.driver)
        self.allowed_console += OFFLINE_CONSOLE
        try:
            devtools.network(offline=True)
            self.wait_for(lambda: self.find("#banner").is_displayed(), message="no offline banner")
            self.find("#q").click()
            self.settle()
            for label, expected in [("Apple&Win", both), ("Apple", None), ("Alle", saved)]:
                if expected is None:
                    expected = {r["id"] for r in records if "Apple" in r["categories"]}
                button = next(b for b in self.find_all("button.scope") if b.get_attribute("value") == label)
                before = self.renders()
                self.tap(button)
                self.wait_for(lambda: self.renders() > before, message="scope %s drew nothing offline" % label)
                self.settle()
                self.assertIsNotNone(self.find("#total").get_attribute("data-offline"))
                shown = {row.get_attribute("data-id") for row in self.find_all("#results .row")}
                # Rows saved by earlier visits may join those of this page; none outside the scope.
                self.assertLessEqual(shown, expected, label)
                self.assertGreaterEqual(shown, expected & saved, label)
        finally:
            devtools.close()

        # The products: a country, a price range and an order, on the saved rows of a search.
        self.serve_offline("/c/products?q=a&search=1")
        saved = {row.get_attribute("data-id"): json.loads(row.get_attribute("data-filter") or "{}")
                 for row in self.find_all("#results .row")}
        self.assertGreater(len(saved), 10)
        devtools = DevTools(self.driver)
        try:
            devtools.network(offline=True)
            self.wait_for(lambda: self.find("#banner").is_displayed(), message="no offline banner")
            if self.size is PHONE:
                self.tap(self.find("#filter-toggle"))
                self.wait_for(lambda: self.find("#filters").is_displayed(), message="no filter sheet")
            prices = sorted(facts["p"] for facts in saved.values() if "p" in facts)
            low, high = prices[len(prices) // 4], prices[3 * len(prices) // 4]
            before = self.renders()
            self.js("""
                document.getElementById('pmin').value = arguments[0];
                document.getElementById('pmax').value = arguments[1];
                document.getElementById('sort').value = '-price';
                document.getElementById('sort').dispatchEvent(new Event('change', {bubbles: true}));
            """, str(low), str(high))
            self.wait_for(lambda: self.renders() > before, message="the filters drew nothing offline")
            self.settle()
            self.assertIsNotNone(self.find("#total").get_attribute("data-offline"))
            rows = self.find_all("#results .row")
            shown = [json.loads(row.get_attribute("data-filter")) for row in rows]
            expected = {id for id, facts in saved.items() if "p" in facts and low <= facts["p"] <= high}
            self.assertGreaterEqual({row.get_attribute("data-id") for row in rows}, expected)
            self.assertLess(len(expected), len(saved), "the range left nothing out")
            self.assertTrue(all(low <= facts["p"] <= high for facts in shown), "a price outside the range offline")
            # Dearest first within one currency: the most common currency's block, then the others.
            currencies = [facts.get("$") for facts in shown]
            blocks = [c for i, c in enumerate(currencies) if i == 0 or currencies[i - 1] != c]
            self.assertEqual(len(blocks), len(set(blocks)), "a currency's prices are not together")
            for currency in set(currencies):
                block = [facts["p"] for facts in shown if facts.get("$") == currency]
                self.assertEqual(block, sorted(block, reverse=True), "not dearest first offline")
        finally:
            devtools.close()

    def test_the_offline_banner_covers_neither_the_search_field_nor_the_sticky_header(self):
        # Long sections (2,000 records): the next section's header does not push the sticky one.
        self.open("/c/mid")
        self.js("window.scrollTo(0, 900);")
        self.wait_for(lambda: self.find(".sticky-header").is_displayed(), message="no sticky header after scrolling")
        self.settle()
        devtools = DevTools(self.driver)
        self.allowed_console += OFFLINE_CONSOLE
        try:
            devtools.network(offline=True)
            banner = self.find("#banner")
            self.wait_for(lambda: banner.is_displayed(), message="no offline banner")
            bar = self.rect(self.find("header.bar"))
            form = self.find("form.search")
            self.wait_for(lambda: self.rect(form)["top"] >= self.rect(banner)["bottom"] - 0.5,
                          message="the banner covers the search field")
            shown = self.rect(banner)
            self.assertGreaterEqual(shown["top"], bar["bottom"] - 0.5, "the banner is under the bar")
            self.assertGreaterEqual(self.rect(self.find("#q"))["top"], shown["bottom"])
            # The list's sticky header right under the search field, neither covered nor apart.
            self.js("window.scrollBy(0, 300);")
            sticky = self.find(".sticky-header")
            self.wait_for(lambda: sticky.is_displayed())
            self.assertAlmostEqual(self.rect(sticky)["top"], self.rect(form)["bottom"], delta=1)
            # The rows the list draws start under it (the list measured the banner).
            self.settle()
            self.assertTrue(self.js(
                "const bottom = arguments[0].getBoundingClientRect().bottom;"
                "return Array.from(document.querySelectorAll('#sections .row')).some(r => {"
                " const box = r.getBoundingClientRect(); return box.top >= bottom - 1 && box.top < bottom + 61; });",
                sticky), "no row right under the sticky header")
            self.screenshot("30-offline-banner")
        finally:
            devtools.close()
        self.wait_for(lambda: not self.find("#banner").is_displayed(), timeout=10, message="the banner stayed online")
        self.assertAlmostEqual(self.rect(self.find("form.search"))["top"], self.rect(self.find("header.bar"))["bottom"],
                               delta=1)


class PhoneTests(Behaviour, BrowserCase):
    size = PHONE


class DesktopTests(Behaviour, BrowserCase):
    size = DESKTOP

    def test_a_record_opened_in_the_pane_is_recently_viewed(self):
        self.open("/c/products")
        self.js("localStorage.clear();")
        self.open("/c/products")
        self.tap(self.find(".row[data-id=p003] .row-link"))
        self.wait_for(lambda: self.find_all("#pane article.detail[data-id=p003]"), message="the pane stayed empty")
        self.assertEqual([entry["id"] for entry in self.stored_recent("products")], ["p003"])


if __name__ == "__main__":
    unittest.main()
