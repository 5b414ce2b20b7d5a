"""Issue 23's small things, in a real Chromium at phone and desktop sizes: a refused sign-in keeps
the typed name (never the password) and the password can be shown with a toggle that keeps the
form's POST and CSRF token working; Japanese titles are drawn in a CJK font (fonts-noto-cjk); the
sage row tint has a dark variant with the light one's contrast; Escape closes the desktop pane
and gives the focus back to the row; an empty favorites list says how to add one."""

import json
import os
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import DESKTOP, PASSWORD, PHONE, USER, BrowserCase

STRINGS = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "CatalogServer", "Web", "Strings")
SAGE = (180, 190, 150)


def strings(language):
    with open(os.path.join(STRINGS, language + ".json"), encoding="utf-8") as file:
        return json.load(file)


def rgb(color):
    """(r, g, b) of a computed `rgb(…)` or `rgba(…)` color."""
    parts = color[color.index("(") + 1:color.index(")")].replace(",", " ").split()
    return tuple(float(part) for part in parts[:3])


def contrast(first, second):
    """WCAG's contrast ratio of two sRGB colors."""
    def luminance(color):
        def channel(value):
            value /= 255
            return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
        red, green, blue = (channel(value) for value in color)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


class Behaviour:
    """Tests that hold at every size (mixed into one class per size below)."""

    # ---- Sign-in ---------------------------------------------------------------------------------

    def test_a_refused_sign_in_keeps_the_name_and_the_password_can_be_shown(self):
        words = strings("de")
        self.open("/signin?next=%2Fc%2Ftief")
        self.allowed_console.append("401")
        self.find("#name").send_keys(USER)
        self.find("#password").send_keys("not-the-password-42")
        self.follow(self.find("#signin-submit"))
        self.assertTrue(self.find(".signin-form .error").is_displayed())
        # The server drew the form again with the name, and nothing of the password.
        self.assertEqual(self.find("#name").get_attribute("value"), USER)
        self.assertEqual(self.find("#password").get_attribute("value"), "")
        self.assertNotIn("not-the-password-42", self.driver.page_source)

        # The toggle: its name in the page's language, a pressed state, and the focus stays on it.
        toggle = self.find("#show-password")
        self.assertTrue(toggle.is_displayed())
        self.assertEqual(toggle.text, words["showPassword"])
        self.assertEqual(toggle.get_attribute("type"), "button")
        self.assertEqual(toggle.get_attribute("aria-pressed"), "false")
        box = self.rect(toggle)
        self.assertGreaterEqual(min(box["width"], box["height"]), 44, "the toggle is too small to tap")
        field = self.find("#password")
        field.send_keys(PASSWORD)
        self.mark_page()
        self.tap(toggle)
        self.assertTrue(self.page_kept(), "the toggle sent the form")
        self.assertEqual(field.get_attribute("type"), "text")
        self.assertEqual(toggle.get_attribute("aria-pressed"), "true")
        self.assertEqual(self.js("return document.activeElement.id;"), "show-password")
        self.assertEqual(field.get_attribute("value"), PASSWORD)
        self.tap(toggle)
        self.assertEqual(field.get_attribute("type"), "password")
        self.assertEqual(toggle.get_attribute("aria-pressed"), "false")
        self.assertEqual(self.js("return document.activeElement.id;"), "show-password")
        # Shown or not, the form still signs in (its POST, with its CSRF token).
        self.tap(toggle)
        self.screenshot("23-signin-password-shown")
        self.follow(self.find("#signin-submit"))
        self.assertEqual(self.path(), "/c/tief")
        self.assertTrue(self.find_all(".signout button"), "not signed in")

    # ---- Fonts -----------------------------------------------------------------------------------

    def test_japanese_titles_are_drawn_in_a_cjk_font(self):
        for path, selector in (("/c/japanese/i/j1", ".detail-title"), ("/c/japanese", ".row[data-id=j2] .title")):
            self.open(path)
            self.js("return document.fonts.ready;")
            title = self.find(selector)
            text = title.text
            self.assertTrue(any("\u3040" <= char <= "\u9fff" for char in text), text)
            fonts = self.platform_fonts(selector)
            cjk = [font for font in fonts if "CJK" in font["familyName"]]
            self.assertTrue(cjk, "%s drawn in %s, no CJK font" % (path, [f["familyName"] for f in fonts]))
            # Not a box per character: the glyphs are full width, one em each.
            measured = self.js(
                "const range = document.createRange(); range.selectNodeContents(arguments[0]);"
                "return {width: range.getBoundingClientRect().width,"
                " size: parseFloat(getComputedStyle(arguments[0]).fontSize)};", title)
            self.assertGreaterEqual(measured["width"], 0.9 * len(text) * measured["size"], measured)
            self.assertTrue(self.js(
                "return document.fonts.check('16px \"Noto Sans CJK JP\"', arguments[0]);", text))
        self.screenshot("24-japanese-list")

    def platform_fonts(self, selector):
        """The fonts Chromium drew the element's text in (the DevTools protocol's own report)."""
        self.driver.execute_cdp_cmd("DOM.enable", {})
        self.driver.execute_cdp_cmd("CSS.enable", {})
        try:
            root = self.driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
            node = self.driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
            return self.driver.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        finally:
            self.driver.execute_cdp_cmd("CSS.disable", {})
            self.driver.execute_cdp_cmd("DOM.disable", {})

    # ---- Dark mode -------------------------------------------------------------------------------

    def test_the_sage_tint_has_a_dark_variant_with_the_same_contrast(self):
        light = self.tinted_row_colors()
        self.assertEqual(light["background"], SAGE)
        self.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            dark = self.tinted_row_colors()
            self.screenshot("25-dark-sequencers-tinted")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.assertNotEqual(dark["background"], SAGE, "the sage tint glares in the dark scheme")
        self.assertLess(contrast(dark["background"], (0, 0, 0)), contrast(dark["background"], (255, 255, 255)),
                        "the dark variant is not dark")
        for part in ("title", "subtitle"):
            before = contrast(light[part], light["background"])
            after = contrast(dark[part], dark["background"])
            self.assertGreaterEqual(after, 4.5, part)
            self.assertGreaterEqual(after, before - 0.05, "%s: %.2f in dark, %.2f in light" % (part, after, before))
        self.assertAlmostEqual(contrast(dark["title"], dark["background"]),
                               contrast(light["title"], light["background"]), delta=0.25)

    def tinted_row_colors(self):
        self.open("/c/sequencers")
        self.wait_for(lambda: self.find_all("#sections .row.alt .subtitle"))
        colors = self.js(
            "const row = Array.from(document.querySelectorAll('#sections .row.alt'))"
            ".find(r => r.querySelector('.subtitle') && r.querySelector('.title'));"
            "return {background: getComputedStyle(row).backgroundColor,"
            " title: getComputedStyle(row.querySelector('.title')).color,"
            " subtitle: getComputedStyle(row.querySelector('.subtitle')).color};")
        return {name: rgb(value) for name, value in colors.items()}

    # ---- Favorites -------------------------------------------------------------------------------

    def test_empty_favorites_say_how_to_add_one(self):
        words = strings("de")
        self.open("/c/tief/favorites")
        self.js("localStorage.clear();")
        self.open("/c/tief/favorites")
        self.settle()
        empty = self.find("#empty")
        self.wait_for(lambda: empty.is_displayed(), message="no words for an empty list")
        self.assertEqual(empty.text, words["noFavorites"])
        # It names the button a record's page really has.
        self.assertIn(words["addFavorite"], empty.text)
        self.screenshot("26-favorites-empty")


