"""Issue 23's screens, in a real Chromium at phone and desktop sizes: rows give the title the
row's width (price and flag on the line below, one title size), a search snippet shows its match,
scopes beyond a segmented control's room are whole-label chips, one "no results" says what to
do, a record shows its price beside its title with a share button, its picture full size and a
print stylesheet, short lists have no rail, Hot opens records in the pane on desktop (the bar's
title following), the list column widens while no record is open, the home page searches
every catalog as you type, and the main screens pass axe-core in light and dark mode."""

import unittest

from selenium.webdriver.common.keys import Keys

from axe_selenium_python import Axe

from harness import BASE_URL, DESKTOP, PHONE, BrowserCase
from test_app import SMALL_TARGETS


class Behaviour:
    """Tests that hold at every size (mixed into one class per size below)."""

    def test_rows_give_the_title_the_width_and_show_the_snippet_match(self):
        self.open("/c/products")
        sizes = self.js("return Array.from(document.querySelectorAll('#sections .row:not(.placeholder) .title'))"
                        ".map(t => getComputedStyle(t).fontSize);")
        self.assertGreater(len(sizes), 5)
        self.assertEqual(len(set(sizes)), 1, "titles of different sizes: %s" % sorted(set(sizes)))
        # The price and the flag are on the subtitle's line; the title spans the row's text.
        widths = self.js("""
            return Array.from(document.querySelectorAll('#sections .row:not(.placeholder)')).map(row => {
              const text = row.querySelector('.row-text').getBoundingClientRect();
              const title = row.querySelector('.title').getBoundingClientRect();
              const price = row.querySelector('.row-sub .price');
              return [title.width / text.width, !!price];
            });""")
        for share, has_price in widths:
            self.assertGreater(share, 0.95, "the title does not have the row's width")
            self.assertTrue(has_price, "a product row without its price on the subtitle line")
        self.screenshot("40-rows")

        # Snippets: every match shows whole, whatever the width (words before it give way).
        self.open("/c/products?q=ca&search=1")
        self.settle()
        self.wait_for(lambda: self.find_all("#results .snippet mark"), message="no snippet with a match")
        self.wait_for(lambda: self.js("""
            return Array.from(document.querySelectorAll('#results .row')).every(row => row.dataset.fitted);"""))
        cut = self.js("""
            return Array.from(document.querySelectorAll('#results .snippet')).filter(snippet => {
              const mark = snippet.querySelector('mark');
              if (!mark) return false;
              return mark.getBoundingClientRect().right > snippet.getBoundingClientRect().right + 0.5;
            }).map(snippet => snippet.textContent);""")
        self.assertEqual(cut, [], "snippets whose match is cut off")

    def test_many_scopes_are_chips_with_whole_labels(self):
        self.open("/c/products?q=a&search=1")
        self.settle()
        scopes = self.find("#scopes")
        self.assertIn("scope-chips", scopes.get_attribute("class"))
        cut = self.js("""
            return Array.from(document.querySelectorAll('#scopes .scope-label'))
              .filter(label => label.scrollWidth > label.clientWidth + 1).map(label => label.textContent);""")
        self.assertEqual(cut, [], "scope labels cut")
        self.assertEqual(self.js("return getComputedStyle(arguments[0]).flexWrap;", scopes), "nowrap")
        # The sequencers' three scopes stay a segmented control.
        self.open("/c/sequencers?q=o&search=1")
        self.assertNotIn("scope-chips", self.find("#scopes").get_attribute("class"))

    def test_no_results_says_what_to_do(self):
        self.open("/c/products?q=cast&search=1&scope=Office&country=DE")
        self.settle()
        empty = self.find("#empty")
        self.assertTrue(empty.is_displayed())
        self.assertEqual(self.find("#total").text, "")
        links = {a.text: a.get_attribute("href") for a in self.find_all("#empty .empty-actions a")}
        self.assertEqual(set(links), {"Clear filters", "Search everything"})
        self.assertNotIn("country=", links["Clear filters"])
        self.assertNotIn("scope=", links["Search everything"])
        # The script's search draws the same, from the server.
        self.type_search("x")
        self.assertEqual(len(self.find_all("#empty .empty-actions a")), 2)
        self.follow(self.find("#empty .empty-actions a[href*='country=DE']"))
        self.assertNotIn("scope", self.query())
        self.screenshot("41-no-results")
        # Two letters off every word of the catalog: a query that finds something is offered,
        # as the script searches too, and followed.
        self.open("/c/products")
        self.type_search("cappor")
        self.wait_for(lambda: self.find_all("#suggestion"), message="no suggestion")
        self.assertEqual(self.find("#suggestion").text, "copper")
        self.assertEqual(self.js(SMALL_TARGETS), [])
        self.follow(self.find("#suggestion"))
        self.wait_for(lambda: self.find_all("#results .row"), message="the suggestion found nothing")
        self.assertIn("Copper", " ".join(self.texts("#results .row .title")))

    def test_a_record_has_its_price_by_the_title_a_share_button_and_a_full_size_picture(self):
        self.open("/c/products/i/p001")
        price = self.find(".detail-head .detail-price").text
        facts = dict(zip(self.texts(".facts dt"), self.texts(".facts dd")))
        self.assertEqual(price, facts["Price"])
        self.screenshot("44-record")
        share = self.find("button.share")
        self.assertTrue(share.is_displayed())
        self.tap(share)
        self.wait_for(lambda: self.find_all(".toast-text") and self.find(".toast-text").text,
                      message="sharing said nothing")
        self.assertIn(self.find(".toast-text").text, ("Link copied.", self.driver.current_url))
        # The picture full size, closed with Escape.
        self.tap(self.find("img.detail-image"))
        self.wait_for(lambda: self.js("return !!document.querySelector('dialog.zoom[open]');"),
                      message="no full-size picture")
        # Fitted to the screen: the picture fills the dialog's width or height, however small it is.
        self.wait_for(lambda: self.js(
            "const i = document.querySelector('dialog.zoom .zoom-image'); return i.complete && i.naturalWidth > 0;"),
            message="the full-size picture did not load")
        filled = self.js("""
            const i = document.querySelector('dialog.zoom .zoom-image');
            const scale = Math.min(i.clientWidth / i.naturalWidth, i.clientHeight / i.naturalHeight);
            return Math.max(i.naturalWidth * scale / i.clientWidth, i.naturalHeight * scale / i.clientHeight);
        """)
        self.assertGreater(filled, 0.98, "the picture does not fill the screen")
        if self.size is PHONE:
            self.assertEqual(self.js("return getComputedStyle(document.querySelector('dialog.zoom')).touchAction;"),
                             "pinch-zoom")
        self.screenshot("42-zoom")
        self.find("dialog.zoom .zoom-close").send_keys(Keys.ESCAPE)
        self.wait_for(lambda: not self.find_all("dialog.zoom"), message="the picture stayed open")
        # Printed: the record alone, without the bars and buttons.
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            hidden = self.js("""
                return ['header.bar', '.detail-actions'].map(s => document.querySelector(s))
                  .filter(Boolean).map(node => getComputedStyle(node).display);""")
            self.assertEqual(set(hidden), {"none"})
            self.assertNotEqual(self.js("return getComputedStyle(document.querySelector('.facts')).display;"), "none")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    def test_a_recipe_prints_as_a_recipe(self):
        # Its title, picture, facts and the whole method, without the bars, tabs and buttons.
        self.open("/c/cookbook/i/r01")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            shown = self.js("""
                const display = (s) => { const n = document.querySelector(s); return n ? getComputedStyle(n).display : null; };
                return {bar: display('header.bar'), tabs: display('nav.tabs'), actions: display('.detail-actions'),
                        title: display('.detail-title'), facts: display('.facts'), description: display('.description')};""")
            self.assertEqual((shown["bar"], shown["tabs"], shown["actions"]), ("none", "none", "none"), shown)
            for part in ("title", "facts", "description"):
                self.assertNotIn(shown[part], (None, "none"), "%s not printed" % part)
            method = self.find(".description").text
            self.assertGreater(len(method), 100, "the method is not printed whole")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    def test_a_short_list_has_no_rail_and_a_flat_list_no_gutter(self):
        self.open("/c/sequencers")
        self.assertEqual(self.find_all("#rail"), [])
        row = self.find("#sections .row .row-link")
        padding = float(self.js("return parseFloat(getComputedStyle(arguments[0]).paddingRight);", row))
        self.assertLess(padding, 20, "a flat list keeps the rail's gutter")

    def test_a_flat_lists_rows_stay_put_when_search_opens(self):
        # On a phone the results take the rows' place (a wide screen puts the filter panel beside them).
        if self.size is not PHONE:
            self.skipTest("a wide screen's search has its filter panel beside the results")
        self.open("/c/sequencers")
        first = self.find("#sections .row .title")
        before = self.rect(first)
        title = first.text
        self.find("#q").click()
        self.wait_for(lambda: self.find_all("#results .row"), message="search did not open")
        self.settle()
        row = next(r for r in self.find_all("#results .row .title") if r.text == title)
        after = self.rect(row)
        self.assertAlmostEqual(before["left"], after["left"], delta=1, msg="the rows moved sideways")
        self.assertAlmostEqual(before["width"], after["width"], delta=1, msg="the rows changed width")

    def test_a_missing_record_keeps_the_catalogs_tabs_and_a_way_back(self):
        self.allowed_console.append("404")
        self.open("/c/cookbook/i/no-such-recipe")
        self.assertEqual(self.find(".error-status").text, "404")
        self.assertTrue(self.find("nav.tabs").is_displayed(), "no tab bar on a missing record's page")
        back = self.find("#error-back")
        self.assertEqual(back.text, "Szakácskönyv")
        self.tap(back)
        self.wait_for(lambda: self.path() == "/c/cookbook", message="the way back did not lead to the catalog")

    def test_the_home_page_searches_every_catalog(self):
        self.open("/")
        field = self.find("#home-q")
        field.send_keys("paprika")
        self.wait_for(lambda: self.find_all("#home-results .home-group"), message="no results across catalogs")
        self.settle()
        self.assertFalse(self.find("#catalogs").is_displayed())
        groups = [g.get_attribute("aria-label") for g in self.find_all("#home-results .home-group")]
        self.assertIn("Szakácskönyv", groups)
        self.assertEqual(self.path(), "/search?q=paprika")
        self.screenshot("43-home-search")
        # Reloaded, the server draws the same; cleared, the list comes back.
        self.open("/search?q=paprika")
        self.assertTrue(self.find_all("#home-results .home-group"))
        field = self.find("#home-q")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.BACKSPACE)
        self.wait_for(lambda: self.find("#catalogs").is_displayed(), message="the list did not come back")


    def test_the_main_screens_pass_axe_light_and_dark(self):
        paths = ["/", "/search?q=paprika", "/c/products", "/c/products?q=ca&search=1", "/c/products/i/p001",
                 "/c/cookbook/hot", "/c/cookbook/categories", "/c/cookbook/favorites", "/c/cookbook/i/r01",
                 "/c/sequencers", "/c/sequencers?q=o&search=1&scope=Apple", "/signin", "/c/no-such-catalog",
                 "/c/cookbook/i/no-such-recipe", "/offline/de"]
        self.allowed_console.append("404")  # the pages of a catalog and a record that do not exist
        self.assertEqual(axe_failures(self, paths), [], "axe-core found problems")

    def test_opened_sheets_dialogs_and_panes_pass_axe(self):
        def filters():
            self.open("/c/products?q=a&search=1")
            if self.size is PHONE:
                self.tap(self.find("#filter-toggle"))
                self.wait_for(lambda: self.find("#filters").is_displayed(), message="no filter sheet")

        def zoom():
            self.open("/c/products/i/p001")
            self.tap(self.find("img.detail-image"))
            self.wait_for(lambda: self.js("return !!document.querySelector('dialog.zoom[open]');"),
                          message="no full-size picture")

        def pane():
            self.open("/c/cookbook?open=r01" if self.size is not PHONE else "/c/cookbook/i/r01")

        self.assertEqual(axe_failures(self, [filters, zoom, pane]), [], "axe-core found problems")


