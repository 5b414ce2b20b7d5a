"""Shared pieces of the browser tests: a headless Chromium at a phone or desktop size, the
server under test, waiting, the browser console, and screenshots.

The tests read their set-up from the environment that scripts/browser-tests.sh exports:

    CATALOG_URL            the demo server (demo catalogs, "hostile", "mid")
    CATALOG_USER           a user with a password on that server
    CATALOG_PASSWORD
    CATALOG_ADMIN_TOKEN    an administrator's API token on that server (changes through the API)
    CATALOG_ADMIN_USER     an administrator with CATALOG_PASSWORD, for the owner's screens
    CATALOG_1M_URL         a server holding the 1,000,000-record catalog "big" (optional)
    CATALOG_SCREENSHOTS    where screenshots go (default .build/screenshots)
"""

import atexit
import itertools
import json
import os
import signal
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PHONE = {"name": "phone", "width": 390, "height": 844, "mobile": True}
DESKTOP = {"name": "desktop", "width": 1280, "height": 900, "mobile": False}

BASE_URL = os.environ.get("CATALOG_URL", "").rstrip("/")
USER = os.environ.get("CATALOG_USER", "ada")
PASSWORD = os.environ.get("CATALOG_PASSWORD", "")
ADMIN_TOKEN = os.environ.get("CATALOG_ADMIN_TOKEN", "")
SCREENSHOTS = os.environ.get("CATALOG_SCREENSHOTS", ".build/screenshots")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")


_browsers = []


@atexit.register
def _quit_browsers():
    """Closes every browser still open, also when the run is stopped by a signal."""
    while _browsers:
        try:
            _browsers.pop().quit()
        except Exception:
            pass


def _stop(_signum, _frame):
    raise KeyboardInterrupt


# Started in the background by a script, the runner inherits an ignored SIGINT: SIGINT and SIGTERM
# both stop the run as Ctrl-C does (unittest lets only KeyboardInterrupt through), and the browsers
# close on the way out.
signal.signal(signal.SIGTERM, _stop)
signal.signal(signal.SIGINT, _stop)


def start_browser(size):
    """A headless Chromium whose viewport is `size` (a phone emulates touch and a 3x screen)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-color-profile=srgb",
        "--lang=en-US",
        "--window-size=%d,%d" % (size["width"], size["height"]),
    ):
        options.add_argument(argument)
    if size["mobile"]:
        options.add_experimental_option(
            "mobileEmulation",
            {"deviceMetrics": {"width": size["width"], "height": size["height"], "pixelRatio": 2, "touch": True}},
        )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Never let Selenium Manager look for a driver on the network: Debian's is the one.
    os.environ.setdefault("SE_OFFLINE", "true")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    _browsers.append(driver)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    if not size["mobile"]:
        # The window size includes no browser frame in headless mode, but make the viewport exact.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": size["width"], "height": size["height"], "deviceScaleFactor": 1, "mobile": False},
        )
    return driver


class DevTools:
    """The browser's DevTools protocol over its own websocket: what Selenium's CDP call cannot
    do, such as taking a service worker offline along with the page (a page's network conditions
    do not reach the worker's own requests)."""

    def __init__(self, driver):
        import websocket  # comes with selenium

        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen("http://%s/json/version" % address, timeout=10) as response:
            url = json.load(response)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=10)
        self.ids = itertools.count(1)
        # Emulation lasts while the session to its target is attached.
        self.sessions = {}

    def call(self, method, params=None, session=None):
        number = next(self.ids)
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.recv())
            if reply.get("id") == number:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def network(self, offline=False, latency=0, throughput=-1):
        """Network conditions for every page and service worker of the browser."""
        for target in self.call("Target.getTargets")["targetInfos"]:
            if target["type"] not in ("page", "service_worker"):
                continue
            session = self.sessions.get(target["targetId"])
            if session is None:
                session = self.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
                self.sessions[target["targetId"]] = session
                self.call("Network.enable", {}, session)
            self.call(
                "Network.emulateNetworkConditions",
                {"offline": offline, "latency": latency, "downloadThroughput": throughput, "uploadThroughput": throughput},
                session,
            )

    def close(self):
        try:
            self.network()
            for session in self.sessions.values():
                self.call("Target.detachFromTarget", {"sessionId": session})
        finally:
            self.socket.close()


def api(path):
    """GET a JSON answer of the server under test."""
    with urllib.request.urlopen(BASE_URL + path, timeout=10) as response:
        return json.load(response)


