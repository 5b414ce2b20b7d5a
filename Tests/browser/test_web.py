"""The web app in a real headless Chromium, at a phone size and a desktop size: what a person
does with the three original apps' catalogs (search as you type, scopes, the index rail, detail
pages, back to the search, the cookbook's tabs, signing in and favorites), a record that tries
to inject a script, the keyboard, the console, and screenshots of the main screens."""

import unittest
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import DESKTOP, PASSWORD, PHONE, USER, BrowserCase, DevTools, api, quote

HOSTILE_TITLE = "<script>window.__pwned=1</script>"


class Behaviour:
    """Tests that hold at every size (mixed into one class per size below)."""

    # ---- Home ------------------------------------------------------------------------------------

    def test_home_shows_each_catalog_as_a_card(self):
        self.open("/")
        catalogs = {entry["id"]: entry for entry in api("/api/v1/catalogs")["catalogs"]}
        cards = self.find_all("#catalogs .card-link")
        self.assertGreaterEqual(len(cards), 3)
        shown = {}
        for card in cards:
            shown[card.get_attribute("href").rsplit("/c/", 1)[1]] = card
        for id in ("sequencers", "products", "cookbook"):
            card = shown[id]
            self.assertEqual(card.find_element("css selector", ".card-title").text, catalogs[id]["title"], id)
            self.assertIn(format(catalogs[id]["count"], ","), card.find_element("css selector", ".count").text, id)
            description = card.find_element("css selector", ".card-description")
            self.assertTrue(description.text, id)
            self.assertTrue(catalogs[id]["description"].startswith(description.text[:20]), id)
            # Clamped: a long description takes at most three lines (two on a phone).
            lines = self.js(
                "const s = getComputedStyle(arguments[0]); return arguments[0].clientHeight / parseFloat(s.lineHeight);",
                description)
            self.assertLessEqual(lines, (2 if self.size is PHONE else 3) + 0.1, id)
            # Every card is a whole touch target.
            self.assertGreaterEqual(card.size["height"], 44, id)
        # The products' and the cookbook's pictures load; the sequencers have none and show a tile.
        for id in ("products", "cookbook"):
            picture = shown[id].find_element("css selector", "img.card-picture")
            self.js("arguments[0].scrollIntoView({block: 'center'});", picture)
            self.wait_for(lambda: self.js("return arguments[0].complete && arguments[0].naturalWidth > 0;", picture),
                          message="the picture of %s did not load" % id)
        self.assertEqual(shown["sequencers"].find_elements("css selector", "img"), [])
        self.assertEqual(shown["sequencers"].find_element("css selector", ".card-initial").text, "S")
        # One column on a phone, a grid on a wide screen.
        lefts = {round(card.rect["x"]) for card in cards}
        self.assertEqual(len(lefts) > 1, self.size is DESKTOP, lefts)
        self.js("window.scrollTo(0, 0);")
        self.assertNoHorizontalScroll()
        self.screenshot("01-home")

    def test_a_long_description_is_clamped_and_a_broken_picture_has_a_placeholder(self):
        self.open("/")
        card = self.find("#catalogs .catalog-card .card-link")
        description = card.find_element("css selector", ".card-description")
        self.js("arguments[0].textContent = Array(80).fill('Lorem ipsum dolor').join(' ');", description)
        lines = self.js(
            "const s = getComputedStyle(arguments[0]); return arguments[0].clientHeight / parseFloat(s.lineHeight);",
            description)
        self.assertLessEqual(lines, (2 if self.size is PHONE else 3) + 0.1)
        self.assertNoHorizontalScroll()
        # A picture that does not load becomes a neutral placeholder, never a broken image.
        self.allowed_console.append("no-such-picture")
        self.js("""
            const img = document.createElement('img');
            img.className = 'card-picture'; img.alt = ''; img.src = '/images/no-such-picture.png';
            document.querySelector('#catalogs .card-link').prepend(img);""")
        self.wait_for(lambda: self.find_all("#catalogs .card-picture.image-failed"),
                      message="the broken picture stayed")

    # ---- Search ----------------------------------------------------------------------------------

    def test_search_filters_as_you_type_with_highlights(self):
        self.open("/c/sequencers")
        # The original app's one flat list: no letter sections, no rail.
        self.assertEqual(self.find_all("#rail"), [])
        self.mark_page()
        self.find("#q").click()
        self.type_search("klang")
        self.assertTrue(self.page_kept(), "typing loaded a new page")
        # The rows are the API's ranked results: the title match first, then records that
        # mention the word elsewhere.
        expected = [hit["id"] for hit in api("/api/v1/catalogs/sequencers/search?q=klang")["items"]]
        self.assertEqual([row.get_attribute("data-id") for row in self.find_all("#results .row")], expected)
        titles = self.find_all("#results .row .title")
        self.assertEqual(titles[0].text, "Klangwerk Studio")
        self.assertEqual(titles[0].get_attribute("innerHTML"), "<mark>Klang</mark>werk Studio")
        self.assertEqual(self.query().get("q"), "klang")
        self.assertEqual(self.query().get("search"), "1")

        # Diacritics and case are ignored; the highlight covers the original letters.
        self.clear_search()
        self.type_search("OTZI")
        titles = self.find_all("#results .row .title")
        self.assertEqual([t.text for t in titles], ["Ötzi Drums"])
        self.assertIn("<mark>Ötzi</mark>", titles[0].get_attribute("innerHTML"))

        # Several results, all matching, each highlighted.
        self.clear_search()
        self.type_search("spur")
        answer = api("/api/v1/catalogs/sequencers/search?q=spur")
        self.assertEqual([row.get_attribute("data-id") for row in self.find_all("#results .row")],
                         [hit["id"] for hit in answer["items"]])
        titles = self.texts("#results .row .title")
        self.assertEqual(sorted(titles[:2]), ["8-Spur Werkbank", "Spurwechsel"])
        self.assertEqual(self.texts("#results .row .title mark"), ["Spur", "Spur"])
        self.assertTrue(self.find("#total").text.startswith("%d " % answer["total"]))
        self.assertFalse(self.find("#empty").is_displayed())

        # No results.
        self.type_search("zzq")
        self.assertEqual(self.find_all("#results .row"), [])
        self.assertTrue(self.find("#empty").is_displayed())
        self.assertEqual(self.find("#empty .empty-title").text, "Keine Treffer")
        self.assertTrue(self.page_kept(), "searching loaded a new page")

    def test_each_scope_of_the_sequencers(self):
        records = api("/api/v1/catalogs/sequencers/items?limit=100")["items"]
        expected = {
            "Alle": {r["id"] for r in records},
            "Windows": {r["id"] for r in records if "Windows" in r["categories"]},
            "Apple": {r["id"] for r in records if "Apple" in r["categories"]},
            "Apple&Win": {r["id"] for r in records if {"Apple", "Windows"} <= set(r["categories"])},
        }
        self.assertTrue(expected["Apple&Win"], "the demo has programs for both platforms")
        self.open("/c/sequencers")
        self.mark_page()
        self.find("#q").click()
        self.settle()
        buttons = self.find_all("button.scope")
        self.assertEqual([b.find_element("css selector", ".scope-label").text for b in buttons], list(expected))
        for label in expected:
            button = next(b for b in self.find_all("button.scope") if b.get_attribute("value") == label)
            before = self.renders()
            self.tap(button)
            self.wait_for(lambda: self.renders() > before, message="scope %s drew nothing" % label)
            self.settle()
            pressed = [b.get_attribute("value") for b in self.find_all("button.scope[aria-pressed=true]")]
            self.assertEqual(pressed, [label])
            counts = {
                b.get_attribute("value"): b.find_element("css selector", ".count").text
                for b in self.find_all("button.scope")
            }
            self.assertEqual(counts, {name: str(len(ids)) for name, ids in expected.items()})
            shown = {row.get_attribute("data-id") for row in self.find_all("#results .row")}
            self.assertEqual(shown, expected[label], label)
            self.assertEqual(self.query().get("scope"), None if label == "Alle" else label)
            if label == "Apple&Win":
                for subtitle in self.texts("#results .row .subtitle"):
                    self.assertIn("Apple", subtitle)
                    self.assertIn("Windows", subtitle)
                self.screenshot("04-search-scope")
        self.assertTrue(self.page_kept(), "a scope button loaded a new page")

    def test_back_and_reload_restore_the_search(self):
        self.open("/c/sequencers")
        self.find("#q").click()
        self.type_search("t")
        apple = next(b for b in self.find_all("button.scope") if b.get_attribute("value") == "Apple")
        before = self.renders()
        self.tap(apple)
        self.wait_for(lambda: self.renders() > before)
        self.settle()
        rows = [row.get_attribute("data-id") for row in self.find_all("#results .row")]
        self.assertTrue(rows)
        list_url = self.driver.current_url

        def assert_restored(how):
            self.wait_ready()
            self.assertEqual(self.find("#q").get_attribute("value"), "t", how)
            self.assertIn("searching", self.find("#list").get_attribute("class"), how)
            pressed = [b.get_attribute("value") for b in self.find_all("button.scope[aria-pressed=true]")]
            self.assertEqual(pressed, ["Apple"], how)
            self.assertEqual([row.get_attribute("data-id") for row in self.find_all("#results .row")], rows, how)
            self.assertFalse(self.find("#rail").is_displayed() if self.find_all("#rail") else False, how)

        # The detail page's back link.
        self.open_row(self.find("#results .row-link"))
        self.follow(self.find("a.back"))
        assert_restored("back link")
        self.assertEqual(self.driver.current_url, list_url)
        # The browser's back button.
        self.open_row(self.find("#results .row-link"))
        self.driver.back()
        assert_restored("history back")
        # Reload.
        self.driver.refresh()
        assert_restored("reload")

    def test_back_returns_to_the_same_place_in_the_list(self):
        if self.size is DESKTOP:
            self.skipTest("on a desktop the record opens beside the list, which stays where it is")
        self.open("/c/products")
        self.js("window.scrollTo(0, 1100);")
        self.settle()
        middle = self.js("return Array.from(document.querySelectorAll('#sections .row')).find(r => {"
                         "const b = r.getBoundingClientRect(); return b.top > innerHeight / 3 && b.bottom < innerHeight * 2 / 3;"
                         "}).dataset.id;")
        row = lambda: self.find(".row[data-id=%s] .row-link" % middle)
        top = self.rect(row())["top"]
        self.assertGreater(self.js("return scrollY;"), 300)
        # The row opened where it is, as a finger would.
        self.mark_page()
        self.js("arguments[0].click();", row())
        self.wait_for(lambda: not self.page_kept())
        self.wait_ready()
        self.follow(self.find("a.back"))
        self.assertAlmostEqual(self.rect(row())["top"], top, delta=2)
        # The browser's back button as well.
        self.mark_page()
        self.js("arguments[0].click();", row())
        self.wait_for(lambda: not self.page_kept())
        self.wait_ready()
        self.driver.back()
        self.wait_ready()
        self.assertAlmostEqual(self.rect(row())["top"], top, delta=2)
        # Opened with the keyboard, the row has the keyboard's focus again on the way back.
        self.js("arguments[0].focus({preventScroll: true});", row())
        self.mark_page()
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        self.wait_for(lambda: not self.page_kept())
        self.wait_ready()
        self.follow(self.find("a.back"))
        self.assertEqual(self.js("return document.activeElement.closest('.row')?.dataset.id;"), middle)

    # ---- Index rail ------------------------------------------------------------------------------

    def test_index_rail_jumps_to_a_loaded_section(self):
        self.open("/c/products")
        self.mark_page()
        self.tap_rail("M")
        self.assertSectionAtTop("M")
        self.assertTrue(self.page_kept())
        # A late letter: at the top, or as far as the list scrolls with the header in view.
        self.tap_rail("Y")
        self.assertSectionAtTop("Y", or_scrolled_to_end=True)
        self.tap_rail("B")
        self.assertSectionAtTop("B")

    def test_index_rail_loads_a_late_section_and_scrolling_loads_more(self):
        self.open("/c/mid")
        self.assertEqual(self.find_all("#s-W"), [], "the first screen should not reach W")
        self.mark_page()
        self.tap_rail("W")
        self.assertSectionAtTop("W")
        self.assertTrue(self.page_kept(), "the rail loaded a new page")
        # Scrolling on draws the rows after it, with no new page and no row twice.
        first = self.row_ids()
        self.js("window.scrollBy(0, 3 * innerHeight);")
        self.wait_for(lambda: self.row_ids() != first and not self.find_all(".row.placeholder"),
                      message="no rows while scrolling")
        self.settle()
        self.assertTrue(self.page_kept())
        ids = self.row_ids()
        self.assertEqual(len(ids), len(set(ids)), "a record shows twice")
        headers = self.js("return Array.from(document.querySelectorAll('.section-header')).map(h => h.id);")
        self.assertEqual(len(headers), len(set(headers)), "a section header shows twice")

    def test_index_rail_by_keyboard(self):
        self.open("/c/products")
        # One Tab from the search field (focused without a click, so not searching) reaches the rail.
        self.js("document.getElementById('q').focus();")
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(self.js("return document.activeElement.closest('#rail') && document.activeElement.dataset.label;"), "A")
        self.assertNotIn("searching", self.find("#list").get_attribute("class"))
        ActionChains(self.driver).send_keys(Keys.END).perform()
        self.assertEqual(self.js("return document.activeElement.dataset.label;"), "#")
        ActionChains(self.driver).send_keys(Keys.HOME).perform()
        for _ in range(11):
            ActionChains(self.driver).send_keys(Keys.ARROW_DOWN).perform()
        self.assertEqual(self.js("return document.activeElement.dataset.label;"), "L")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        self.settle()
        self.assertSectionAtTop("L")
        in_l = [r["id"] for r in api("/api/v1/catalogs/products/items?section=L&limit=2")["items"]]
        self.wait_for(lambda: self.js("return document.activeElement.closest('.row')?.dataset.id;") == in_l[0],
                      message="the keyboard's focus did not follow the jump")
        # The rows go on from there with the arrow keys.
        ActionChains(self.driver).send_keys(Keys.ARROW_DOWN).perform()
        self.assertEqual(self.js("return document.activeElement.closest('.row').dataset.id;"), in_l[1])
        # The rail's one Tab stop is now the letter used last.
        self.assertEqual(self.js("return document.querySelector('#rail a[tabindex=\"0\"]').dataset.label;"), "L")

    # ---- Spinner and errors ----------------------------------------------------------------------

    def test_spinner_while_slow_and_banner_when_offline(self):
        self.open("/c/sequencers")
        self.find("#q").click()
        self.settle()
        devtools = DevTools(self.driver)
        try:
            # A slow network: the spinner shows after ~150 ms and goes when the results are in.
            devtools.network(latency=600, throughput=1 << 20)
            self.find("#q").send_keys("t")
            self.wait_for(lambda: self.find("#spinner").is_displayed(), message="no spinner on a slow network")
            self.settle()
            self.assertFalse(self.find("#spinner").is_displayed())
            # Offline: the banner says so, Retry works once the network is back.
            self.allowed_console += ["Failed to fetch", "ERR_INTERNET_DISCONNECTED", "ERR_FAILED", "catalog:"]
            devtools.network(offline=True)
            self.find("#q").send_keys("a")
            self.wait_for(lambda: self.find("#banner").is_displayed(), message="no banner while offline")
            self.settle()
            self.assertFalse(self.find("#spinner").is_displayed())
        finally:
            devtools.close()
        before = self.renders()
        self.find("#retry").click()
        self.wait_for(lambda: self.renders() > before, message="Retry drew nothing")
        self.settle()
        self.assertFalse(self.find("#banner").is_displayed())
        # "ta": Taktraum by its title, the others by words of their descriptions.
        self.assertEqual(sorted(self.texts("#results .row .title")), ["Loopgarten", "Taktraum", "Übersee Tracker"])

    # ---- Detail pages ----------------------------------------------------------------------------

    def test_product_detail_shows_every_field(self):
        record = api("/api/v1/catalogs/products/items/p001")
        self.open("/c/products/i/p001")
        self.assertEqual(self.driver.title, record["title"])
        self.assertEqual(self.find("article.detail .detail-title").text, record["title"])
        facts = self.facts()
        self.assertEqual(facts["Price"], "€24.90")
        self.assertEqual(facts["Quantity"], str(record["quantity"]))
        self.assertIn("Germany", facts["Country"])
        self.assertEqual(facts["Item number"], record["fields"]["sku"])
        self.assertIn(record["description"].split(".")[0], self.find("article.detail .description").text)
        self.assertTrue(self.js("return document.querySelector('.detail-image').naturalWidth > 0;"))
        self.assertTrue(self.js("return document.querySelector('.facts .flag').naturalWidth > 0;"))
        self.assertEqual(self.find("a.back").text.strip("‹ "), "Products")
        self.assertNoHorizontalScroll()
        self.screenshot("06-detail-product")

    def test_sequencer_detail_placeholder_in_german(self):
        records = api("/api/v1/catalogs/sequencers/items?limit=100")["items"]
        empty = next(r for r in records if not (r["description"] or "").strip())
        self.open("/c/sequencers")
        self.open_row(self.find(".row[data-id='%s'] .row-link" % empty["id"]))
        self.wait_for(lambda: self.find_all("article.detail[data-id='%s']" % empty["id"]))
        self.assertEqual(self.find("article.detail .placeholder").text, "(Keine Daten hinterlegt)")
        self.assertIn(", ".join(empty["categories"]), self.facts()["Kategorie"])
        if self.size is PHONE:
            self.assertEqual(self.driver.title, empty["title"])
            self.assertEqual(self.js("return document.documentElement.lang"), "de")
        self.screenshot("07-detail-placeholder")
        full = next(r for r in records if (r["description"] or "").strip())
        self.open("/c/sequencers/i/" + quote(full["id"]))
        self.assertEqual(self.find_all("article.detail .placeholder"), [])
        self.assertIn(full["description"].split("\n")[0][:20], self.find("article.detail .description").text)

    def test_recipe_detail(self):
        record = api("/api/v1/catalogs/cookbook/items/r01")
        self.open("/c/cookbook/i/r01")
        self.assertEqual(self.driver.title, record["title"])
        self.assertEqual(self.find(".detail-subtitle").text, record["subtitle"])
        self.assertEqual(self.facts()["Elkészítési idő"], record["fields"]["complexity"])
        self.assertTrue(self.js("return document.querySelector('.detail-image').naturalWidth > 0;"))
        self.assertTrue(self.find(".favorite-hint a").is_displayed())

    # ---- Cookbook --------------------------------------------------------------------------------

    def test_cookbook_tabs_and_categories(self):
        self.open("/c/cookbook")
        tabs = self.find_all("nav.tabs a.tab")
        self.assertEqual(len(tabs), 4)
        self.assertEqual(self.find("nav.tabs a[aria-current=page]").get_attribute("href"), self.driver.current_url)
        self.assertIn("DZS", self.texts("#rail a"))
        self.assertRailFits()
        self.screenshot("08-cookbook-list")

        featured = api("/api/v1/catalogs/cookbook/featured?limit=100")["items"]
        self.follow(self.find_all("nav.tabs a.tab")[0])
        self.assertEqual(self.path(), "/c/cookbook/hot")
        self.assertEqual([r.get_attribute("data-id") for r in self.find_all("#collection .row")], [r["id"] for r in featured])
        self.assertTrue(self.find("nav.tabs a[aria-current=page]").get_attribute("href").endswith("/hot"))
        self.screenshot("09-cookbook-hot")

        categories = api("/api/v1/catalogs/cookbook/categories")["categories"]
        self.follow(self.find_all("nav.tabs a.tab")[1])
        self.assertEqual(self.path(), "/c/cookbook/categories")
        self.assertEqual(self.texts("#categories .title"), [c["name"] for c in categories])
        self.assertEqual(self.texts("#categories .count"), [format(c["count"], ",") for c in categories])
        self.screenshot("10-cookbook-categories")

        category = categories[2]
        self.follow(self.find_all("#categories .row-link")[2])
        self.assertEqual(self.path(), "/c/cookbook/categories/%d" % category["id"])
        self.assertEqual(self.find(".bar-title").text, category["name"])
        items = api("/api/v1/catalogs/cookbook/categories/%s/items?limit=100" % quote(category["name"]))["items"]
        shown = self.js("return Array.from(document.querySelectorAll('#sections .row')).sort((a, b) => "
                        "a.dataset.position - b.dataset.position).map(r => r.dataset.id);")
        self.assertEqual(shown, [r["id"] for r in items])
        # A category is a list like the catalog, with search; one this short (under 30 rows) has
        # no rail, and its rows use the rail's room.
        self.assertEqual(self.find_all("#rail"), [])
        self.assertIn("no-rail", self.find("#sections").get_attribute("class"))
        self.assertTrue(self.find("#q").is_displayed())

        # A recipe of the category, and back to the category.
        self.open_row(self.find(".row[data-position='0'] .row-link"))
        self.wait_for(lambda: self.find_all("article.detail"))
        self.assertEqual(self.find("article.detail").get_attribute("data-id"), items[0]["id"])
        if self.size is PHONE:
            self.assertEqual(self.find("a.back").text.strip("‹ "), category["name"])
            self.follow(self.find("a.back"))
            self.assertEqual(urllib.parse.urlsplit(self.driver.current_url).path, "/c/cookbook/categories/%d" % category["id"])

        # All.
        self.follow(self.find_all("nav.tabs a.tab")[2])
        self.assertEqual(self.path(), "/c/cookbook")
        self.assertTrue(self.find_all("#sections .section-header#s-CS"))
        self.assertEqual(self.find("nav.tabs a[aria-current=page]").get_attribute("href"), self.driver.current_url)

    def test_sign_in_and_favorites(self):
        # Signed out, the favorites tab keeps its tab bar and lists the browser's own favorites;
        # a wrong password is refused.
        self.open("/c/cookbook/favorites")
        self.assertEqual(self.path(), "/c/cookbook/favorites")
        self.assertEqual(len(self.find_all("nav.tabs a.tab")), 4)
        self.assertTrue(self.find("#note").is_displayed())
        self.follow(self.find("a.signin"))
        self.assertEqual(self.path(), "/signin?next=%2Fc%2Fcookbook%2Ffavorites")
        self.assertEqual(len(self.find_all("nav.tabs a.tab")), 4, "the sign-in page lost the tab bar")
        self.screenshot("11-signin")
        self.allowed_console.append("401")
        self.find("#name").send_keys("ada")
        self.find("#password").send_keys("wrong password")
        self.follow(self.find("#signin-submit"))
        self.assertTrue(self.find(".signin-form .error").is_displayed())

        self.open("/c/cookbook/i/r05")
        self.follow(self.find(".favorite-hint a"))
        self.find("#name").send_keys(USER)
        self.find("#password").send_keys(PASSWORD)
        self.follow(self.find("#signin-submit"))
        self.assertEqual(self.path(), "/c/cookbook/i/r05")
        button = self.find("#favorite")
        self.assertEqual(button.get_attribute("aria-pressed"), "false")
        # A toggle stays on the page and adds no history entry.
        history = self.js("return history.length;")
        self.mark_page()
        self.tap(button)
        self.wait_for(lambda: self.find("#favorite").get_attribute("aria-pressed") == "true")
        self.settle()
        self.assertTrue(self.page_kept())
        self.assertEqual(self.js("return history.length;"), history)
        self.screenshot("12-recipe-favorite")

        self.follow(self.find_all("nav.tabs a.tab")[3])
        self.assertEqual(self.path(), "/c/cookbook/favorites")
        self.assertIn("r05", [r.get_attribute("data-id") for r in self.find_all("#collection .row")])
        self.screenshot("13-favorites")

        self.open_row(self.find("#collection .row[data-id=r05] .row-link"))
        self.wait_for(lambda: self.find_all("#favorite[aria-pressed=true]"))
        self.tap(self.find("#favorite"))
        self.wait_for(lambda: self.find("#favorite").get_attribute("aria-pressed") == "false")
        self.settle()
        # Back to the list: it shows the change at once.
        self.driver.back()
        self.wait_ready()
        self.settle()
        self.assertNotIn("r05", [r.get_attribute("data-id") for r in self.find_all("#collection .row")])
        self.assertTrue(self.find(".empty").is_displayed())

        # Signing out ends the session: the favorites are the browser's again.
        self.follow(self.find(".signout button"))
        self.open("/c/cookbook/favorites")
        self.assertTrue(self.find("#note").is_displayed())
        self.assertTrue(self.find_all("a.signin"))

    # ---- Safety, console, keyboard ---------------------------------------------------------------

    def test_a_script_in_a_record_is_text(self):
        self.open("/c/hostile")
        self.assertEqual(self.texts("#sections .row .title"), [HOSTILE_TITLE])
        self.assertIsNone(self.js("return window.__pwned;"))
        self.find("#q").click()
        self.type_search("script")
        self.assertEqual(self.texts("#results .row .title"), [HOSTILE_TITLE])
        self.assertEqual(self.find_all("#results script"), [])
        self.assertIsNone(self.js("return window.__pwned;"))
        self.open_row(self.find("#results .row-link"))
        self.wait_for(lambda: self.find_all("article.detail"))
        self.assertEqual(self.find(".detail-title").text, HOSTILE_TITLE)
        self.assertEqual(self.find_all("main script"), [])
        if self.size is PHONE:
            self.assertEqual(self.driver.title, HOSTILE_TITLE)
        self.assertIsNone(self.js("return window.__pwned;"))

    def test_main_pages_log_no_errors(self):
        pages = [
            "/",
            "/c/sequencers",
            "/c/sequencers?q=klang&search=1",
            "/c/products",
            "/c/products?from=T",
            "/c/products/i/p001",
            "/c/cookbook",
            "/c/cookbook/hot",
            "/c/cookbook/categories",
            "/c/cookbook/categories/1",
            "/c/cookbook/i/r01",
            "/signin",
        ]
        for page in pages:
            self.open(page)
            self.js("window.scrollTo(0, document.documentElement.scrollHeight);")
            self.settle()
            errors = [e["message"] for e in self.console() if e["level"] in ("SEVERE", "WARNING")]
            self.assertEqual(errors, [], page)

    def test_keyboard_slash_and_arrows(self):
        self.open("/c/products")
        ActionChains(self.driver).send_keys("/").perform()
        self.assertEqual(self.js("return document.activeElement.id;"), "q")
        self.settle()
        self.assertEqual(self.find("#q").get_attribute("value"), "", "the slash was typed into the field")
        ActionChains(self.driver).send_keys("s").perform()
        self.wait_for(lambda: self.find("#q").get_attribute("value") == "s")
        self.settle()
        rows = [r.get_attribute("data-id") for r in self.find_all("#results .row")]
        self.assertGreaterEqual(len(rows), 2)
        focused = lambda: self.js("return document.activeElement.closest('.row')?.dataset.id ?? document.activeElement.id;")
        ActionChains(self.driver).send_keys(Keys.ARROW_DOWN).perform()
        self.assertEqual(focused(), rows[0])
        ActionChains(self.driver).send_keys(Keys.ARROW_DOWN).perform()
        self.assertEqual(focused(), rows[1])
        ActionChains(self.driver).send_keys(Keys.ARROW_UP).perform()
        self.assertEqual(focused(), rows[0])
        ActionChains(self.driver).send_keys(Keys.ARROW_UP).perform()
        self.assertEqual(focused(), "q")
        # Escape leaves the search: the list and its rail come back.
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.wait_for(lambda: self.find_all("#sections") and self.find("#rail").is_displayed())
        self.assertNotIn("search", self.query())

    def test_list_screens(self):
        self.open("/c/products")
        self.assertNoHorizontalScroll()
        self.assertRailFits()
        long = self.find(".row[data-id=p029] .title")
        self.assertTrue(self.js("return arguments[0].scrollWidth > arguments[0].clientWidth;", long) or self.size is DESKTOP)
        self.assertEqual(self.js("return getComputedStyle(arguments[0]).textOverflow;", long), "ellipsis")
        self.screenshot("02-list-products")
        self.open("/c/sequencers")
        self.assertNoHorizontalScroll()
        self.screenshot("03-list-sequencers")
        self.open("/c/sequencers?q=o&search=1")
        self.screenshot("05-search-sequencers")

    def test_dark_mode_follows_the_system(self):
        self.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            self.open("/c/cookbook")
            background = self.js("return getComputedStyle(document.body).backgroundColor;")
            text = self.js("return getComputedStyle(document.querySelector('.row .title')).color;")
            self.assertEqual(background, "rgb(0, 0, 0)")
            self.assertNotEqual(text, "rgb(17, 17, 20)")
            self.screenshot("15-dark-list")
            self.open("/c/cookbook/i/r01")
            self.screenshot("16-dark-detail")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    # ---- Helpers ---------------------------------------------------------------------------------

    def row_ids(self):
        return self.js("return Array.from(document.querySelectorAll('#sections .row:not(.placeholder)'))"
                       ".sort((a, b) => a.dataset.position - b.dataset.position).map(r => r.dataset.id);")

    def clear_search(self):
        field = self.find("#q")
        before = self.renders()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.BACKSPACE)
        self.wait_for(lambda: self.renders() > before)
        self.settle()

    def open_row(self, link):
        """Opens a row's record as a person would at this size: a new page on a phone, the pane
        beside the list on a desktop list; a detail page otherwise."""
        if not self.find_all("#pane") or not self.find("#pane").is_displayed():
            self.follow(link)
            return
        self.tap(link)
        self.wait_for(lambda: self.find_all("#pane article.detail"))
        self.settle()
        # Continue as a phone user would: on the record's own page.
        self.open(self.path_of(link.get_attribute("href")))

    def path_of(self, url):
        parts = urllib.parse.urlsplit(url)
        return parts.path + ("?" + parts.query if parts.query else "")

    def facts(self):
        names = self.texts(".facts dt")
        values = self.texts(".facts dd")
        return dict(zip(names, values))

    def tap_rail(self, label):
        link = self.find("#rail a[data-label='%s']" % label)
        before = self.driver.current_url
        link.click()
        target = link.get_attribute("data-target") or label
        self.wait_for(lambda: self.find_all("#s-" + target), message="no section %s after the rail" % label)
        self.wait_ready()
        self.settle()
        return before

    def assertSectionAtTop(self, label, or_scrolled_to_end=False):
        self.wait_for(lambda: not self.find_all(".row.placeholder"), message="rows stayed placeholders")
        header = self.find("#s-" + label)
        top = self.rect(header)["top"]
        under = self.js("return document.querySelector('form.search').getBoundingClientRect().bottom;")
        at_end = self.js(
            "return Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1;")
        if or_scrolled_to_end and at_end:
            self.assertGreaterEqual(top, under - 1, "section %s is under the search bar" % label)
            self.assertLess(top, self.size["height"], "section %s is below the screen" % label)
        else:
            self.assertAlmostEqual(top, under, delta=2, msg="section %s is not at the top" % label)
        hit = self.js(
            "const h = arguments[0], r = h.getBoundingClientRect();"
            "return document.elementFromPoint(r.left + 4, r.top + r.height / 2) === h;", header)
        self.assertTrue(hit, "section %s's header is covered" % label)

    def assertRailFits(self):
        """Every label of the index rail is on the screen, whole, and apart from the rows' text."""
        boxes = self.js(
            "return Array.from(document.querySelectorAll('#rail a')).map(a => {"
            "const r = a.getBoundingClientRect(), range = document.createRange(); range.selectNodeContents(a);"
            "const t = range.getBoundingClientRect();"
            "return {label: a.dataset.label, left: t.left, right: t.right, top: r.top, bottom: r.bottom, width: a.scrollWidth, box: r.width};});"
        )
        for box in boxes:
            self.assertGreaterEqual(box["left"], 0, box)
            self.assertLessEqual(box["right"], self.size["width"], box)
            self.assertLessEqual(box["width"], box["box"] + 0.5, "rail label %s overflows" % box["label"])
            self.assertGreaterEqual(box["top"], 0, box)
            self.assertLessEqual(box["bottom"], self.size["height"], box)
        for a, b in zip(boxes, boxes[1:]):
            self.assertLessEqual(a["bottom"], b["top"] + 0.5, "rail labels %s and %s overlap" % (a["label"], b["label"]))
        chevron = self.js("const c = document.querySelector('#sections .chevron'); return c ? c.getBoundingClientRect().right : 0;")
        width = self.js("return document.getElementById('rail').getBoundingClientRect().width;")
        self.assertGreaterEqual(width, 44, "the rail's touch area is narrower than 44 px")
        self.assertLessEqual(chevron, min(box["left"] for box in boxes), "the rail covers the rows' chevrons")

    def assertNoHorizontalScroll(self):
        width = self.js("return document.documentElement.scrollWidth;")
        self.assertLessEqual(width, self.size["width"], "the page scrolls sideways")