def axe_failures(case, screens):
    """axe-core's findings on each screen (a path, or a function that opens it), light and dark.

    A rule left out: axe-core's autocomplete check of the version PyPI's axe-selenium-python
    bundles refuses `autocomplete="off"` on a search field, which the HTML standard allows (the
    search fields turn the browser's own suggestions off: they would cover the results).
    """
    options = {"rules": {"autocomplete-valid": {"enabled": False}}}
    failures = []
    for scheme in ("light", "dark"):
        case.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        try:
            for screen in screens:
                if callable(screen):
                    screen()
                    name = screen.__name__
                else:
                    case.driver.get(BASE_URL + screen)
                    case.wait_ready()
                    name = screen
                case.settle()
                Axe(case.driver).inject()
                # axe.run with the options as a JSON object (the wrapper's own run writes them as a
                # Python literal).
                results = case.driver.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "axe.run(document, arguments[0]).then(done, (error) => done({error: String(error)}));",
                    options)
                case.assertNotIn("error", results)
                for violation in results["violations"]:
                    failures.append("%s %s: %s (%s) at %s" % (
                        scheme, name, violation["id"], violation["impact"],
                        ", ".join(str(node["target"]) for node in violation["nodes"][:3])))
        finally:
            case.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    return failures


class PhoneTests(Behaviour, BrowserCase):
    size = PHONE


