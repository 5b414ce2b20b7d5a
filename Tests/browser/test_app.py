"""The web app at any depth and in the catalog's language, in a real Chromium at phone and desktop
sizes: the windowed list (bounded rows at any depth, rail jumps that keep everything before
reachable, places kept in the URL), search results paged by cursor, filters and facets, every
word in the catalog's language, touch targets, contrast and focus measured in the page, flags,
failed pictures, favorites without an account, the original apps' look, offline through the
DevTools protocol (a shared device keeps nothing of who signed out), and structured data."""

import json
import os
import re
import unittest
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import DESKTOP, PASSWORD, PHONE, USER, BrowserCase, DevTools, api, quote

STRINGS = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "CatalogServer", "Web", "Strings")
WORD = re.compile(r"[^\W\d_]+", re.UNICODE)

# Every visible text of the page and the texts of its controls (labels, placeholders, titles).
PAGE_TEXT = """
const parts = [document.title, document.body.innerText];
for (const node of document.querySelectorAll('[placeholder], [aria-label], [title], img[alt], button, option')) {
  for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
    const value = node.getAttribute(name);
    if (value) parts.push(value);
  }
  if (node.tagName === 'OPTION') parts.push(node.textContent);
}
return parts.join('\\n');
"""

# Text elements whose contrast is below 4.5:1 against the background behind them.
LOW_CONTRAST = """
function parse(color) {
  const m = color.match(/rgba?\\(([^)]+)\\)/);
  if (!m) return null;
  const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
  return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
}
function luminance(c) {
  const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
}
function over(top, bottom) {
  const a = top.a;
  return {r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a), b: top.b * a + bottom.b * (1 - a), a: 1};
}
function background(node) {
  const layers = [];
  for (let n = node; n; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
  }
  let result = {r: 255, g: 255, b: 255, a: 1};
  if (!layers.length || layers[layers.length - 1].a < 1) {
    result = matchMedia('(prefers-color-scheme: dark)').matches ? {r: 0, g: 0, b: 0, a: 1} : result;
  }
  for (const layer of layers.reverse()) result = over(layer, result);
  return result;
}
const failures = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const seen = new Set();
while (walker.nextNode()) {
  const text = walker.currentNode;
  const node = text.parentElement;
  if (!text.textContent.trim() || seen.has(node)) continue;
  seen.add(node);
  const style = getComputedStyle(node);
  const box = node.getBoundingClientRect();
  if (style.visibility !== 'visible' || style.display === 'none' || box.width === 0 || box.height === 0) continue;
  if (box.bottom < 0 || box.top > innerHeight || node.closest('[hidden], .visually-hidden, .skip')) continue;
  if (node.closest('.placeholder') || parseFloat(style.opacity) === 0) continue;
  let color = parse(style.color);
  const back = background(node);
  let opacity = 1;
  for (let n = node; n; n = n.parentElement) opacity *= parseFloat(getComputedStyle(n).opacity);
  color = over({...color, a: color.a * opacity}, back);
  const l1 = luminance(color), l2 = luminance(back);
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  if (ratio < 4.5) failures.push(text.textContent.trim().slice(0, 30) + ' ' + ratio.toFixed(2) + ' ' + node.className);
}
return failures;
"""

# Controls smaller than 44 x 44 px (the rail's letters are measured as one touch area).
SMALL_TARGETS = """
const failures = [];
for (const node of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, label.facet-value, [role=separator]')) {
  if (node.closest('#rail, .skip, .visually-hidden, [hidden]')) continue;
  const style = getComputedStyle(node);
  const box = node.getBoundingClientRect();
  if (style.display === 'none' || style.visibility === 'hidden' || box.width === 0) continue;
  let target = box;
  if (node.tagName === 'INPUT' && (node.type === 'checkbox' || node.type === 'radio')) {
    const label = node.closest('label');
    if (label) target = label.getBoundingClientRect();
  }
  const width = node.matches('[role=separator]') ? 44 : target.width;
  if (target.height < 43.5 || width < 43.5) {
    failures.push((node.id || node.className || node.tagName) + ' ' + Math.round(target.width) + 'x' + Math.round(target.height));
  }
}
const rail = document.getElementById('rail');
if (rail && getComputedStyle(rail).display !== 'none') {
  const box = rail.getBoundingClientRect();
  if (box.width < 43.5 || box.height < 43.5) failures.push('rail ' + box.width + 'x' + box.height);
}
return failures;
"""