class PhoneTests(Behaviour, BrowserCase):
    size = PHONE

    def test_index_rail_scrubs_with_a_finger(self):
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
        from selenium.webdriver.common.actions.pointer_input import PointerInput

        self.open("/c/products")
        self.mark_page()
        start = self.rect(self.find("#rail a[data-label='C']"))
        end = self.rect(self.find("#rail a[data-label='R']"))
        x = start["left"] + start["width"] / 2
        actions = ActionBuilder(self.driver, mouse=PointerInput(POINTER_TOUCH, "finger"))
        finger = actions.pointer_action
        finger.move_to_location(int(x), int(start["top"] + start["height"] / 2)).pointer_down()
        steps = 6
        for step in range(1, steps + 1):
            y = start["top"] + (end["top"] - start["top"]) * step / steps + end["height"] / 2
            finger.move_to_location(int(x), int(y))
        finger.pointer_up()
        actions.perform()
        self.settle()
        self.assertSectionAtTop("R")
        self.assertTrue(self.page_kept())
        # A tap (down and up in place) jumps as well.
        target = self.rect(self.find("#rail a[data-label='G']"))
        actions = ActionBuilder(self.driver, mouse=PointerInput(POINTER_TOUCH, "finger"))
        actions.pointer_action.move_to_location(int(x), int(target["top"] + target["height"] / 2)).pointer_down().pointer_up()
        actions.perform()
        self.settle()
        self.assertSectionAtTop("G")


