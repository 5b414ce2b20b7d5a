"""The tmux harness of the terminal tests: a live `catalog serve` with the demo catalogs on a
loopback port, and `catalog browse` in a tmux pane of a given size, keys sent with send-keys,
screens read with capture-pane.

Used by test_browse.py and scripts/terminal-screenshot.py. Python's standard library and tmux only.
"""

import os
import socket
import subprocess
import tempfile
import time
import unicodedata

BINARY = os.environ.get("CATALOG_BINARY", ".build/debug/catalog")
TIMEOUT = float(os.environ.get("CATALOG_TERMINAL_TIMEOUT", "15"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def columns(text):
    """Terminal columns of text, as tmux draws it."""
    width = 0
    for char in text:
        code = ord(char)
        if unicodedata.combining(char) or code in (0x200B, 0x200D, 0xFE0F):
            continue
        if 0x1F1E6 <= code <= 0x1F1FF:
            width += 1  # a flag is two regional indicators, two columns together
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            width += 2
        else:
            width += 1
    return width


class Server:
    """`catalog serve` with the demo catalogs, a user with a password and a catalog of wide titles."""

    def __init__(self, work, port=0, binary=None):
        self.work = work
        binary = binary or BINARY
        self.db = os.path.join(work, "catalog.sqlite")
        if not os.path.exists(self.db):
            subprocess.run([binary, "demo", "--db", self.db], check=True, capture_output=True)
            subprocess.run([binary, "user", "add", "mari", "--password-stdin", "--db", self.db],
                           input=b"pw12345\n", check=True, capture_output=True)
            wide = os.path.join(work, "wide.csv")
            with open(wide, "w", encoding="utf-8") as out:
                out.write("id,title,price,currency,country\n")
                out.write("w1,抹茶ラテ 宇治,480,JPY,JP\nw2,Kimchi 김치 찌개,12.5,EUR,KR\n")
                out.write("w3,Plain tea,3,EUR,DE\nw4,Éclair 🥐 au café,4.2,EUR,FR\n")
            subprocess.run([binary, "import", wide, "--catalog", "wide", "--locale", "en", "--db", self.db],
                           check=True, capture_output=True)
        self.log = open(os.path.join(work, f"serve-{time.time_ns()}.log"), "w", encoding="utf-8")
        self.process = subprocess.Popen(
            [binary, "serve", "--db", self.db, "--port", str(port)], stdout=subprocess.PIPE, stderr=self.log,
            text=True)
        line = self.process.stdout.readline()
        if "listening on" not in line:
            raise RuntimeError(f"the server did not start: {line!r}")
        self.url = line.split("listening on", 1)[1].strip()

    def requests(self, fragment):
        self.log.flush()
        with open(self.log.name, encoding="utf-8") as log:
            return sum(1 for line in log if fragment in line)

    def stop(self):
        self.process.terminate()
        self.process.wait(10)
        self.process.stdout.close()
        self.log.close()


class Pane:
    """A tmux session running one command, of a given size."""

    counter = 0

    def __init__(self, command, width=100, height=30, environment=None):
        Pane.counter += 1
        self.name = f"catalog-browse-{os.getpid()}-{Pane.counter}"
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("NO_COLOR", None)
        # Favorites queued while a server is away are kept under the state folder: not the user's.
        env["XDG_STATE_HOME"] = os.path.join(tempfile.gettempdir(), f"catalog-terminal-state-{os.getpid()}")
        env.update(environment or {})
        exports = " ".join(f"{key}={value}" for key, value in (environment or {}).items())
        subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", "new-session", "-d", "-s", self.name,
                        "-x", str(width), "-y", str(height), f"env {exports} {command}; sleep 600"],
                       check=True, env=env)
        subprocess.run(["tmux", "-L", self.name, "set-option", "-g", "default-terminal", "xterm-256color"])

    def tmux(self, *arguments):
        return subprocess.run(["tmux", "-L", self.name] + list(arguments), capture_output=True, text=True).stdout

    def send(self, *keys):
        self.tmux("send-keys", "-t", self.name, *keys)

    def type(self, text):
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def capture(self, escapes=False):
        """The pane's text (with its escapes, if asked), and whether it was read between two frames.

        tmux reads a frame from the terminal in pieces, and a capture taken between pieces shows
        the new frame's top over the old frame's bottom. A frame of `catalog browse` ends on the
        last row, so while the app holds the alternate screen a capture is whole once the cursor
        stands there; the cursor and the text come from one tmux command list, which tmux runs
        without reading the pane in between."""
        state, _, text = self.tmux(
            "display-message", "-p", "-t", self.name, "#{alternate_on} #{cursor_y} #{pane_height}", ";",
            "capture-pane", "-p", "-t", self.name, *(["-e"] if escapes else [])).partition("\n")
        alternate, cursor, height = (state.split() + ["0", "0", "0"])[:3]
        return text, alternate != "1" or int(cursor) == int(height) - 1

    def screen(self, escapes=False):
        """The pane's text read between two frames (``capture``), never halfway through one."""
        return self.poll(lambda screen: True, "a whole frame never showed", escapes=escapes)

    def poll(self, test, failure, timeout=TIMEOUT, escapes=False, read=lambda text: text):
        """Waits for an event on the screen: until a whole frame (``capture``) holds for `test`,
        given what `read` makes of its text (or `timeout` passes, a failure saying `failure` and
        showing the screen); returns that. The one place the tests look at the screen again and
        again, a tenth of a second apart."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            text, whole = self.capture(escapes)
            if whole and test(value := read(text)):
                return value
            time.sleep(0.1)
        raise AssertionError(f"{failure}; the screen:\n{self.capture()[0]}")

    def wait_for(self, text, timeout=TIMEOUT):
        return self.poll(lambda screen: text in screen, f"{text!r} never appeared", timeout)

    def wait_until(self, test, what, timeout=TIMEOUT):
        return self.poll(lambda screen: test(screen.splitlines()), f"{what} never happened", timeout)

    def first_result(self):
        """The first row of the list (below the title, tab, search and scope rows)."""
        lines = self.screen().splitlines()
        return lines[4].strip() if len(lines) > 4 else ""

    def wait_gone(self, text, timeout=TIMEOUT):
        return self.poll(lambda screen: text not in screen, f"{text!r} stayed", timeout)

    def close(self):
        self.tmux("kill-server")
