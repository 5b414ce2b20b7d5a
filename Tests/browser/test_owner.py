"""The catalog owner's screens in a real Chromium, at a phone size and a desktop size, signed in
as an administrator (`CATALOG_ADMIN_USER`, who may create and delete catalogs): a new catalog
from an uploaded CSV whose mapping is changed in the preview, the import's progress bar followed
to its end and then the new catalog; a catalog renamed on its settings page, with a problem shown
beside its field; a catalog deleted by typing its id (the button disabled before); who sees
these screens; touch targets, contrast, labels and width. Catalogs a test needs are made through
the API with an administrator's token; every wait is on the page or the server."""

import os
import tempfile
import unittest
import urllib.error

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import ADMIN_TOKEN, DESKTOP, PASSWORD, PHONE, USER, BrowserCase, api, api_change, quote
from test_app import LOW_CONTRAST, SMALL_TARGETS
from test_screens import axe_failures

ADMIN_USER = os.environ.get("CATALOG_ADMIN_USER", "")

CSV = """sku,name,cost,maker
k-1,Kettle,12.50,Acme
k-2,Teapot,8,Acme
k-3,Mug,3.20,Bolt
"""


class OwnerBehaviour:
    """Tests that hold at every size (mixed into one class per size below)."""

    def setUp(self):
        if not ADMIN_TOKEN or not ADMIN_USER:
            raise unittest.SkipTest("CATALOG_ADMIN_TOKEN or CATALOG_ADMIN_USER is not set: run scripts/browser-tests.sh")
        super().setUp()
        self.made = set()

    def tearDown(self):
        for catalog in self.made:
            api_change("DELETE", "/api/v1/catalogs/" + quote(catalog))
        super().tearDown()

    def catalog_id(self, name):
        return "o-%s-%s" % (self.size["name"], name)

    def sign_in_as_admin(self, next_path):
        self.open("/signin?next=" + quote(next_path))
        self.find("#name").send_keys(ADMIN_USER)
        self.find("#password").send_keys(PASSWORD)
        self.follow(self.find("#signin-submit"))

    def make_catalog(self, catalog, title):
        """A catalog with the CSV's records, imported through the API."""
        api_change("DELETE", "/api/v1/catalogs/" + quote(catalog))
        query = "field=id%3Dsku&field=title%3Dname&title=" + quote(title)
        status, _, body = api_change(
            "POST", "/api/v1/catalogs/%s/import?%s" % (quote(catalog), query), CSV.encode("utf-8"),
            headers={"Content-Type": "text/csv"})
        self.assertEqual(status, 200, body)
        self.made.add(catalog)

    def text_of(self, selector):
        return self.js("const n = document.querySelector(arguments[0]); return n ? n.textContent : null;", selector)

    def set_field(self, selector, value):
        field = self.find(selector)
        self.js("arguments[0].scrollIntoView({block: 'center'});", field)
        field.clear()
        field.send_keys(value)

    def preview_cells(self):
        return self.js("return Array.from(document.querySelectorAll('#preview-table tbody tr'))"
                       ".map(r => Array.from(r.cells).map(c => c.textContent));")

    def check_look(self, form):
        self.assertEqual(self.js(SMALL_TARGETS), [])
        self.assertEqual(self.js(LOW_CONTRAST), [])
        self.assertLessEqual(self.js("return document.documentElement.scrollWidth;"), self.size["width"])
        unlabelled = self.js(
            "return Array.from(document.querySelectorAll(arguments[0] + ' input:not([type=hidden]), ' + arguments[0] + ' select'))"
            ".filter(c => !c.labels || c.labels.length === 0).map(c => c.id);", form)
        self.assertEqual(unlabelled, [])

    # ---- A new catalog ----------------------------------------------------------------------------

    def test_create_from_a_csv_with_a_changed_mapping(self):
        catalog = self.catalog_id("new")
        api_change("DELETE", "/api/v1/catalogs/" + quote(catalog))
        self.made.add(catalog)
        # The mapping starts as the importer would make it: no column is named "title", so the
        # preview says why the records would be refused.
        self.allowed_console += ["status of 422"]
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8") as upload:
            upload.write(CSV)
        self.addCleanup(os.remove, upload.name)
        self.sign_in_as_admin("/")
        self.follow(self.find("#new-catalog-link"))
        self.assertEqual(self.path(), "/new")
        self.set_field("#n-id", catalog)
        self.set_field("#n-title", "Kitchen %s" % self.size["name"])
        Select(self.find("#n-locale")).select_by_value("de")
        self.find("#n-file").send_keys(upload.name)
        # Enter in a field asks for the preview, as the button does.
        self.find("#n-title").send_keys(Keys.ENTER)
        self.wait_for(lambda: self.find("#preview").is_displayed(), message="no preview")
        self.assertEqual(self.preview_cells(), [])
        self.assertIn("record has no title", self.text_of("#preview-problems"))
        self.assertEqual(self.texts("#map-title option"), ["(nothing)", "sku", "name", "cost", "maker"])
        self.check_look("#new-catalog")
        # The mapping changed: each change previews again, as the import will read it.
        Select(self.find("#map-title")).select_by_value("name")
        self.wait_for(lambda: len(self.preview_cells()) == 3, message="the preview did not follow the mapping")
        Select(self.find("#map-id")).select_by_value("sku")
        self.wait_for(lambda: self.preview_cells() and self.preview_cells()[0][:2] == ["k-1", "Kettle"],
                      message="the id mapping was not previewed")
        Select(self.find("#map-price")).select_by_value("cost")
        self.wait_for(lambda: "12.5" in self.preview_cells()[0], message="the price mapping was not previewed")
        self.assertEqual(self.text_of("#preview-problems"), "")
        self.screenshot("40-new-catalog-preview")
        # Import: the bar follows the job to its end, then the new catalog opens.
        self.mark_page()
        self.tap(self.find("#import-button"))
        self.wait_for(lambda: not self.page_kept() or self.find("#progress").get_attribute("aria-valuenow") == "100",
                      timeout=30, message="the progress bar did not reach the end")
        self.wait_for(lambda: self.path() == "/c/" + catalog, timeout=10, message="the new catalog did not open")
        self.wait_ready()
        self.assertEqual(self.find("#bar-title").text, "Kitchen %s" % self.size["name"])
        stored = api("/api/v1/catalogs/%s/items/k-1" % catalog)
        self.assertEqual(stored["title"], "Kettle")
        self.assertEqual(stored["price"], 12.5)
        self.assertEqual(stored["fields"]["maker"], "Acme")
        self.assertEqual(api("/api/v1/catalogs/" + catalog)["locale"], "de")

    def test_the_progress_bar_is_a_progressbar_and_an_id_taken_is_said(self):
        catalog = self.catalog_id("taken")
        self.make_catalog(catalog, "Taken")
        self.allowed_console += ["status of 422"]
        self.sign_in_as_admin("/new")
        bar = self.find("#progress")
        self.assertEqual(bar.get_attribute("role"), "progressbar")
        self.assertEqual(bar.get_attribute("aria-valuemin"), "0")
        self.assertEqual(bar.get_attribute("aria-valuemax"), "100")
        # Without a source: said beside the source; with a taken id: said beside the id.
        self.set_field("#n-id", catalog)
        self.tap(self.find("#preview-button"))
        self.wait_for(lambda: self.find("#n-source-error").is_displayed(), message="no source problem")
        self.set_field("#n-url", "https://example.invalid/feed.csv")
        self.tap(self.find("#preview-button"))
        self.wait_for(lambda: self.find("#n-id-error").is_displayed(), message="the taken id was not said")
        self.assertEqual(self.find("#n-id").get_attribute("aria-invalid"), "true")

    def test_the_owners_pages_pass_axe(self):
        catalog = self.catalog_id("axe")
        self.make_catalog(catalog, "Checked")
        self.sign_in_as_admin("/new")
        first = api("/api/v1/catalogs/%s/items?limit=1" % catalog)["items"][0]["id"]
        paths = ["/new", "/c/%s/settings" % catalog, "/c/%s/new" % catalog,
                 "/c/%s/i/%s/edit" % (catalog, quote(first)), "/c/%s" % catalog]
        self.assertEqual(axe_failures(self, paths), [], "axe-core found problems")

    # ---- Settings ---------------------------------------------------------------------------------

    def test_rename_with_a_problem_beside_the_field(self):
        catalog = self.catalog_id("rename")
        self.make_catalog(catalog, "Before")
        self.allowed_console += ["status of 422"]
        self.sign_in_as_admin("/c/" + catalog)
        self.follow(self.find("#catalog-settings"))
        self.assertEqual(self.path(), "/c/%s/settings" % catalog)
        self.check_look("#catalog-settings")
        self.screenshot("41-catalog-settings")
        # A title too long: said beside the title, nothing changed.
        self.js("document.getElementById('s-title').removeAttribute('maxlength');")
        self.set_field("#s-title", "x" * 201)
        self.tap(self.find("#save-settings"))
        self.wait_for(lambda: self.find("#s-title-error").is_displayed(), message="the problem was not shown")
        self.assertEqual(self.text_of("#s-title-error"), "Give a title of at most 200 characters.")
        self.assertEqual(api("/api/v1/catalogs/" + catalog)["title"], "Before")
        # A title and a label: saved, and the catalog's page shows the new title.
        self.set_field("#s-title", "After")
        label = self.find('input[data-field="maker"]')
        label.send_keys("Manufacturer")
        self.follow(self.find("#save-settings"))
        self.assertEqual(self.path(), "/c/" + catalog)
        self.assertEqual(self.find("#bar-title").text, "After")
        detail = api("/api/v1/catalogs/" + catalog)
        self.assertEqual(detail["title"], "After")
        self.assertEqual(detail["labels"]["maker"]["en"], "Manufacturer")

    def test_the_description_is_set_and_cleared_on_the_settings_page(self):
        catalog = self.catalog_id("describe")
        self.make_catalog(catalog, "Described")
        self.allowed_console += ["status of 422"]
        self.sign_in_as_admin("/c/%s/settings" % catalog)
        # Too long: said beside the field in the catalog's language, nothing changed.
        self.js("document.getElementById('s-description').removeAttribute('maxlength');")
        self.set_field("#s-description", "x" * 501)
        self.tap(self.find("#save-settings"))
        self.wait_for(lambda: self.find("#s-description-error").is_displayed(), message="the problem was not shown")
        self.assertEqual(self.text_of("#s-description-error"),
                         "Write a description of at most 500 characters, as plain text.")
        self.assertIsNone(api("/api/v1/catalogs/" + catalog)["description"])
        # Saved, it shows on the catalog's card on the home page.
        self.set_field("#s-description", "Saws, cups and cans.\nAll invented.")
        self.follow(self.find("#save-settings"))
        self.assertEqual(api("/api/v1/catalogs/" + catalog)["description"], "Saws, cups and cans.\nAll invented.")
        self.open("/")
        card = self.find('#catalogs .card-link[href$="/c/%s"]' % catalog)
        self.assertIn("Saws, cups and cans.", card.find_element("css selector", ".card-description").text)
        # Emptied, it is removed.
        self.open("/c/%s/settings" % catalog)
        self.set_field("#s-description", "")
        self.follow(self.find("#save-settings"))
        self.assertIsNone(api("/api/v1/catalogs/" + catalog)["description"])

    def test_delete_by_typing_the_id(self):
        catalog = self.catalog_id("delete")
        self.make_catalog(catalog, "Doomed")
        self.sign_in_as_admin("/c/%s/settings" % catalog)
        button = self.find("#delete-catalog")
        self.assertFalse(button.is_enabled())
        confirm = self.find("#delete-confirm")
        confirm.send_keys(catalog[:-1])
        self.assertFalse(button.is_enabled())
        confirm.send_keys(catalog[-1])
        self.assertTrue(button.is_enabled())
        confirm.send_keys("x")
        self.assertFalse(button.is_enabled())
        confirm.send_keys(Keys.BACKSPACE)
        self.assertTrue(button.is_enabled())
        # By keyboard: Tab to the button, Enter.
        confirm.send_keys(Keys.TAB)
        self.assertEqual(self.js("return document.activeElement.id;"), "delete-catalog")
        self.mark_page()
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait_for(lambda: not self.page_kept(), message="no page after the deletion")
        self.wait_ready()
        self.assertEqual(self.path(), "/?deleted=" + catalog)
        self.assertEqual(self.text_of("#home-message"), "The catalog %s was deleted." % catalog)
        status, _, _ = api_change("GET", "/api/v1/catalogs/" + catalog)
        self.assertEqual(status, 404)
        self.made.discard(catalog)

    def test_visibility_on_the_settings_page(self):
        catalog = self.catalog_id("members")
        self.make_catalog(catalog, "Dealers only")
        self.sign_in_as_admin("/c/%s/settings" % catalog)
        self.assertTrue(self.find("#s-visibility-public").is_selected())
        self.check_look("#catalog-settings")
        # Members only, chosen by its label: saved, and the API says so.
        self.tap(self.find('label[for="s-visibility-members"]'))
        self.assertTrue(self.find("#s-visibility-members").is_selected())
        self.follow(self.find("#save-settings"))
        self.assertEqual(self.path(), "/c/" + catalog)
        status, _, body = api_change("GET", "/api/v1/catalogs/" + catalog)
        self.assertEqual(status, 200, body)
        self.assertIn(b'"visibility":"members"', body.replace(b" ", b""))
        # For a visitor who is not a member the catalog does not exist: the API and the page say
        # what they say of a catalog that is not there.
        with self.assertRaises(urllib.error.HTTPError) as refused:
            api("/api/v1/catalogs/" + catalog)
        self.assertEqual(refused.exception.code, 404)
        self.allowed_console += ["404"]
        self.driver.delete_all_cookies()
        self.open("/c/" + catalog)
        hidden = self.find("#error-text").text
        self.open("/c/" + catalog + "-nowhere")
        self.assertEqual(self.find("#error-text").text, hidden)
        self.assertEqual(hidden, "There is no page at this address.")
        # Signed in without a role there, the catalog is still not there; made a viewer, the same
        # account browses it.
        self.sign_in("/")
        self.open("/c/" + catalog)
        self.assertEqual(self.find("#error-text").text, hidden)
        status, _, body = api_change(
            "PUT", "/api/v1/catalogs/%s/members/%s" % (quote(catalog), quote(USER)), {"role": "viewer"})
        self.assertEqual(status, 200, body)
        self.open("/c/" + catalog)
        self.assertEqual(self.find("#bar-title").text, "Dealers only")
        self.assertEqual(self.find_all("#error-text"), [])

    # ---- Who sees them ----------------------------------------------------------------------------

    def test_only_owners_see_the_settings_and_admins_the_new_catalog(self):
        self.open("/")
        self.assertEqual(self.find_all("#new-catalog-link"), [])
        self.open("/c/live")
        self.assertEqual(self.find_all("#catalog-settings"), [])
        # An editor of "live" (the tests' user): no settings, no new catalog.
        self.sign_in("/c/live")
        self.assertEqual(self.find_all("#catalog-settings"), [])
        self.allowed_console += ["403"]
        self.open("/c/live/settings")
        self.assertEqual(self.find("#error-text").text, "This is not allowed. Reload the page and try again.")
        self.open("/new")
        self.assertEqual(self.find("#error-text").text, "This is not allowed. Reload the page and try again.")


class PhoneOwnerTests(OwnerBehaviour, BrowserCase):
    size = PHONE


class DesktopOwnerTests(OwnerBehaviour, BrowserCase):
    size = DESKTOP


if __name__ == "__main__":
    unittest.main()
