"""`catalog browse` under tmux against a live `catalog serve` on loopback: keys sent with
send-keys, screens read with capture-pane.

Run by scripts/terminal-tests.sh, which passes the binary as CATALOG_BINARY. Python's standard
library and tmux only.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import BINARY, TIMEOUT, Pane, Server, columns, free_port  # noqa: E402
from screen import Screen, contrast  # noqa: E402


def pane_record(pane, label="id"):
    """The id of the record on a detail page (its last field, `label` in the catalog's language)."""
    for line in reversed(pane.screen().splitlines()):
        if line.strip().startswith(f"{label}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no id on the screen:\n{pane.screen()}")


def wait_for_cells(pane, test, what, timeout=TIMEOUT):
    """Waits until `test` holds for the screen read with its escapes (a ``Screen``); returns it."""
    return pane.poll(test, f"{what} never happened", timeout, escapes=True, read=Screen)


def add_user(server, name):
    """A user of the test's own (others expect mari without favorites) and a token for the API."""
    subprocess.run([BINARY, "user", "add", name, "--password-stdin", "--db", server.db], input=b"pw12345\n",
                   check=True, capture_output=True)
    issued = subprocess.run([BINARY, "user", "token", name, "--db", server.db], check=True, capture_output=True,
                            text=True).stdout
    return next(line.strip() for line in issued.splitlines() if line.startswith("ctk_"))


def sign_in(pane, name, password_label="Password"):
    """Fills in the sign-in form, once it shows (`password_label` in the catalog's language), and sends it."""
    pane.wait_for(password_label)
    pane.type(name)
    pane.send("Enter")
    pane.type("pw12345")
    pane.send("Enter")


class BrowseTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="catalog-terminal-")
        cls.server = Server(cls.work)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.work, ignore_errors=True)
        shutil.rmtree(os.path.join(tempfile.gettempdir(), f"catalog-terminal-state-{os.getpid()}"), ignore_errors=True)

    def setUp(self):
        self.panes = []

    def tearDown(self):
        for pane in self.panes:
            pane.close()

    def browse(self, arguments, **options):
        pane = Pane(f"{BINARY} browse {arguments}", **options)
        self.panes.append(pane)
        return pane

    def test_sequencers_search_scopes_detail_and_back(self):
        pane = self.browse(self.server.url)
        pane.wait_for("Sequenzer")
        pane.send("Down", "Down", "Enter")
        pane.wait_for("Klangwerk Studio")
        pane.type("/")
        pane.type("o")
        screen = pane.wait_for("Alle 5")
        self.assertIn("Ötzi Drums", screen)  # "o" finds the ö too
        self.assertIn("Windows 3", screen)
        pane.send("Tab")
        screen = pane.wait_gone("Ötzi Drums")
        self.assertIn("Loopgarten", screen)
        pane.send("Enter")
        screen = pane.wait_for("Kategorie:")
        self.assertIn("Loopgarten", screen)
        pane.send("Escape")
        screen = pane.wait_for("/ o")
        self.assertIn("Loopgarten", screen)  # the search, its scope and its results are kept

    def test_the_placeholder_for_an_empty_description(self):
        pane = self.browse(f"{self.server.url} --catalog sequencers")
        pane.wait_for("Spurwechsel")
        pane.type("/")
        pane.type("spurwechsel")
        pane.wait_until(lambda lines: lines[4].strip().startswith("Spurwechsel"), "Spurwechsel first")
        pane.send("Enter")
        pane.wait_for("(Keine Daten hinterlegt)")

    def test_the_index_jumps_by_the_locales_letters(self):
        pane = self.browse(f"{self.server.url} --catalog cookbook", width=90, height=24)
        pane.wait_for("Szakácskönyv")
        pane.type("cs")
        # The list starts at its CS header: C then S spell one label.
        screen = pane.wait_until(lambda lines: lines[2].strip().startswith("CS "), "the jump to CS")
        self.assertIn("Csirkepaprikás", screen.splitlines()[3])
        time.sleep(1)  # letters typed later start a new label
        pane.type("gy")
        screen = pane.wait_until(lambda lines: lines[2].strip().startswith("GY "), "the jump to GY")
        self.assertIn("Gyömbéres sütőtök", screen)
        pane.send("Home")
        pane.wait_until(lambda lines: lines[2].strip().startswith("A "), "Home")
        pane.send("End")
        pane.wait_until(lambda lines: any(line.strip().startswith("ZS ") for line in lines[2:-2]), "End")
        pane.send("PageUp", "PageUp", "Up")
        pane.wait_for("Szakácskönyv")

    def test_cookbook_tabs_sign_in_and_favorites(self):
        pane = self.browse(f"{self.server.url} --catalog cookbook")
        pane.wait_for("Ajánlott")
        pane.send("Tab")
        pane.wait_for("Töltött paprika")  # the hot recipes
        pane.send("Tab")
        screen = pane.wait_for("Levesek")
        pane.send("Enter")
        screen = pane.wait_for("‹ Levesek")
        self.assertIn("leves", screen.lower())
        pane.send("Escape")
        pane.wait_for("Desszertek")
        pane.send("Tab")
        pane.wait_for("Jelentkezzen be")
        pane.send("Enter")
        pane.wait_for("Jelszó")
        pane.type("mari")
        pane.send("Enter")
        pane.type("wrong")
        pane.send("Enter")
        pane.wait_for("Hibás név vagy jelszó.")
        for _ in range(5):
            pane.send("BSpace")
        pane.type("pw12345")
        pane.send("Enter")
        pane.wait_for("● mari")
        pane.wait_for("Még nincsenek kedvencek.")
        pane.send("BTab", "BTab", "BTab")
        pane.wait_for("Csirkepaprikás")
        pane.type("*")
        pane.wait_for("★ ")
        pane.send("Tab", "Tab", "Tab")
        screen = pane.wait_for("★ ")
        self.assertNotIn("Még nincsenek", screen)

    def test_search_as_you_type_waits_for_the_last_key(self):
        before = self.server.requests("/search")
        pane = self.browse(f"{self.server.url} --catalog products")
        pane.wait_for("Products")
        pane.type("/")
        pane.type("hammer")
        pane.wait_for("/ hammer")
        pane.wait_for("results")
        time.sleep(1)
        typed = self.server.requests("/search") - before
        # One search for "/" and at most a few while typing: never one per letter.
        self.assertLessEqual(typed, 4, f"{typed} searches for 7 keys")

    def test_offline_snapshot_has_the_same_screens(self):
        snapshot = os.path.join(self.work, "cookbook.sqlite")
        urllib.request.urlretrieve(f"{self.server.url}/api/v1/catalogs/cookbook/snapshot", snapshot)
        pane = self.browse(f"--offline {snapshot}")
        screen = pane.wait_for("offline")
        self.assertIn("Szakácskönyv", screen)
        self.assertNotIn("Kedvencek", screen)  # favorites need a server
        pane.type("/")
        pane.type("csirkepaprik")
        pane.wait_until(lambda lines: lines[4].strip().startswith("Csirkepaprikás"), "Csirkepaprikás first")
        pane.send("Enter")
        pane.wait_for("Mari néni")

    def test_an_unreachable_server_is_one_line_and_retry_works(self):
        port = free_port()
        pane = self.browse(f"http://127.0.0.1:{port}", width=80, height=24)
        screen = pane.wait_for("Ctrl-R")
        messages = [line for line in screen.splitlines() if "reach" in line]
        self.assertEqual(len(messages), 1, screen)
        server = Server(self.work, port=port)
        try:
            pane.send("C-r")
            pane.wait_for("Szakácskönyv")
        finally:
            server.stop()

    def test_wide_characters_align_and_resize_redraws(self):
        pane = self.browse(f"{self.server.url} --catalog wide", width=80, height=24)
        pane.wait_for("Plain tea")
        # The whole list drawn, not a frame caught half-way (a frame is written top to bottom).
        pane.wait_until(lambda lines: sum(1 for line in lines if "EUR" in line or "JPY" in line) == 4, "four rows")
        def price_ends(lines):
            return {columns(line.rstrip()) for line in lines if "EUR" in line or "JPY" in line}

        # How far the prices end from the right edge, kept at every size.
        margin = 80 - max(price_ends(pane.screen().splitlines()))
        for width, height in [(80, 24), (120, 40), (81, 25)]:
            if width != 80 or height != 24:
                pane.tmux("resize-window", "-t", pane.name, "-x", str(width), "-y", str(height))
                # The redraw at the new size: as many lines, the prices at the new right edge.
                pane.wait_until(
                    lambda lines: len(lines) == height and max(price_ends(lines), default=0) == width - margin,
                    f"the redraw at {width}×{height}")
            screen = pane.screen()
            rows = [line for line in screen.splitlines() if "EUR" in line or "JPY" in line]
            self.assertEqual(len(rows), 4, screen)
            ends = {columns(line.rstrip()) for line in rows}
            self.assertEqual(len(ends), 1, f"prices end at different columns {ends} at {width}:\n{screen}")
            self.assertTrue(all(end <= width for end in ends))
            self.assertEqual(len(screen.splitlines()), height)

    def test_colours_only_without_no_color(self):
        colored = self.browse(f"{self.server.url} --catalog products")
        colored.wait_for("Bench Vise")
        self.assertRegex(colored.screen(escapes=True), "48;[25];")  # 256 colours, or 24-bit with COLORTERM
        plain = self.browse(f"{self.server.url} --catalog products", environment={"NO_COLOR": "1"})
        plain.wait_for("Bench Vise")
        escapes = plain.screen(escapes=True)
        self.assertNotRegex(escapes, "[34]8;[25];")

    def test_changes_made_while_a_catalog_is_open_show_without_a_key(self):
        # Its id sorts after the demo catalogs, whose places on the first screen other tests use.
        source = os.path.join(self.work, "live.csv")
        with open(source, "w", encoding="utf-8") as out:
            out.write("id,title,subtitle\n")
            for number, title in enumerate(["Alma", "Barack", "Cseresznye", "Dinnye", "Eper"], 1):
                out.write(f"l{number},{title},gyümölcs {number}\n")
        subprocess.run([BINARY, "import", source, "--catalog", "zz-live", "--locale", "hu", "--db", self.server.db],
                       check=True, capture_output=True)

        def cli(*arguments, stdin=None):
            subprocess.run([BINARY, *arguments, "--db", self.server.db], input=stdin, check=True,
                           capture_output=True)

        pane = self.browse(f"{self.server.url} --catalog zz-live")
        pane.wait_for("Cseresznye")
        pane.wait_for("● élő")
        # A changed record is changed where it stands.
        cli("set", "zz-live", "l2", "subtitle=friss áru")
        screen = pane.wait_for("friss áru")
        rows = [line for line in screen.splitlines() if "Barack" in line or "Alma" in line]
        self.assertEqual(len(rows), 2, screen)
        # A deleted one leaves the list; the cursor stays on its row.
        pane.send("Down", "Down")  # on Cseresznye
        cli("rm", "zz-live", "l3")
        screen = pane.wait_gone("Cseresznye")
        self.assertIn("Dinnye", screen)
        # A new one appears where it sorts (between Barack and Dinnye).
        cli("put", "zz-live", "-", stdin=json.dumps({"id": "l9", "title": "Citrom"}).encode())
        screen = pane.wait_for("Citrom")
        order = [name for line in screen.splitlines() for name in ["Barack", "Citrom", "Dinnye"] if name in line]
        self.assertEqual(order, ["Barack", "Citrom", "Dinnye"], screen)
        # The cursor moved to Dinnye when Cseresznye left, and stayed on it when Citrom came:
        # the detail page of a record that changes shows its new values, of one deleted says so.
        pane.send("Enter")
        pane.wait_for("Azonosító: ")  # "gyümölcs 4" is on the list too
        pane.wait_for("gyümölcs 4")
        self.assertEqual(pane_record(pane, "Azonosító"), "l4")
        cli("set", "zz-live", "l4", "subtitle=érett")
        pane.wait_for("érett")
        cli("rm", "zz-live", "l4")
        pane.wait_for("Ezt a tételt törölték.")
        self.assertIn("érett", pane.screen())

    def test_help_esc_goes_back_and_q_quits(self):
        pane = self.browse(self.server.url, width=60, height=40)
        pane.wait_for("Sequenzer")
        self.assertIn("? help", pane.screen().splitlines()[-1])
        pane.type("?")
        screen = pane.wait_for("any key closes")
        for key in ("Ctrl-W", "Ctrl-U", "PgUp PgDn", "Esc", "Ctrl-R"):
            self.assertIn(key, screen)
        pane.send("Escape")
        pane.wait_gone("Ctrl-W")
        # Esc on the catalogs goes nowhere and does not quit: the next key still opens the help.
        pane.send("Escape")
        pane.type("?")
        pane.wait_for("any key closes")
        pane.type("x")
        pane.wait_gone("any key closes")
        pane.send("Down", "Down", "Enter")
        pane.wait_for("Klangwerk Studio")
        pane.send("Enter")
        pane.wait_for("Kennung: ")  # the German catalog's words from here on
        pane.type("?")
        pane.wait_for("jede Taste schließt")
        pane.send("Escape")  # the help closes to the record
        self.assertIn("Kennung: ", pane.wait_gone("jede Taste schließt"))
        pane.send("Escape")  # the record goes back to the list
        pane.wait_for("/ suchen")
        pane.send("Escape")  # the list goes back to the catalogs
        pane.wait_for("Sequenzer")
        pane.wait_gone("Klangwerk Studio")
        pane.type("q")
        pane.wait_until(lambda lines: pane.tmux("display", "-p", "-t", pane.name, "#{alternate_on}").strip() == "0",
                        "q quitting")

    # The English words the screens of a German or Hungarian catalog used to show (whole words;
    # "live", "offline" and "Server" are German words too, End and Tab are keys).
    ENGLISH = {
        "help", "quit", "open", "move", "reload", "scope", "edit", "close", "jump", "view", "scroll", "next",
        "field", "cancel", "more", "any", "key", "keys", "closes", "everywhere", "lists", "record", "this",
        "never", "quits", "redraw", "page", "first", "last", "previous", "index", "catalogs", "start", "delete",
        "character", "word", "pick", "result", "results", "image", "id", "connecting", "reconnecting", "deleted",
        "favorite", "favorites", "queued", "sent", "snapshot", "the", "cannot", "please",
    }

    def english_words(self, screen):
        words = "".join(char if char.isalpha() else " " for char in screen).split()
        return sorted({word for word in words if word.lower() in self.ENGLISH})

    def test_a_german_catalog_shows_no_english(self):
        pane = self.browse(f"{self.server.url} --catalog sequencers", width=100, height=40)
        pane.wait_for("Spurwechsel")
        screens = {"list": pane.wait_for("● live")}
        pane.type("?")
        screens["help"] = pane.wait_for("jede Taste schließt")
        self.assertIn("Wort löschen", screens["help"])
        pane.send("Escape")
        pane.wait_gone("jede Taste schließt")
        pane.type("/")
        pane.type("o")
        screens["search"] = pane.wait_for("Alle 5")
        self.assertIn("Esc schließen", screens["search"])
        pane.send("Enter")
        screens["record"] = pane.wait_for("Kennung: ")
        self.assertIn("Esc zurück", screens["record"])
        pane.type("?")
        screens["help over the record"] = pane.wait_for("jede Taste schließt")
        pane.send("Escape")
        pane.wait_gone("jede Taste schließt")
        for name, screen in screens.items():
            self.assertEqual(self.english_words(screen), [], f"English on the {name}:\n{screen}")

    def test_the_catalogs_screen_speaks_the_users_language(self):
        # Before a catalog is open there is no catalog's language: the environment's (LC_ALL here).
        pane = self.browse(self.server.url, environment={"LC_ALL": "de_DE.UTF-8"})
        screen = pane.wait_for("Kataloge")
        self.assertIn("Sequenzer", screen)
        self.assertEqual(self.english_words(screen), [], f"English on the catalogs screen:\n{screen}")

    def test_the_bottom_line_shortens_whole_hints(self):
        for width in (60, 40):
            pane = self.browse(f"{self.server.url} --catalog sequencers", width=width, height=20)
            pane.wait_for("Spurwechsel")
            pane.wait_for("● live")  # the live hint's own "verbinde…" is gone
            bottom = pane.wait_for("? Hilfe").splitlines()[-1]
            self.assertNotIn("…", bottom)
            self.assertLessEqual(columns(bottom.rstrip()), width)
            self.assertIn("/ suchen", bottom)

    def test_the_search_line_edits(self):
        pane = self.browse(f"{self.server.url} --catalog products")
        pane.wait_for("Products")

        def query(expected):
            pane.wait_until(lambda lines: any(line.strip() == f"/ {expected}".strip() for line in lines[1:4]),
                            f"the query {expected!r}")

        pane.type("/")
        pane.type("hamer")
        query("hamer")
        pane.send("Left", "Left")
        pane.type("m")
        query("hammer")
        pane.send("C-w")
        query("er")
        pane.send("Home")
        pane.type("b")
        pane.send("End")
        pane.type("s")
        query("bers")
        pane.send("C-a", "Right", "DC")
        query("brs")
        pane.send("C-e", "BSpace")
        query("br")
        pane.send("C-u")
        query("")
        pane.type("vise")
        query("vise")
        # Closed and opened again, the old text is selected: typing replaces it, a cursor key keeps it.
        pane.send("Escape")
        pane.wait_until(lambda lines: not any(line.strip().startswith("/ ") for line in lines[1:4]), "search closed")
        pane.type("/")
        query("vise")
        pane.type("x")
        query("x")
        pane.send("Escape")
        pane.type("/")
        query("x")
        pane.send("Right")
        pane.type("y")
        query("xy")

    def test_the_mouse_selects_opens_and_scrolls(self):
        pane = self.browse(f"{self.server.url} --catalog wide", width=80, height=24)
        pane.wait_for("Plain tea")
        self.assertEqual(pane.tmux("display", "-p", "-t", pane.name, "#{mouse_sgr_flag}").strip(), "1")
        row = next(number for number, line in enumerate(pane.screen().splitlines(), 1) if "Plain tea" in line)
        click = f"\x1b[<0;10;{row}M\x1b[<0;10;{row}m"
        pane.type(click)  # selects the row
        pane.type(click)  # opens it
        pane.wait_for("id: w3")
        pane.send("Escape")
        pane.wait_gone("id: w3")
        pane.type("q")
        pane.wait_until(lambda lines: pane.tmux("display", "-p", "-t", pane.name, "#{alternate_on}").strip() == "0",
                        "q quitting")
        self.assertEqual(pane.tmux("display", "-p", "-t", pane.name, "#{mouse_sgr_flag}").strip(), "0")
        self.assertEqual(pane.tmux("display", "-p", "-t", pane.name, "#{mouse_standard_flag}").strip(), "0")

    def test_a_favorite_marked_while_the_server_is_away_is_queued_and_sent_later(self):
        port = free_port()
        server = Server(self.work, port=port)
        # A user of its own: the other tests expect mari without favorites.
        subprocess.run([BINARY, "user", "add", "queued", "--password-stdin", "--db", self.server.db],
                       input=b"pw12345\n", check=True, capture_output=True)
        issued = subprocess.run([BINARY, "user", "token", "queued", "--db", self.server.db], check=True,
                                capture_output=True, text=True).stdout
        token = next(line.strip() for line in issued.splitlines() if line.startswith("ctk_"))
        try:
            pane = self.browse(f"http://127.0.0.1:{port} --catalog cookbook --token {token}")

            def favorites():
                request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/favorites",
                                                 headers={"Authorization": f"Bearer {token}"})
                with urllib.request.urlopen(request) as answer:
                    return {(entry["catalog"], entry["item"]) for entry in json.load(answer)["favorites"]}

            pane.wait_for("● élő")
            before = favorites()
            server.stop()
            pane.wait_for("újrakapcsolódás")
            pane.send("Down")
            pane.type("*")
            pane.wait_for("Kedvenc félretéve: elküldjük, amint a szerver újra elérhető.")
            self.assertNotIn("Jelszó", pane.screen())  # no sign-in that cannot work
            server = Server(self.work, port=port)
            # Sent once the feed is live again: the server has the change.
            pane.wait_for("Félretett kedvencek elküldve: 1")
            # The app says so once the server has answered: the change is there.
            self.assertNotEqual(favorites(), before, "the queued favorite reached the server")
        finally:
            server.stop()

    def test_the_search_line_edits_wide_characters(self):
        pane = self.browse(f"{self.server.url} --catalog wide")
        pane.wait_for("Plain tea")
        pane.type("/")
        pane.type("ラテ")
        pane.wait_for("/ ラテ")
        pane.send("Home")
        pane.type("抹茶")
        pane.wait_for("/ 抹茶ラテ")
        pane.send("Left", "BSpace")
        pane.wait_for("/ 茶ラテ")

    def test_the_terminal_is_restored_after_ctrl_c_and_sigterm(self):
        for stop in ("ctrl-c", "sigterm"):
            before = os.path.join(self.work, f"before-{stop}")
            after = os.path.join(self.work, f"after-{stop}")
            pid = os.path.join(self.work, f"pid-{stop}")
            command = (f"bash -c 'stty -g > {before}; (echo $BASHPID > {pid}; exec {BINARY} browse {self.server.url}); "
                       f"stty -g > {after}; echo finished'")
            pane = Pane(command)
            self.panes.append(pane)
            pane.wait_for("Sequenzer")
            self.assertEqual(pane.tmux("display", "-p", "-t", pane.name, "#{alternate_on}").strip(), "1")
            if stop == "ctrl-c":
                pane.send("C-c")
            else:
                with open(pid) as file:
                    os.kill(int(file.read().strip()), 15)
            pane.wait_for("finished")
            self.assertEqual(pane.tmux("display", "-p", "-t", pane.name, "#{alternate_on}").strip(), "0")
            self.assertEqual(pane.tmux("display", "-p", "-t", pane.name, "#{cursor_flag}").strip(), "1")
            self.assertEqual(pane.tmux("display", "-p", "-t", pane.name, "#{mouse_sgr_flag}").strip(), "0")
            with open(before) as first, open(after) as second:
                self.assertEqual(first.read(), second.read(), "the terminal's settings changed")


    # Issue 23's terminal bullets, checked on the screen tmux shows.

    def test_subtitles_and_matches_keep_their_contrast_on_both_row_colours(self):
        """Measured from the escapes tmux captured, as ContrastTests measures the renderer's output:
        every word on a search result's row (title, subtitle, a match in either) against its row's
        colour, at both depths that draw the tint."""
        # "leves" is matched in titles (Gyümölcsleves), "néni" in subtitles (Mari néni receptje alapján).
        queries = ["leves", "néni"]

        def paper_rows(screen):
            # The list's rows but the selected one: on the app's paper, tinted and plain in turn.
            return [row for row in range(len(screen.rows)) if screen.rows[row]
                    and screen.rows[row][0].style.background is not None and not screen.rows[row][0].style.reverse]

        for depth, environment in (("256 colours", {"TERM": "xterm-256color", "COLORTERM": ""}),
                                   ("24-bit", {"TERM": "xterm-256color", "COLORTERM": "truecolor"})):
            pane = self.browse(f"{self.server.url} --catalog cookbook", width=100, height=30, environment=environment)
            pane.wait_for("Szakácskönyv")
            pane.type("/")
            backgrounds, measured = {}, 0
            for query in queries:
                pane.send("C-u")
                pane.type(query)

                def matched(screen):
                    # The query highlighted on three rows or more: the last key's results are drawn.
                    return sum(1 for row in paper_rows(screen) for text, style in screen.runs(row)
                               if style.bold and text.lower() == query) >= 3

                screen = wait_for_cells(pane, matched, f"the matches of {query!r} ({depth})")
                for row in paper_rows(screen):
                    background = screen.rows[row][0].style.rgb("background")
                    self.assertIsNotNone(background, f"row {row} has the terminal's background ({depth})")
                    kinds = backgrounds.setdefault(background, set())
                    for text, style in screen.runs(row):
                        if not any(char.isalpha() for char in text):
                            continue
                        foreground = style.rgb("foreground")
                        self.assertIsNotNone(foreground, f"{text!r} is in the terminal's colour ({depth})")
                        self.assertEqual(style.rgb("background"), background, f"{text!r} off its row's paper")
                        ratio = contrast(foreground, background)
                        self.assertGreaterEqual(ratio, 4.5, f"{text!r}: {ratio:.2f}:1 ({depth}, {style})")
                        measured += 1
                        kind = f"match of {query}" if text.lower() == query else "title" if style.bold else "subtitle"
                        kinds.add((kind, foreground))
            self.assertEqual(len(backgrounds), 2, f"both the tinted and the plain rows ({depth})")
            for background, kinds in backgrounds.items():
                self.assertEqual({kind for kind, _ in kinds}, {"title", "subtitle", "match of leves", "match of néni"},
                                 f"every kind of text on {background} ({depth})")
                self.assertEqual(len({color for _, color in kinds}), 3, f"three colours on {background} ({depth})")
            self.assertGreaterEqual(measured, 20)
        # Where the terminal's colours are unknown (eight colours), no tint and no colour of the
        # app's own under the list's text: the terminal's theme keeps it readable.
        pane = self.browse(f"{self.server.url} --catalog cookbook", width=100, height=30,
                           environment={"TERM": "xterm", "COLORTERM": ""})
        pane.wait_for("Szakácskönyv")
        pane.type("/")
        pane.type("leves")
        screen = wait_for_cells(
            pane, lambda screen: sum(1 for row in range(len(screen.rows)) if "leves" in screen.text(row).lower()) >= 4,
            "the results in eight colours")
        for row in range(len(screen.rows)):
            for text, style in screen.runs(row):
                self.assertIsNone(style.background if not style.reverse else None, f"{text!r} on a tint")
                self.assertFalse(isinstance(style.foreground, tuple) or (style.foreground or 0) >= 16,
                                 f"{text!r} in a colour of the app's own")

    def test_the_sign_out_key_shows_once_signed_in(self):
        add_user(self.server, "olga")
        pane = self.browse(self.server.url, width=100, height=40)
        pane.wait_for("Szakácskönyv")
        bottom = pane.screen().splitlines()[-1]
        self.assertIn("s sign in", bottom)
        self.assertNotIn("sign out", bottom)
        pane.type("s")
        sign_in(pane, "olga")
        pane.wait_for("● olga")
        bottom = pane.wait_until(lambda lines: "o sign out" in lines[-1], "the sign-out hint").splitlines()[-1]
        self.assertNotIn("s sign in", bottom)
        # In a catalog, where the list leaves o to the index: on its other tabs, the record and the help.
        pane.send("Enter")  # the cookbook, first of the catalogs (they sort by id)
        pane.wait_for("Ajánlott")
        pane.send("Tab")
        pane.wait_until(lambda lines: "o kilépés" in lines[-1], "the sign-out hint on the hot tab")
        # Enter opens the selected recipe: wait for the hot list to have one (it loads after the tab shows).
        wait_for_cells(pane, lambda screen: any(cell.style.reverse for row in screen.rows[2:-1] for cell in row),
                       "a selected recipe on the hot tab")
        pane.send("Enter")
        pane.wait_for("Azonosító: ")
        pane.wait_until(lambda lines: "o kilépés" in lines[-1], "the sign-out hint on a record")
        pane.type("?")
        help_screen = pane.wait_for("bármely billentyű")
        self.assertRegex(help_screen, r"\n\s+o\s+Kilépés")
        pane.send("Escape")
        pane.wait_gone("bármely billentyű")
        # The key does what it says: signed out, the hint is gone.
        pane.type("o")
        pane.wait_gone("● olga")
        pane.wait_until(lambda lines: "kilépés" not in lines[-1], "the sign-out hint gone")

    def test_a_favorite_marked_while_signed_out_signs_in_first(self):
        token = add_user(self.server, "csilla")
        pane = self.browse(f"{self.server.url} --catalog cookbook", width=100, height=30)
        pane.wait_for("Ajánlott")
        pane.send("Tab")  # the hot recipes: a list without index letters
        screen = wait_for_cells(pane, lambda screen: any(cell.style.reverse for row in screen.rows[2:-1]
                                                         for cell in row), "a selected recipe")
        selected = next(row for row in range(2, len(screen.rows) - 1)
                        if any(cell.style.reverse for cell in screen.rows[row]))
        title = screen.text(selected).strip().split("  ")[0]
        self.assertNotIn("★", title)
        pane.type("*")
        sign_in(pane, "csilla", "Jelszó")
        pane.wait_for("● csilla")
        pane.wait_until(lambda lines: any(title in line and "★" in line for line in lines), "★ on the recipe")
        pane.send("Enter")
        pane.wait_for("Azonosító: ")
        item = pane_record(pane, "Azonosító")
        self.assertIn("★: ", pane.screen())
        request = urllib.request.Request(f"{self.server.url}/api/v1/favorites",
                                         headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request) as answer:
            favorites = {(entry["catalog"], entry["item"]) for entry in json.load(answer)["favorites"]}
        self.assertEqual(favorites, {("cookbook", item)})

    def test_the_scope_chips_keep_the_selected_one_whole_at_narrow_widths(self):
        labels = ["Alle", "Windows", "Apple", "Apple&Win"]
        for width in (60, 40):
            pane = self.browse(f"{self.server.url} --catalog sequencers", width=width, height=20)
            pane.wait_for("Spurwechsel")
            pane.type("/")
            pane.type("o")
            for selected in labels + labels[:1]:  # Tab goes round
                def scope_bar(screen):
                    row = next((row for row in range(len(screen.rows)) if screen.text(row).startswith(" / o")), None)
                    return None if row is None else row + 1

                def shown(screen):
                    row = scope_bar(screen)
                    if row is None or "…" in screen.text(row):
                        return False  # no counts yet
                    chosen = [text.strip() for text, style in screen.runs(row) if style.reverse]
                    return len(chosen) == 1 and chosen[0].split()[0] == selected

                screen = wait_for_cells(pane, shown, f"{selected} selected at {width} columns")
                bar = screen.text(scope_bar(screen)).rstrip()
                self.assertLessEqual(columns(bar), width, bar)
                tokens = bar.split()
                left = tokens[0] == "‹"
                right = tokens[-1] == "›"
                chips = tokens[1 if left else 0:-1 if right else None]
                # Whole chips only: a label and its count, never a piece of one.
                self.assertEqual(len(chips) % 2, 0, bar)
                names = chips[0::2]
                self.assertTrue(all(count.isdigit() for count in chips[1::2]), bar)
                self.assertIn(selected, names, bar)
                self.assertEqual(names, labels[labels.index(names[0]):labels.index(names[0]) + len(names)], bar)
                # A marker on each side where chips are left out, none where nothing is.
                self.assertEqual(left, names[0] != labels[0], bar)
                self.assertEqual(right, names[-1] != labels[-1], bar)
                if width == 60:
                    self.assertEqual(names, labels, bar)  # all four fit
                else:
                    self.assertLess(len(names), 4, bar)
                pane.send("Tab")

    def test_the_mouse_wheel_scrolls_the_list_and_back(self):
        pane = self.browse(f"{self.server.url} --catalog cookbook", width=80, height=24)
        pane.wait_for("Ajánlott")

        def selection(screen):
            rows = [row for row in range(2, len(screen.rows) - 2) if screen.rows[row]
                    and all(cell.style.reverse for cell in screen.rows[row][:3])]
            return screen.text(rows[0]).strip() if len(rows) == 1 else None

        start = wait_for_cells(pane, selection, "a selected recipe")
        first, selected = start.text(2), selection(start)
        pane.type("\x1b[<65;10;10M")  # one notch down: the selection moves three recipes
        moved = wait_for_cells(pane, lambda screen: selection(screen) not in (None, selected), "the wheel moving down")
        self.assertEqual(moved.text(2), first, "one notch does not scroll a list longer than the screen")
        for _ in range(7):
            pane.type("\x1b[<65;10;10M")
        scrolled = wait_for_cells(pane, lambda screen: screen.text(2) != first, "the list scrolling")
        self.assertIsNotNone(selection(scrolled))
        for _ in range(8):
            pane.type("\x1b[<64;10;10M")
        back = wait_for_cells(pane, lambda screen: selection(screen) == selected, "the wheel moving back up")
        self.assertEqual(back.text(2), first)

if __name__ == "__main__":
    unittest.main(verbosity=2)