def api_change(method, path, body=None, headers=None):
    """A change through the JSON API as an administrator (`CATALOG_ADMIN_TOKEN`): the status, the
    headers and the body of the answer, whatever the status. `body` is sent as JSON, or as it is
    when it is already text or bytes (a number's literal kept exactly)."""
    if body is None or isinstance(body, bytes):
        data = body
    else:
        data = (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
    request = urllib.request.Request(BASE_URL + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + ADMIN_TOKEN)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def quote(value):
    return urllib.parse.quote(value, safe="")


class BrowserCase(unittest.TestCase):
    """One browser per test class at the class's `size`; each test starts signed out with an
    empty console, and fails if the page logged an error (CSP violations included) unless it
    says otherwise."""

    size = PHONE
    driver = None

    @classmethod
    def setUpClass(cls):
        if not BASE_URL:
            raise unittest.SkipTest("CATALOG_URL is not set: run scripts/browser-tests.sh")
        cls.driver = start_browser(cls.size)

    @classmethod
    def tearDownClass(cls):
        if cls.driver is not None:
            cls.driver.quit()
            if cls.driver in _browsers:
                _browsers.remove(cls.driver)
            cls.driver = None

    def setUp(self):
        self.allowed_console = []
        self.driver.get(BASE_URL + "/signin")
        self.driver.delete_all_cookies()
        self.console()  # drop what earlier tests left

    def tearDown(self):
        errors = [entry for entry in self.console() if entry["level"] == "SEVERE"]
        errors = [e for e in errors if not any(allowed in e["message"] for allowed in self.allowed_console)]
        # A change stream refused for a while (429: the server still counts streams of pages left
        # earlier until their next heartbeat) is handled by the page, which waits as Retry-After
        # says; the browser logs the refusal all the same.
        errors = [e for e in errors if not ("/changes?since=" in e["message"] and "status of 429" in e["message"])]
        if errors:
            self.fail("console errors: " + "; ".join(e["message"] for e in errors))

    # ---- Navigation and waiting ----------------------------------------------------------------

    def open(self, path):
        self.driver.get(BASE_URL + path)
        self.wait_ready()

    def wait_ready(self):
        self.wait_for(lambda: self.js("return document.readyState === 'complete' && !!window.__catalog"))

    def wait_for(self, condition, timeout=5, message=None):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(lambda _: condition())
        except TimeoutException:
            if callable(message):
                message = message()
            self.fail(message or "timed out waiting for %s" % getattr(condition, "__name__", "a condition"))

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def texts(self, selector):
        return [element.text for element in self.find_all(selector)]

    def path(self):
        parts = urllib.parse.urlsplit(self.driver.current_url)
        return parts.path + ("?" + parts.query if parts.query else "")

    def query(self):
        return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.driver.current_url).query))

    def follow(self, element):
        """Taps a link or a submit button and waits until the next page has loaded."""
        self.mark_page()
        self.tap(element)
        self.wait_for(lambda: not self.page_kept(), message="no new page after the tap")
        self.wait_ready()

    def mark_page(self):
        """Marks the current document: `page_kept()` is true while no new page has loaded."""
        self.js("window.__sameDocument = true;")

    def page_kept(self):
        return self.js("return window.__sameDocument === true;")

    def tap(self, element):
        """A click where a person would tap: in the middle of the element, after scrolling it into view."""
        self.js("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()

    def renders(self):
        return self.js("return window.__catalog ? window.__catalog.renders : -1;")

    def type_search(self, text):
        """Types into the search field key by key and waits until the last key's results are drawn."""
        field = self.find("#q")
        before = self.renders()
        field.send_keys(text)
        self.wait_for(
            lambda: self.renders() > before and self.js("return document.getElementById('q').value") == field.get_attribute("value"),
            message="no results drawn after typing %r" % text,
        )
        self.settle()

    def settle(self):
        """Waits until no request is running and the last search has been drawn."""
        self.wait_for(lambda: self.js("return window.__catalog.idle === true"), message="the page stayed busy")

    def sign_in(self, next_path="/"):
        self.open("/signin?next=" + quote(next_path))
        self.find("#name").send_keys(USER)
        self.find("#password").send_keys(PASSWORD)
        self.follow(self.find("#signin-submit"))

    # ---- Console and screenshots -----------------------------------------------------------------

    def console(self):
        try:
            return self.driver.get_log("browser")
        except WebDriverException:
            return []

    def screenshot(self, name):
        folder = os.path.join(SCREENSHOTS, self.size["name"])
        os.makedirs(folder, exist_ok=True)
        # Let lazy images and fonts arrive, so the picture shows what a person sees.
        self.js("return document.fonts ? document.fonts.ready : null;")
        self.wait_for(
            lambda: self.js(
                "return Array.from(document.images).filter(i => i.getBoundingClientRect().top < innerHeight)"
                ".every(i => i.complete);"
            ),
            message="images did not load",
        )
        time.sleep(0.05)
        self.driver.save_screenshot(os.path.join(folder, name + ".png"))

    def rect(self, element):
        return self.js("const r = arguments[0].getBoundingClientRect(); return {top: r.top, bottom: r.bottom, "
                       "left: r.left, right: r.right, width: r.width, height: r.height};", element)