class DesktopTests(Behaviour, BrowserCase):
    size = DESKTOP

    def test_detail_pane_beside_the_list(self):
        self.open("/c/products")
        self.assertTrue(self.find("#pane").is_displayed())
        self.mark_page()
        link = self.find(".row[data-id=p002] .row-link")
        link.click()
        self.wait_for(lambda: self.find_all("#pane article.detail[data-id=p002]"), message="the pane stayed empty")
        self.settle()
        self.assertTrue(self.page_kept(), "the row opened a new page")
        record = api("/api/v1/catalogs/products/items/p002")
        self.assertEqual(self.find("#pane .detail-title").text, record["title"])
        self.assertEqual(link.get_attribute("aria-current"), "true")
        # The pane has its own address and title; Back closes it, Forward opens it again.
        self.assertEqual(self.query().get("open"), "p002")
        self.assertEqual(self.driver.title, record["title"])
        self.driver.back()
        self.wait_for(lambda: not self.find_all("#pane article.detail"), message="Back did not close the pane")
        self.assertNotIn("open", self.query())
        self.assertEqual(self.driver.title, "Products")
        self.assertTrue(self.page_kept(), "Back left the page")
        self.driver.forward()
        self.wait_for(lambda: self.find_all("#pane article.detail[data-id=p002]"), message="Forward did not open it")
        self.settle()
        link = self.find(".row[data-id=p002] .row-link")
        pane = self.rect(self.find("#pane"))
        rows = self.rect(self.find("#sections"))
        self.assertGreaterEqual(pane["left"], rows["right"] - 1, "the pane is not beside the list")
        self.assertLessEqual(pane["right"], DESKTOP["width"] + 1)
        self.screenshot("14-pane")
        # The pane follows the keyboard as well: arrows move to the next row, Enter opens it.
        ActionChains(self.driver).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ENTER).perform()
        next_id = self.js("return document.activeElement.closest('.row')?.dataset.id;")
        self.wait_for(lambda: self.find_all("#pane article.detail[data-id='%s']" % next_id))
        self.assertTrue(self.page_kept())
        # A search keeps the pane and its rows open it too.
        self.find("#q").click()
        self.type_search("saw")
        self.find("#results .row-link").click()
        self.wait_for(lambda: self.find_all("#pane article.detail[data-id=p001]"))
        self.assertTrue(self.page_kept())


if __name__ == "__main__":
    unittest.main()