class PhoneTests(Behaviour, BrowserCase):
    size = PHONE


class DesktopTests(Behaviour, BrowserCase):
    size = DESKTOP

    def test_escape_closes_the_pane_and_returns_to_the_row(self):
        self.open("/c/products")
        list_title = self.driver.title
        link = self.find(".row[data-id=p002] .row-link")
        self.tap(link)
        self.wait_for(lambda: self.find_all("#pane article.detail[data-id=p002]"), message="the pane stayed empty")
        self.settle()
        self.assertIn("open=p002", self.path())
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.wait_for(lambda: not self.find_all("#pane article.detail"), message="Escape did not close the pane")
        self.wait_for(lambda: "open=" not in self.path(), message="the pane's address stayed")
        self.wait_for(lambda: self.js(
            "return document.activeElement.closest('.row')?.dataset.id === 'p002';"),
            message=lambda: "the focus is on %s" % self.js("return document.activeElement.outerHTML.slice(0, 120);"))
        self.assertEqual(self.driver.title, list_title)

        # From inside the pane too, after the keyboard opened it (Enter on the next row).
        ActionChains(self.driver).send_keys(Keys.ARROW_DOWN).perform()
        next_id = self.js("return document.activeElement.closest('.row').dataset.id;")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        self.wait_for(lambda: self.find_all("#pane article.detail[data-id='%s']" % next_id))
        self.settle()
        self.js("document.getElementById('pane-close').focus();")
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.wait_for(lambda: not self.find_all("#pane article.detail"), message="Escape did not close the pane")
        self.wait_for(lambda: self.js(
            "return document.activeElement.closest('.row')?.dataset.id === arguments[0];", next_id),
            message="the focus did not return to the row")


if __name__ == "__main__":
    unittest.main()