def words(text):
    return {word.lower() for word in WORD.findall(text)}


def table_words(language):
    with open(os.path.join(STRINGS, language + ".json"), encoding="utf-8") as file:
        table = json.load(file)
    found = set()
    for value in table.values():
        for text in (value.values() if isinstance(value, dict) else [value]):
            found |= words(text.replace("{count}", " ").replace("{wait}", " ").replace("{time}", " "))
    return found


class AppBehaviour:
    """Tests that hold at every size."""

    # ---- The windowed list -----------------------------------------------------------------------

    def test_rows_stay_bounded_while_scrolling_twenty_thousand_rows(self):
        count = api("/api/v1/catalogs/deep/outline")["count"]
        self.assertGreaterEqual(count, 20000)
        self.open("/c/deep")
        most_rows = 0
        most_nodes = 0
        step = self.js("return innerHeight * 3;")
        rows_scrolled = 0
        while rows_scrolled < 20000:
            self.js("window.scrollBy(0, arguments[0]);", step)
            rows_scrolled += step // 60
            if rows_scrolled % 2400 < step // 60:
                self.wait_for(lambda: self.rows_drawn(), timeout=10, message="rows stayed placeholders")
            most_rows = max(most_rows, self.js("return document.querySelectorAll('.row').length;"))
            most_nodes = max(most_nodes, self.js("return document.getElementsByTagName('*').length;"))
        self.settle()
        self.wait_for(lambda: self.rows_drawn(), timeout=10)
        print("\n%s: scrolled %d of %d rows; at most %d rows and %d elements in the page"
              % (type(self).__name__, rows_scrolled, count, most_rows, most_nodes), flush=True)
        self.assertLessEqual(most_rows, 300, "the page holds %d rows" % most_rows)
        self.assertLessEqual(most_nodes, 6000, "the page holds %d elements" % most_nodes)
        first = self.js("return window.__catalog.list.place_().position;")
        self.assertGreaterEqual(first, 19000)
        # The scroll bar addresses the whole list: its end is the last record.
        self.js("window.scrollTo(0, document.documentElement.scrollHeight);")
        self.wait_for(lambda: self.rows_drawn(), timeout=10)
        last = api("/api/v1/catalogs/deep/items?position=%d&limit=1" % (count - 1))["items"][0]["id"]
        self.wait_for(lambda: self.find_all(".row[data-id='%s']" % last), message="the end is not the last record")

    def test_a_rail_jump_keeps_everything_before_reachable(self):
        self.open("/c/mid")
        self.tap_rail("M")
        outline = api("/api/v1/catalogs/mid/outline")
        start = next(s["start"] for s in outline["sections"] if s["label"] == "M")
        before = api("/api/v1/catalogs/mid/items?position=%d&limit=1" % (start - 1))["items"][0]
        # Scrolling up shows the record right before M, and on up to the first one.
        self.js("window.scrollBy(0, -200);")
        self.wait_for(lambda: self.find_all(".row[data-id='%s']:not(.placeholder)" % before["id"]),
                      message="the row before M did not come")
        self.assertTrue(self.find_all("#s-" + before["section"]))
        self.js("window.scrollTo(0, 0);")
        first = api("/api/v1/catalogs/mid/items?position=0&limit=1")["items"][0]["id"]
        self.wait_for(lambda: self.find_all(".row[data-id='%s']:not(.placeholder)" % first))
        # An empty letter is dimmed and leads to the next section.
        empty = self.find_all("#rail a.empty-label")
        if empty:
            target = empty[0].get_attribute("data-target")
            self.tap_rail(empty[0].get_attribute("data-label"))
            self.assertTrue(self.find_all("#s-" + target))

    def test_the_place_is_kept_for_the_back_link_reload_and_a_shared_link(self):
        self.open("/c/mid")
        self.js("window.scrollTo(0, 800 * 60);")
        self.wait_for(lambda: self.rows_drawn(), timeout=10)
        self.wait_for(lambda: "at" in self.query(), message="the place is not in the URL")
        self.settle()
        self.wait_for(lambda: self.js("return new URLSearchParams(location.search).get('at')") == self.js(
            "return window.__catalog.list.place_().cursor;"), message="the URL does not hold the place")
        top = self.first_visible()
        url = self.driver.current_url
        self.assertGreater(top["position"], 600)
        # Reload.
        self.driver.refresh()
        self.wait_ready()
        self.wait_for(lambda: self.rows_drawn(), timeout=10)
        self.assertEqual(self.first_visible()["id"], top["id"], "reload lost the place")
        # A shared link, in a fresh tab of its own (no session storage): the same first row.
        self.js("sessionStorage.clear();")
        self.driver.get(url)
        self.wait_ready()
        self.wait_for(lambda: self.rows_drawn(), timeout=10)
        self.assertEqual(self.first_visible()["id"], top["id"], "the shared link lost the place")
        if self.size is PHONE:
            # The detail page's back link.
            # Opened where it is (a tap that scrolled first would move the place).
            link = self.find(".row[data-id='%s'] .row-link" % top["id"])
            self.mark_page()
            self.js("arguments[0].click();", link)
            self.wait_for(lambda: not self.page_kept())
            self.wait_ready()
            self.follow(self.find("a.back"))
            self.wait_for(lambda: self.rows_drawn(), timeout=10)
            self.assertEqual(self.first_visible()["id"], top["id"], "the back link lost the place")
        # Cancel in a search returns to it too.
        self.find("#q").click()
        self.type_search("a")
        self.mark_page()
        self.follow(self.find("#search-cancel"))
        self.wait_for(lambda: self.rows_drawn(), timeout=10)
        self.assertEqual(self.first_visible()["id"], top["id"], "Cancel lost the place")

    def test_search_results_page_by_cursor_while_scrolling(self):
        self.open("/c/deep")
        self.find("#q").click()
        self.type_search("a")
        first = self.js("return window.__catalog.list.count;")
        self.assertGreaterEqual(first, 50)
        # Screen readers hear each row's place and the list's size: the total, or "unknown" (-1)
        # while more pages are to come and the count was capped.
        total = self.find("#results").get_attribute("data-total")
        capped = self.find("#results").get_attribute("data-capped") is not None
        row = self.find("#results .row")
        self.assertEqual(row.get_attribute("aria-posinset"), "1")
        self.assertEqual(row.get_attribute("aria-setsize"), "-1" if capped else total)
        url = self.driver.current_url
        for _ in range(3):
            self.js("window.scrollTo(0, document.documentElement.scrollHeight);")
            self.settle()
        # Keep at the bottom while waiting: a page that came in late moves the bottom down again.
        self.wait_for(lambda: self.js("window.scrollTo(0, document.documentElement.scrollHeight);"
                                      " return window.__catalog.list.count;") >= first + 100,
                      timeout=20, message="no more results")
        ids = [hit for hit in self.js("return window.__catalog.list.results.map(r => r.id);")]
        self.assertEqual(len(ids), len(set(ids)), "a result shows twice")
        self.assertEqual(self.driver.current_url, url, "paging changed the URL")
        self.assertLessEqual(self.js("return document.querySelectorAll('.row').length;"), 300)

    def test_filters_facets_and_sort_are_in_the_url(self):
        self.open("/c/products")
        self.find("#q").click()
        self.type_search("a")
        if self.size is PHONE:
            self.assertFalse(self.find("#filters").is_displayed())
            self.tap(self.find("#filter-toggle"))
            self.wait_for(lambda: self.find("#filters").is_displayed(), message="no filter sheet")
            self.screenshot("17-filters-sheet")
        else:
            self.assertTrue(self.find("#filters").is_displayed(), "no filter panel on a wide screen")
            panel = self.rect(self.find("#filters"))
            results = self.rect(self.find("#results"))
            self.assertLessEqual(panel["right"], results["left"] + 1, "the panel is not beside the results")
            self.screenshot("17-filters-panel")
        germany = self.find("#filters input[name=country][value=DE]")
        count = int(germany.find_element("xpath", "..").find_element("css selector", ".facet-count").text)
        before = self.renders()
        history = self.js("return history.length;")
        self.tap(germany.find_element("xpath", ".."))
        self.wait_for(lambda: self.renders() > before)
        self.settle()
        self.assertEqual(self.query().get("country"), "DE")
        self.assertEqual(len(self.find_all("#results .row")), count)
        self.assertEqual(self.js("return history.length;"), history, "a filter added a history entry")
        before = self.renders()
        self.driver.find_element("css selector", "#sort option[value='-price']").click()
        self.wait_for(lambda: self.renders() > before)
        self.settle()
        self.assertEqual(self.query().get("sort"), "-price")
        prices = [float(re.sub(r"[^0-9.]", "", t)) for t in self.texts("#results .price")]
        self.assertEqual(prices, sorted(prices, reverse=True))
        # Reload restores all of it.
        self.driver.refresh()
        self.wait_ready()
        self.assertTrue(self.find("#filters input[name=country][value=DE]").is_selected())
        self.assertEqual(self.find("#sort").get_attribute("value"), "-price")
        self.assertEqual(len(self.find_all("#results .row")), count)

    def test_record_fields_filter_from_the_sheet(self):
        # The cookbook's preparation time is a field of few values: the sheet lists them with counts,
        # a value filters the results, and the URL keeps it.
        self.open("/c/cookbook?search=1")
        if self.size is PHONE:
            self.tap(self.find("#filter-toggle"))
            self.wait_for(lambda: self.find("#filters").is_displayed(), message="no filter sheet")
        facet = self.find('#filters fieldset[data-facet="f:complexity"]')
        self.assertTrue(facet.is_displayed(), "no list of the field's values")
        box = facet.find_element("css selector", "input[value='1 óra']")
        count = int(box.find_element("xpath", "..").find_element("css selector", ".facet-count").text)
        self.assertLess(count, 32)
        before = self.renders()
        self.tap(box.find_element("xpath", ".."))
        self.wait_for(lambda: self.renders() > before)
        self.settle()
        self.assertEqual(self.query().get("f:complexity"), "1 óra")
        self.assertEqual(len(self.find_all("#results .row")), count)
        self.driver.refresh()
        self.wait_ready()
        self.assertTrue(self.find('#filters fieldset[data-facet="f:complexity"] input[value="1 óra"]').is_selected())
        self.assertEqual(len(self.find_all("#results .row")), count)

    def test_the_phone_filter_sheet_is_modal(self):
        if self.size is not PHONE:
            self.skipTest("a panel beside the results on a wide screen")
        self.open("/c/cookbook?search=1")
        toggle = self.find("#filter-toggle")
        self.tap(toggle)
        self.wait_for(lambda: self.find("#filters").is_displayed(), message="no filter sheet")
        sheet = self.find("#filters")
        self.assertEqual(sheet.get_attribute("aria-modal"), "true")
        self.assertTrue(self.find(".sheet-backdrop").is_displayed(), "no dimmed backdrop")
        # The focus stays inside: Tab from the last control comes back to the first.
        inside = "return document.getElementById('filters').contains(document.activeElement);"
        self.assertTrue(self.js(inside))
        for _ in range(60):
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
            self.assertTrue(self.js(inside), "the focus left the sheet")
        # Escape closes it and gives the focus back to the button that opened it.
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait_for(lambda: not self.find("#filters").is_displayed(), message="Escape left the sheet open")
        self.assertFalse(self.find(".sheet-backdrop").is_displayed())
        self.assertEqual(self.js("return document.activeElement.id;"), "filter-toggle")
        # "Show N results" counts what a choice finds, and closes the sheet over those results.
        self.tap(toggle)
        self.wait_for(lambda: self.find("#filters").is_displayed(), message="no filter sheet")
        box = self.find('#filters fieldset[data-facet="f:complexity"] input[value="1 óra"]')
        count = int(box.find_element("xpath", "..").find_element("css selector", ".facet-count").text)
        before = self.renders()
        self.tap(box.find_element("xpath", ".."))
        self.wait_for(lambda: self.renders() > before)
        self.settle()
        button = self.find("#show-results")
        self.assertIn(str(count), button.text)
        self.tap(button)
        self.wait_for(lambda: not self.find("#filters").is_displayed(), message="the button left the sheet open")
        self.assertEqual(len(self.find_all("#results .row")), count)

    # ---- Every word in the catalog's language ----------------------------------------------------

    def test_no_english_on_the_pages_of_a_german_catalog(self):
        english = table_words("en") - table_words("de")
        data = set()
        for catalog in ("tief", "sequencers"):
            outline = api("/api/v1/catalogs/%s/outline" % catalog)
            for position in range(0, outline["count"], 500):
                for record in api("/api/v1/catalogs/%s/items?position=%d&limit=500" % (catalog, position))["items"]:
                    for value in [record["title"], record["subtitle"], record["description"], record["id"],
                                  record["country"], record["currency"]] + record["categories"]:
                        data |= words(value or "")
                    for value in record["fields"].values():
                        data |= words(json.dumps(value, ensure_ascii=False))
            data |= words(api("/api/v1/catalogs/%s" % catalog)["title"])
        checked = english - data
        item = api("/api/v1/catalogs/tief/items?limit=1")["items"][0]["id"]
        pages = [
            "/c/tief", "/c/tief?q=a&search=1", "/c/tief?q=a&search=1#filters", "/c/tief?from=M",
            "/c/tief/i/" + quote(item), "/c/tief/hot", "/c/tief/categories", "/c/tief/categories/1",
            "/c/tief/categories/1?q=e&search=1", "/c/tief/favorites", "/c/tief?open=" + quote(item),
            "/signin?next=%2Fc%2Ftief%2Ffavorites", "/c/tief/i/nope", "/c/tief?at=%21%21", "/c/tief?sort=x",
            "/c/sequencers", "/c/sequencers?q=o&search=1", "/c/sequencers/i/funkelpult", "/offline/de",
            # The editor (the user is an editor of "tief"; signed out, these lead to the sign-in).
            "/c/tief/i/%s/edit" % quote(item), "/c/tief/new",
        ]
        self.allowed_console += ["404", "400", "401"]

        def walk(signed_in):
            for path in pages:
                self.open(path)
                found = words(self.js(PAGE_TEXT)) & checked
                # The editor's currencies are their ISO codes (ALL, TRY), the same in every language.
                found -= {code.lower() for code in self.js(
                    "return Array.from(document.querySelectorAll('#f-currency option'), o => o.value);")}
                self.assertEqual(found, set(), "%s (%s) shows English: %s" % (path, signed_in, sorted(found)))

        walk("signed out")
        # A failed sign-in answers in German too.
        self.open("/signin?next=%2Fc%2Ftief")
        self.find("#name").send_keys(USER)
        self.find("#password").send_keys("falsch")
        self.follow(self.find("#signin-submit"))
        self.assertEqual(words(self.js(PAGE_TEXT)) & checked, set())
        self.sign_in("/c/tief")
        walk("signed in")

    # ---- Touch, contrast, focus ------------------------------------------------------------------

    def test_touch_targets_and_contrast_light_and_dark(self):
        pages = ["/", "/c/products", "/c/products?q=a&search=1", "/c/products/i/p001", "/c/cookbook",
                 "/c/cookbook/categories", "/c/sequencers", "/c/sequencers?q=o&search=1", "/signin", "/c/x/i/y"]
        self.allowed_console.append("404")
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            try:
                for path in pages:
                    self.open(path)
                    self.assertEqual(self.js(SMALL_TARGETS), [], "%s (%s): targets under 44 px" % (path, scheme))
                    self.assertEqual(self.js(LOW_CONTRAST), [], "%s (%s): contrast under 4.5:1" % (path, scheme))
            finally:
                self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_focus_never_hides_under_the_sticky_bars(self):
        self.open("/c/mid")
        self.js("window.scrollTo(0, 30000);")
        self.wait_for(lambda: self.rows_drawn(), timeout=10)
        row = self.first_visible()
        self.js("document.querySelector(\".row[data-id='%s'] .row-link\").focus();" % row["id"])
        for key in [Keys.ARROW_UP] * 6 + [Keys.ARROW_DOWN] * 30:
            ActionChains(self.driver).send_keys(key).perform()
            box = self.js("const r = document.activeElement.getBoundingClientRect(); return {top: r.top, bottom: r.bottom};")
            bars = self.js("return document.querySelector('form.search').getBoundingClientRect().bottom;")
            tabs = self.js("const t = document.querySelector('nav.tabs'); return t ? t.getBoundingClientRect().top : innerHeight;")
            self.assertGreaterEqual(box["top"], bars - 1, "the focused row is under the sticky bars")
            self.assertLessEqual(box["bottom"], tabs + 1, "the focused row is under the tab bar")

    # ---- Flags, pictures, the original apps' look --------------------------------------------------

    def test_every_country_shows_a_flag_or_a_badge_and_failed_pictures_a_placeholder(self):
        self.open("/c/mid")
        for _ in range(5):
            self.js("window.scrollBy(0, innerHeight * 2);")
            self.wait_for(lambda: self.rows_drawn(), timeout=10)
            in_view = ("return Array.from(document.querySelectorAll('img.flag')).filter(i => {"
                       "const b = i.getBoundingClientRect(); return b.bottom > 0 && b.top < innerHeight; })")
            self.wait_for(lambda: self.js(in_view + ".every(i => i.complete && i.naturalWidth > 0);"), timeout=10,
                          message="flags did not load: %s" % self.js(in_view + ".filter(i => !i.naturalWidth).map(i => i.alt);"))
            self.assertEqual(self.find_all(".flag.code"), [], "a flag failed")
        self.allowed_console.append("404")
        self.open("/c/pictures")
        self.wait_for(lambda: self.find_all(".image-failed"), message="no placeholder for a failed picture")
        self.assertEqual(self.js("return Array.from(document.images).filter(i => i.complete && !i.naturalWidth).length;"), 0)
        # Rows with and without a picture align.
        lefts = self.js("return Array.from(document.querySelectorAll('.row .title')).map(t => Math.round(t.getBoundingClientRect().left));")
        self.assertEqual(len(set(lefts)), 1, lefts)

    def test_the_sequencers_are_one_flat_list_tinted_sage_green(self):
        self.open("/c/sequencers")
        self.assertEqual(self.find_all("#rail"), [])
        self.assertEqual(self.find_all(".section-header"), [])
        colors = self.js("return Array.from(document.querySelectorAll('#sections .row')).sort((a, b) => "
                         "a.dataset.position - b.dataset.position).map(r => getComputedStyle(r).backgroundColor);")
        self.assertGreaterEqual(len(colors), 4)
        self.assertEqual(colors[1::2], ["rgb(180, 190, 150)"] * len(colors[1::2]))
        self.assertNotIn("rgb(180, 190, 150)", colors[0::2])
        self.screenshot("18-sequencers-tinted")

    # ---- Favorites without an account --------------------------------------------------------------

    def test_favorites_without_an_account_are_kept_and_merged_at_sign_in(self):
        self.open("/c/cookbook/i/r07")
        history = self.js("return history.length;")
        self.mark_page()
        self.tap(self.find("#favorite"))
        self.wait_for(lambda: self.find("#favorite").get_attribute("aria-pressed") == "true")
        self.assertTrue(self.page_kept())
        self.assertEqual(self.js("return history.length;"), history)
        self.open("/c/cookbook/favorites")
        self.wait_for(lambda: self.find_all("#collection .row[data-id=r07]"), message="the browser's favorite is not listed")
        self.sign_in("/c/cookbook/favorites")
        self.assertIn("r07", [r.get_attribute("data-id") for r in self.find_all("#collection .row")])
        self.assertEqual(self.js("return localStorage.getItem('catalog:favorites');"), "[]")
        # Clean up for the other tests: remove it from the account.
        self.open("/c/cookbook/i/r07")
        self.tap(self.find("#favorite"))
        self.wait_for(lambda: self.find("#favorite").get_attribute("aria-pressed") == "false")
        self.settle()

    # ---- Offline and structured data -------------------------------------------------------------

    def test_visited_pages_open_offline_and_others_get_a_localized_offline_page(self):
        self.open("/c/cookbook")
        self.wait_for(lambda: self.js("return !!navigator.serviceWorker.controller;") or self.reload_once(),
                      timeout=10, message="no service worker")
        self.open("/c/cookbook/i/r01")
        self.settle()
        devtools = DevTools(self.driver)
        self.allowed_console += ["ERR_INTERNET_DISCONNECTED", "Failed to fetch", "catalog:", "503"]
        try:
            devtools.network(offline=True)
            self.driver.get(self.base() + "/c/cookbook/i/r01")
            self.wait_for(lambda: self.js("return document.readyState === 'complete';"))
            self.assertEqual(self.find(".detail-title").text, api("/api/v1/catalogs/cookbook/items/r01")["title"])
            self.wait_for(lambda: self.find("#banner").is_displayed(), message="no offline banner")
            self.driver.get(self.base() + "/c/cookbook/i/r30")
            self.wait_for(lambda: self.js("return document.readyState === 'complete';"))
            # The service worker answers the navigation; give its page the moment it takes.
            self.wait_for(lambda: self.js("return document.documentElement.lang;") == "hu", timeout=10,
                          message="the offline page is not the catalog's language")
            self.assertEqual(self.js("return document.documentElement.lang;"), "hu")
            self.assertTrue(self.find("#offline-text").is_displayed())
            self.screenshot("19-offline")
        finally:
            devtools.close()
        # Back online, the page's retry loads it.
        self.mark_page()
        self.tap(self.find("#offline-retry"))
        self.wait_for(lambda: not self.page_kept())
        self.wait_ready()
        self.assertTrue(self.find_all("article.detail[data-id=r30]"))

    def test_detail_pages_carry_json_ld(self):
        for path, kind in (("/c/products/i/p001", "Product"), ("/c/cookbook/i/r01", "Recipe"),
                           ("/c/sequencers/i/funkelpult", "Thing")):
            self.open(path)
            data = json.loads(self.js("return document.querySelector('script[type=\"application/ld+json\"]').textContent;"))
            self.assertEqual(data["@type"], kind)
            self.assertEqual(data["name"], self.find(".detail-title").text)
            if kind == "Product":
                self.assertEqual(data["offers"]["priceCurrency"], "EUR")
                self.assertTrue(data["offers"]["price"])
            if kind == "Recipe":
                self.assertTrue(data["image"][0].startswith("http"))

    # ---- Helpers -----------------------------------------------------------------------------------

    def base(self):
        parts = urllib.parse.urlsplit(self.driver.current_url)
        return parts.scheme + "://" + parts.netloc

    def reload_once(self):
        self.driver.refresh()
        self.wait_ready()
        return False

    def rows_drawn(self):
        """Whether rows are on screen and none of them is a placeholder (right after a scroll, before
        the list has drawn, there are none on screen at all)."""
        return self.js("const rows = Array.from(document.querySelectorAll('#sections .row')).filter(r => {"
                       "const b = r.getBoundingClientRect(); return b.bottom > 0 && b.top < innerHeight; });"
                       "return rows.length > 0 && !rows.some(r => r.classList.contains('placeholder'));")

    def first_visible(self):
        return self.js(
            "const top = document.querySelector('form.search').getBoundingClientRect().bottom + 28;"
            "const rows = Array.from(document.querySelectorAll('#sections .row')).filter(r => "
            "r.getBoundingClientRect().bottom > top + 4).sort((a, b) => a.dataset.position - b.dataset.position);"
            "return {id: rows[0].dataset.id, position: Number(rows[0].dataset.position)};")

    def tap_rail(self, label):
        link = self.find("#rail a[data-label='%s']" % label)
        target = link.get_attribute("data-target") or label
        link.click()
        self.wait_for(lambda: self.find_all("#s-" + target), message="no section %s after the rail" % label)
        self.settle()
        self.wait_for(lambda: self.rows_drawn(), timeout=10)