class DesktopTests(Behaviour, BrowserCase):
    size = DESKTOP

    def test_hot_opens_records_in_the_pane_and_the_bar_follows(self):
        self.open("/c/cookbook/hot")
        bar = self.find("#bar-title").text
        link = self.find_all("#collection .row-link")[1]
        record = link.find_element("css selector", ".title").text
        self.mark_page()
        self.tap(link)
        self.wait_for(lambda: self.find_all("#pane article.detail"), message="the pane stayed empty")
        self.assertTrue(self.page_kept(), "the record opened a new page")
        self.assertEqual(self.find("#bar-title").text, record)
        self.assertIn("open=", self.driver.current_url)
        self.find("#pane-close").click()
        self.wait_for(lambda: self.find("#bar-title").text == bar, message="the bar kept the record's title")

    def test_favorites_open_records_in_the_pane(self):
        # The browser's own favorites (signed out): a row opens its record beside the list.
        self.open("/c/cookbook/i/r07")
        self.js("localStorage.removeItem('catalog:favorites');")
        self.open("/c/cookbook/i/r07")
        self.tap(self.find("#favorite"))
        self.wait_for(lambda: self.find("#favorite").get_attribute("aria-pressed") == "true",
                      message="the favorite was not kept")
        self.open("/c/cookbook/favorites")
        self.wait_for(lambda: self.find_all("#collection .row[data-id=r07] .row-link"), message="no favorite row")
        link = self.find("#collection .row[data-id=r07] .row-link")
        record = link.find_element("css selector", ".title").text
        self.mark_page()
        self.tap(link)
        self.wait_for(lambda: self.find_all("#pane article.detail"), message="the pane stayed empty")
        self.assertTrue(self.page_kept(), "the record opened a new page")
        self.assertEqual(self.find("#pane .detail-title").text, record)
        self.assertEqual(self.find("#bar-title").text, record)
        self.js("localStorage.removeItem('catalog:favorites');")

    def test_the_list_widens_while_no_record_is_open(self):
        self.js("localStorage.removeItem('catalog:list-width');")
        self.open("/c/products")
        empty = self.rect(self.find("#list"))["width"]
        self.tap(self.find(".row[data-id=p002] .row-link"))
        self.wait_for(lambda: self.find_all("#pane article.detail"), message="the pane stayed empty")
        opened = self.rect(self.find("#list"))["width"]
        self.assertGreater(empty, opened + 100, "the list did not give the pane its room")


if __name__ == "__main__":
    unittest.main()
