"""The record editor in a real Chromium, at a phone size and a desktop size, signed in as an
editor of the catalog "live" (the browser tests' user has that role): edit, save, and the list
shows it; a change made meanwhile (412) with Reload and Overwrite; bad values (422) shown beside
their fields and linked to them; delete and undo; a new record from the list; who sees the
editor at all; touch targets and contrast of the editor. Changes made to set a test up go
through the API with an administrator's token; every wait is on the page or the server."""

import base64
import json
import os
import tempfile
import unittest

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import ADMIN_TOKEN, DESKTOP, PHONE, BrowserCase, api, api_change, quote
from test_app import LOW_CONTRAST, SMALL_TARGETS

CATALOG = "live"

# 120 × 90 pixels, one colour.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAHgAAABaCAIAAAD8YgW4AAAAj0lEQVR42u3QQQkAAAgEsEtiEvtjLFuIj8ESLFPNgSgQLRrRokVbEC0a0aJFWxAtGtGiRSNa"
    "NKJFi0a0aESLFo1o0YgWLRrRohEtWjSiRSNatGhEi0a0aNGIFo1o0aIRLRrRokUjWjSiRYtGtGhEixaNaNGIFi0a0aIRLVo0okUjWrRoRItGtGjRiBaN6C8W"
    "bHzNIgdh+DcAAAAASUVORK5CYII=")