# The service worker's caches: for every page kept, its path and whether it was made for a
# signed-in user (the sign-out form, the body's mark) or names `arguments[0]`.
KEPT_PAGES = """
const [name, done] = arguments;
(async () => {
  const kept = [];
  for (const cacheName of await caches.keys()) {
    if (cacheName.startsWith('catalog-shell-')) continue;
    const cache = await caches.open(cacheName);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const type = response.headers.get('Content-Type') || '';
      const text = type.startsWith('text/html') ? await response.text() : '';
      kept.push({cache: cacheName, path: new URL(request.url).pathname,
                 personal: text.includes('data-signed-in') || text.includes('class="signout"') || text.includes(name)});
    }
  }
  return kept;
})().then(done, (error) => done([{cache: 'error', path: String(error), personal: true}]));
"""


class PhoneAppTests(AppBehaviour, BrowserCase):
    size = PHONE

    def kept_pages(self):
        return self.driver.execute_async_script(KEPT_PAGES, 'title="%s"' % USER)

    def test_a_shared_device_keeps_nothing_of_the_previous_user_offline(self):
        # Someone browses without an account: the pages they see are kept for offline use.
        self.open("/c/cookbook")
        self.wait_for(lambda: self.js("return !!navigator.serviceWorker.controller;") or self.reload_once(),
                      timeout=10, message="no service worker")
        self.open("/c/cookbook/i/r02")
        self.settle()
        self.wait_for(lambda: "/c/cookbook/i/r02" in [p["path"] for p in self.kept_pages()],
                      message="an anonymous page was not kept")
        # A signs in, marks a favorite, looks at their favorites and another page.
        self.sign_in("/c/cookbook/i/r09")
        self.tap(self.find("#favorite"))
        self.wait_for(lambda: self.find("#favorite").get_attribute("aria-pressed") == "true")
        self.settle()
        self.open("/c/cookbook/favorites")
        self.assertIn("r09", [r.get_attribute("data-id") for r in self.find_all("#collection .row")])
        self.open("/c/cookbook/i/r03")
        self.open("/")
        self.settle()
        personal = [p for p in self.kept_pages() if p["personal"]]
        self.assertEqual(personal, [], "the worker kept pages made for a signed-in user")
        # A signs out: what the browser kept goes with them.
        self.follow(self.find(".signout button"))
        self.assertTrue(self.find_all("a.signin"))
        self.wait_for(lambda: "/c/cookbook/i/r02" not in [p["path"] for p in self.kept_pages()],
                      message="sign-out left the kept pages")
        self.assertEqual(self.js("return localStorage.getItem('catalog:favorites');"), "[]")
        # The next person, offline on the same device, sees nothing of A's.
        devtools = DevTools(self.driver)
        self.allowed_console += ["ERR_INTERNET_DISCONNECTED", "Failed to fetch", "catalog:", "503"]
        try:
            devtools.network(offline=True)
            for path in ("/c/cookbook/favorites", "/c/cookbook/i/r09", "/c/cookbook/i/r03", "/c/cookbook", "/"):
                self.driver.get(self.base() + path)
                self.wait_for(lambda: self.js("return document.readyState === 'complete';"))
                # The worker answers; what it answers is the offline page or a page for no one.
                self.wait_for(lambda: self.find_all("#offline-text") or self.find_all("a.signin"), timeout=10,
                              message="%s offline shows neither the offline page nor a signed-out page" % path)
                self.assertFalse(self.find_all("form.signout"), path)
                self.assertIsNone(self.js("return document.body.getAttribute('data-signed-in');"), path)
                self.assertNotIn('title="%s"' % USER, self.js("return document.documentElement.outerHTML;"), path)
                self.assertFalse(self.find_all("#collection .row[data-id=r09]"), path)
            self.assertEqual([p for p in self.kept_pages() if p["personal"]], [])
        finally:
            devtools.close()
        # Clean up for the other tests: the favorite goes.
        self.sign_in("/c/cookbook/i/r09")
        self.tap(self.find("#favorite"))
        self.wait_for(lambda: self.find("#favorite").get_attribute("aria-pressed") == "false")
        self.settle()


class DesktopAppTests(AppBehaviour, BrowserCase):
    size = DESKTOP

    def test_a_deep_link_opens_the_pane_and_the_list_column_resizes(self):
        self.open("/c/products?open=p005")
        self.assertTrue(self.find("#pane article.detail[data-id=p005]").is_displayed())
        self.assertEqual(self.driver.title, api("/api/v1/catalogs/products/items/p005")["title"])
        self.assertEqual(self.find(".row[data-id=p005] .row-link").get_attribute("aria-current"), "true")
        splitter = self.find(".splitter")
        width = self.rect(self.find("#list"))["width"]
        ActionChains(self.driver).click_and_hold(splitter).move_by_offset(120, 0).release().perform()
        self.assertGreater(self.rect(self.find("#list"))["width"], width + 60)
        # Long names get the room: no name is cut while the column is wide.
        cut = self.js("return Array.from(document.querySelectorAll('#sections .title')).filter(t => t.scrollWidth > t.clientWidth + 1).length;")
        self.assertLessEqual(cut, 1)
        self.js("localStorage.removeItem('catalog:list-width');")


if __name__ == "__main__":
    unittest.main()