class EditBehaviour:
    """Tests that hold at every size (mixed into one class per size below)."""

    def setUp(self):
        if not ADMIN_TOKEN:
            raise unittest.SkipTest("CATALOG_ADMIN_TOKEN is not set: run scripts/browser-tests.sh")
        super().setUp()
        self.made = set()
        # The browser logs every answer that is not a success; here 412 and 422 are expected ones.
        self.allowed_console += ["status of 412", "status of 422"]

    def tearDown(self):
        for item in self.made:
            api_change("DELETE", self.api_path(item))
        super().tearDown()

    def item_id(self, name):
        return "e-%s-%s" % (self.size["name"], name)

    def api_path(self, item):
        return "/api/v1/catalogs/%s/items/%s" % (CATALOG, quote(item))

    def put(self, item, record):
        record = dict(record, id=item)
        # A number literal the test wants kept exactly goes in as it is.
        text = json.dumps(record).replace('"weight": "1.50"', '"weight": 1.50')
        status, _, body = api_change("PUT", self.api_path(item), text)
        self.assertIn(status, (200, 201), body)
        self.made.add(item)

    def stored(self, item):
        return api(self.api_path(item))

    def text_of(self, selector):
        return self.js("const n = document.querySelector(arguments[0]); return n ? n.textContent : null;", selector)

    def open_editor(self, item):
        self.sign_in("/c/%s/i/%s" % (CATALOG, quote(item)))
        self.follow(self.find("#edit-link"))
        self.assertEqual(self.path(), "/c/%s/i/%s/edit" % (CATALOG, quote(item)))

    def set_field(self, selector, value):
        field = self.find(selector)
        self.js("arguments[0].scrollIntoView({block: 'center'});", field)
        field.clear()
        field.send_keys(value)

    def record_with_everything(self, title):
        return {
            "title": title, "subtitle": "by the river", "description": "Line one.\nLine two.",
            "categories": ["Tools", "Garden"], "price": 12.5, "currency": "EUR", "quantity": 3, "country": "HU",
            "fields": {"weight": "1.50", "title@de": title + " (de)", "note": "kept"},
        }

    # ---- Edit, save, and the list shows it ---------------------------------------------------------

    def test_edit_save_and_the_list_shows_it(self):
        item = self.item_id("save")
        self.put(item, self.record_with_everything("Aardvark %s" % self.size["name"]))
        self.open_editor(item)
        self.assertEqual(self.find("#f-title").get_attribute("value"), "Aardvark %s" % self.size["name"])
        self.assertEqual(self.find("#f-price").get_attribute("value"), "12.5")
        self.assertEqual(self.texts("#chips .chip-label"), ["Tools", "Garden"])
        self.screenshot("30-editor")
        self.set_field("#f-title", "Aardvark %s edited" % self.size["name"])
        self.set_field("#f-price", "14.90")
        # Chips: one removed, one added with Enter (which does not send the form).
        self.tap(self.find('#chips .chip[data-value="Tools"] .chip-remove'))
        self.assertEqual(self.texts("#chips .chip-label"), ["Garden"])
        self.find("#f-category").send_keys("Kitchen", Keys.ENTER)
        self.assertEqual(self.texts("#chips .chip-label"), ["Garden", "Kitchen"])
        self.assertIn("/edit", self.path())
        Select(self.find("#f-country")).select_by_value("DE")
        self.wait_for(lambda: self.find("#f-country-flag").get_attribute("src").endswith("/de.svg"))
        self.follow(self.find("#save"))
        # Back on the record's page, which shows the new values and says it was saved.
        self.assertEqual(self.path(), "/c/%s/i/%s" % (CATALOG, quote(item)))
        self.assertEqual(self.text_of(".detail-title"), "Aardvark %s edited" % self.size["name"])
        self.wait_for(lambda: self.text_of("#toasts .toast-text") == "Saved.", message="no 'Saved.'")
        stored = self.stored(item)
        self.assertEqual(stored["title"], "Aardvark %s edited" % self.size["name"])
        self.assertEqual(stored["price"], 14.9)
        self.assertEqual(stored["categories"], ["Garden", "Kitchen"])
        self.assertEqual(stored["country"], "DE")
        # What the form did not change is kept exactly, the number's literal included.
        status, _, body = api_change("GET", self.api_path(item))
        self.assertIn(b'"weight":1.50', body)
        self.assertEqual(stored["fields"]["note"], "kept")
        self.assertEqual(stored["fields"]["title@de"], "Aardvark %s (de)" % self.size["name"])
        self.assertEqual(stored["description"], "Line one.\nLine two.")
        self.open("/c/" + CATALOG)
        self.wait_for(lambda: self.js(
            "return Array.from(document.querySelectorAll('#list li.row .title')).some(t => t.textContent === arguments[0]);",
            "Aardvark %s edited" % self.size["name"]), message="the list does not show the saved record")

    # ---- A picture uploaded, shown before saving, and on the record's page -------------------------

    def test_an_uploaded_image_is_previewed_saved_and_removed(self):
        item = self.item_id("image")
        self.put(item, {"title": "Picture frame", "fields": {}})
        self.open_editor(item)
        self.assertFalse(self.find("#f-image-preview").is_displayed())
        handle, path = tempfile.mkstemp(suffix=".png")
        with os.fdopen(handle, "wb") as file:
            file.write(PNG)
        self.addCleanup(os.remove, path)
        chooser = self.find("#f-image-file")
        self.js("arguments[0].scrollIntoView({block: 'center'});", chooser)
        chooser.send_keys(path)
        # The preview shows the chosen file before anything is saved.
        self.wait_for(
            lambda: (self.find("#f-image-preview").get_attribute("src") or "").startswith("data:image/png"),
            message="no preview of the chosen file")
        self.assertTrue(self.find("#f-image-preview").is_displayed())
        self.assertIsNone(self.stored(item).get("image"))
        self.screenshot("33-editor-image")
        self.follow(self.find("#save"))
        self.assertEqual(self.path(), "/c/%s/i/%s" % (CATALOG, quote(item)))
        stored = self.stored(item)["image"]
        self.assertTrue(stored.startswith("/images/stored/%s/%s/" % (CATALOG, quote(item))), stored)
        self.assertTrue(self.find(".detail-image").get_attribute("src").endswith(stored))
        self.wait_for(lambda: self.js(
            "const image = document.querySelector('.detail-image'); return image.complete && image.naturalWidth === 120;"),
            message="the stored image does not show on the record's page")
        # Remove: the record no longer names it, and the server no longer serves it.
        self.follow(self.find("#edit-link"))
        self.wait_for(lambda: self.find("#f-image-preview").is_displayed(), message="no preview of the stored image")
        self.tap(self.find("#f-image-remove"))
        self.assertFalse(self.find("#f-image-preview").is_displayed())
        self.follow(self.find("#save"))
        self.assertIsNone(self.stored(item).get("image"))
        status, _, _ = api_change("GET", stored)
        self.assertEqual(status, 404)

    # ---- Someone changed it meanwhile --------------------------------------------------------------

    def test_a_conflict_offers_reload_or_overwrite(self):
        item = self.item_id("conflict")
        self.put(item, {"title": "Mine or theirs", "fields": {}})
        self.open_editor(item)
        self.put(item, {"title": "Theirs", "fields": {}})
        self.set_field("#f-title", "Mine")
        self.tap(self.find("#save"))
        self.wait_for(lambda: self.find("#conflict").is_displayed(), message="no conflict shown")
        self.assertEqual(self.text_of("#conflict-title"), "Someone changed this record meanwhile.")
        self.assertEqual(self.js("return document.activeElement.id;"), "conflict")
        self.assertEqual(self.stored(item)["title"], "Theirs")
        # Overwrite: this version replaces theirs.
        self.follow(self.find("#conflict-overwrite"))
        self.assertEqual(self.text_of(".detail-title"), "Mine")
        self.assertEqual(self.stored(item)["title"], "Mine")
        # Reload: their version, this one's changes dropped.
        self.follow(self.find("#edit-link"))
        self.put(item, {"title": "Theirs again", "fields": {}})
        self.set_field("#f-title", "Mine again")
        self.tap(self.find("#save"))
        self.wait_for(lambda: self.find("#conflict").is_displayed(), message="no conflict shown")
        self.follow(self.find("#conflict-reload"))
        self.assertEqual(self.find("#f-title").get_attribute("value"), "Theirs again")
        self.assertEqual(self.stored(item)["title"], "Theirs again")

    # ---- Bad values ----------------------------------------------------------------------------------

    def test_bad_values_are_shown_beside_their_fields(self):
        item = self.item_id("invalid")
        self.put(item, {"title": "Valid for now", "price": 3, "fields": {}})
        self.open_editor(item)
        self.set_field("#f-title", " ")
        self.set_field("#f-price", "-5")
        self.mark_page()
        self.tap(self.find("#save"))
        self.wait_for(lambda: self.find("#problems").is_displayed(), message="no problems shown")
        self.assertTrue(self.page_kept())
        self.assertEqual(self.text_of("#f-price-error"), "Enter a price of 0 or more, such as 12.50.")
        self.assertEqual(self.text_of("#f-title-error"), "Enter a name.")
        for field in ("f-price", "f-title"):
            control = self.find("#" + field)
            self.assertEqual(control.get_attribute("aria-invalid"), "true")
            self.assertEqual(control.get_attribute("aria-describedby"), field + "-error")
        # The summary has the focus and leads to each field.
        self.assertEqual(self.js("return document.activeElement.id;"), "problems")
        self.assertEqual(len(self.find_all("#problems-list a")), 2)
        self.tap(self.find('#problems-list a[data-control="f-price"]'))
        self.assertEqual(self.js("return document.activeElement.id;"), "f-price")
        self.assertEqual(self.stored(item)["title"], "Valid for now")
        # Fixed, it saves; the errors are gone.
        self.set_field("#f-title", "Valid again")
        self.set_field("#f-price", "4")
        self.follow(self.find("#save"))
        self.assertEqual(self.stored(item)["price"], 4)

    # ---- Delete and undo ---------------------------------------------------------------------------

    def test_delete_and_undo(self):
        item = self.item_id("undo")
        title = "Aardvark undo %s" % self.size["name"]
        self.put(item, self.record_with_everything(title))
        _, _, before = api_change("GET", self.api_path(item))
        self.open_editor(item)
        self.follow(self.find("#delete"))
        self.assertEqual(self.path(), "/c/" + CATALOG)
        status, _, _ = api_change("GET", self.api_path(item))
        self.assertEqual(status, 404)
        self.wait_for(lambda: self.text_of("#toasts .toast-text") == "“%s” was deleted." % title, message="no toast")
        self.assertFalse(self.js(
            "return Array.from(document.querySelectorAll('#list li.row')).some(r => r.dataset.id === arguments[0]);", item))
        self.tap(self.find("#toast-action"))
        self.wait_for(lambda: self.text_of("#toasts .toast-text") == "“%s” is back." % title, message="no 'is back'")
        _, _, after = api_change("GET", self.api_path(item))
        self.assertEqual(json.loads(after), json.loads(before))
        self.assertEqual(after, before)
        # The list follows (live updates) and shows it again.
        self.wait_for(lambda: self.js(
            "return Array.from(document.querySelectorAll('#list li.row')).some(r => r.dataset.id === arguments[0]);", item),
            timeout=10, message="the record put back is not in the list")

    # ---- A new record ------------------------------------------------------------------------------

    def test_a_new_record_from_the_list(self):
        item = self.item_id("new")
        self.made.add(item)
        self.sign_in("/c/" + CATALOG)
        self.follow(self.find("#new-record"))
        self.assertEqual(self.path(), "/c/%s/new" % CATALOG)
        self.set_field("#f-id", item)
        self.set_field("#f-title", "Aardvark new %s" % self.size["name"])
        self.set_field("#f-quantity", "7")
        self.follow(self.find("#save"))
        self.assertEqual(self.path(), "/c/%s/i/%s" % (CATALOG, quote(item)))
        self.assertEqual(self.stored(item)["quantity"], 7)
        # The same id again: said beside the id.
        self.open("/c/%s/new" % CATALOG)
        self.set_field("#f-id", item)
        self.set_field("#f-title", "Another")
        self.tap(self.find("#save"))
        self.wait_for(lambda: self.text_of("#f-id-error") == "A record with this identifier already exists.",
                      message="the taken id was not said")
        self.assertEqual(self.stored(item)["title"], "Aardvark new %s" % self.size["name"])

    # ---- Who sees it, and how it looks ---------------------------------------------------------------

    def test_only_editors_see_the_editor(self):
        self.open("/c/%s/i/%s" % (CATALOG, quote(api("/api/v1/catalogs/%s/items?limit=1" % CATALOG)["items"][0]["id"])))
        self.assertEqual(self.find_all("#edit-link"), [])
        self.open("/c/" + CATALOG)
        self.assertEqual(self.find_all("#new-record"), [])
        # Signed in without a role in the catalog: no links, and the editor is refused.
        self.sign_in("/c/products/i/p001")
        self.assertEqual(self.find_all("#edit-link"), [])
        self.allowed_console += ["403"]
        self.open("/c/products/i/p001/edit")
        self.assertEqual(self.find("#error-text").text, "This is not allowed. Reload the page and try again.")

    def test_the_editor_meets_touch_contrast_and_width(self):
        item = self.item_id("look")
        self.put(item, self.record_with_everything("Aardvark look"))
        self.open_editor(item)
        self.assertEqual(self.js(SMALL_TARGETS), [])
        self.assertEqual(self.js(LOW_CONTRAST), [])
        self.assertLessEqual(self.js("return document.documentElement.scrollWidth;"), self.size["width"])
        # Every control has a label.
        unlabelled = self.js(
            "return Array.from(document.querySelectorAll('#editor input:not([type=hidden]), #editor select, #editor textarea'))"
            ".filter(c => !c.labels || c.labels.length === 0).map(c => c.id);")
        self.assertEqual(unlabelled, [])


class PhoneEditTests(EditBehaviour, BrowserCase):
    size = PHONE


class DesktopEditTests(EditBehaviour, BrowserCase):
    size = DESKTOP


if __name__ == "__main__":
    unittest.main()
