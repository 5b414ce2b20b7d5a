#!/usr/bin/env python3
"""Runs the README's and docs/'s examples and checks what they document against the program.

    scripts/docs-tests.py [CATALOG_BINARY]      (default .build/debug/catalog; part of make test)

For README.md and every docs/*.md, in a scratch directory of its own holding a copy of
docs/examples/ and a fresh catalog.sqlite with the demo catalogs, with the binary on PATH:

- every ```sh block runs with bash (-e, -o pipefail), unless the line before its fence is
  `<!-- not run -->`; the blocks of one page run in order and share their variables
  (`TOKEN=$(…)` in one block is $TOKEN in the next). `localhost:8080` becomes a live
  `catalog serve --port 0` on that scratch database, `localhost:8000` a static file server of
  docs/examples/ on another free loopback port (the feed examples). A block that exits non-zero
  fails the run (the examples call `curl -f`, which fails on an HTTP error).
- every ```text block after `<!-- usage: COMMAND -->` must be that command's USAGE lines in
  `catalog COMMAND --help`, character for character;
- every `--option` written after `catalog COMMAND` (in a block or an inline code span) must be
  one of that command's options in its --help, an option alone in inline code (`--timeout
  SECONDS`) one of some command's (except on the pages about other tools too), and every option
  a --help lists must be documented somewhere in docs/;
- every relative link (and the README's picture) must lead to a file, and its #anchor to a
  heading there;
- every JSON shape documented for a request in docs/api.md's tables (`{"id","title",…}`) and for
  a command in docs/cli.md's list (`catalog … --json` → `{…}`) must have exactly the keys of the
  real answer, nested objects and records included, and every route of the OpenAPI document
  must be in docs/api.md and every documented route in the OpenAPI document; the documented
  error shape is compared with a real 404.

DOCS_TESTS_VERBOSE=1 prints every block's output. Nothing waits on time: the servers are used
once they print their address.
"""

import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_RUN = "<!-- not run -->"
USAGE_MARK = re.compile(r"<!-- usage: ([a-z -]+) -->")
COMMANDS = ["import", "create", "set-catalog", "settings", "delete", "demo", "catalogs", "list", "sections", "show",
            "search", "put", "set", "rm", "image", "history", "restore", "export", "refresh", "copy", "generate",
            "serve", "user", "key", "audit", "browse"]
FAILURES = []
# Pages whose inline options are other tools' too (the benchmark scripts', swift build's).
OTHER_TOOLS_PAGES = {"benchmarks.md", "development.md"}


def fail(where, message):
    if f"{where}: {message}" in FAILURES:
        return
    FAILURES.append(f"{where}: {message}")
    print(f"FAIL {where}: {message}", flush=True)


# ---------------------------------------------------------------------------- reading the pages

class Block:
    def __init__(self, page, line, lang, text, runnable, usage):
        self.page, self.line, self.lang, self.text = page, line, lang, text
        self.runnable, self.usage = runnable, usage

    @property
    def where(self):
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def read_blocks(page):
    lines = page.read_text(encoding="utf-8").split("\n")
    blocks, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        usage = USAGE_MARK.fullmatch(before)
        blocks.append(Block(page, start, fence.group(1), "\n".join(body) + "\n",
                            runnable=fence.group(1) == "sh" and before != NOT_RUN,
                            usage=usage.group(1) if usage else None))
        i += 1
    return blocks


def inline_code(page):
    """Inline code spans outside fenced blocks, with their line numbers."""
    spans, fenced = [], False
    for number, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            spans += [(number, m.group(1)) for m in re.finditer(r"`([^`]+)`", line)]
    return spans


# ---------------------------------------------------------------------------- the program's side

def help_text(binary, command):
    args = [binary] + command.split() + ["--help"]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def usage_lines(help_output):
    lines = help_output.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("USAGE:"))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return "\n".join(lines[start:end]) + "\n"


def options_of(help_output):
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", help_output))


class StaticFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Scratch:
    """A scratch directory with the demo catalogs, a live server on it and a static file server."""

    def __init__(self, binary):
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="catalog-docs-"))
        shutil.copytree(ROOT / "docs" / "examples", self.dir / "docs" / "examples")
        subprocess.run([binary, "demo", "--quiet"], cwd=self.dir, check=True)
        self.server = subprocess.Popen([binary, "serve", "--port", "0", "--quiet"], cwd=self.dir,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.log = []
        for line in self.server.stdout:
            self.log.append(line)
            found = re.search(r"listening on http://([0-9.]+:\d+)", line)
            if found:
                self.address = found.group(1)
                break
        else:
            raise SystemExit("catalog serve stopped before listening:\n" + "".join(self.log))
        threading.Thread(target=self._drain, daemon=True).start()
        directory = str(self.dir / "docs" / "examples")
        self.files = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), lambda *a: StaticFiles(*a, directory=directory))
        threading.Thread(target=self.files.serve_forever, daemon=True).start()
        self.files_address = f"127.0.0.1:{self.files.server_address[1]}"
        self.env = dict(os.environ, PATH=f"{Path(binary).parent}:{os.environ['PATH']}",
                        HOME=str(self.dir), NO_COLOR="1")
        self.env.pop("CATALOG_DB", None)

    def _drain(self):
        for line in self.server.stdout:
            self.log.append(line)

    def localize(self, text):
        text = text.replace("localhost:8080", self.address)
        return text.replace("localhost:8000", self.files_address)

    def run_block(self, block):
        script = self.dir / "block.sh"
        state = self.dir / ".block-state"
        script.write_text(
            f"set -a\n[ -f '{state}' ] && . '{state}'\nset -e -o pipefail\n"
            + self.localize(block.text)
            + f"\nset +a\nexport -p > '{state}'\n", encoding="utf-8")
        result = subprocess.run(["bash", str(script)], cwd=self.dir, env=self.env,
                                capture_output=True, text=True, timeout=300)
        if os.environ.get("DOCS_TESTS_VERBOSE"):
            print(f"--- {block.where}\n{result.stdout}{result.stderr}", flush=True)
        if result.returncode != 0:
            fail(block.where, f"exit status {result.returncode}\n{block.text}"
                 f"--- stdout\n{result.stdout[-2000:]}--- stderr\n{result.stderr[-2000:]}")
        return result

    def get(self, path, token=None, body=None, method=None, content_type=None):
        request = urllib.request.Request(f"http://{self.address}{path}", data=body, method=method)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if content_type:
            request.add_header("Content-Type", content_type)
        with urllib.request.urlopen(request, timeout=60) as answer:
            data = answer.read()
            return json.loads(data) if data else None

    def close(self):
        self.files.shutdown()
        self.server.terminate()
        self.server.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------- JSON shapes

def parse_shape(text):
    """`{"items":[record…],"next":cursor|null}` → {"items": ["record"], "next": None}.

    An object is a dict of its keys (None when its value is not described further); an array is
    a one-element list of its element's shape; `record` (optionally `record + "matches"`) is
    ("record", extra keys)."""
    tokens = re.findall(r'"[^"]*"|[{}\[\]:,+]|[^"{}\[\]:,+\s]+', text.replace("\\|", "|"))
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def value():
        token = peek()
        if token == "{":
            take()
            keys = {}
            while peek() not in ("}", None):
                key = take()
                if not key.startswith('"'):
                    continue
                keys[key.strip('"')] = value() if peek() == ":" and take() else None
                if peek() == ",":
                    take()
            take()
            return keys
        if token == "[":
            take()
            element = value()
            while peek() not in ("]", None):
                take()
            take()
            return [element]
        if token is not None and token.startswith("record"):
            take()
            extra = []
            while peek() == "+":
                take()
                extra.append(take().strip('"…'))
            return ("record", extra)
        while peek() not in (",", "}", "]", None):
            take()
        return None

    return value()


def compare(shape, actual, where, path, record_keys):
    if isinstance(shape, tuple):
        shape = {key: None for key in record_keys + shape[1]}
    if isinstance(shape, dict):
        if not isinstance(actual, dict):
            fail(where, f"{path or 'the answer'} is documented as an object, is {json.dumps(actual)[:80]}")
            return
        if set(shape) != set(actual):
            missing, extra = sorted(set(shape) - set(actual)), sorted(set(actual) - set(shape))
            fail(where, f"{path or 'the answer'}: documented keys {sorted(shape)}; "
                 f"not in the answer {missing}, not documented {extra}")
        for key, inner in shape.items():
            if inner is not None and key in actual:
                compare(inner, actual[key], where, f"{path}.{key}".lstrip("."), record_keys)
    elif isinstance(shape, list) and shape[0] is not None:
        if not isinstance(actual, list):
            fail(where, f"{path} is documented as an array")
            return
        for element in actual[:3]:
            compare(shape[0], element, where, f"{path}[]", record_keys)


def record_keys_from(page):
    text = page.read_text(encoding="utf-8")
    start = text.index("A **record** always has every key:")
    sentence = text[start:text.index("`fields`", start) + len("`fields`")]
    return re.findall(r"`([a-z]+)`", sentence)


def check_api_shapes(scratch, api_page, record_keys, openapi):
    token = subprocess.run([scratch.binary, "user", "add", "docs-admin", "--admin", "--password-stdin"],
                           cwd=scratch.dir, input="docs-password\n", capture_output=True, text=True,
                           check=True).stdout.strip()
    category = scratch.get("/api/v1/catalogs/cookbook/categories")["categories"][0]["name"]
    values = {"id": "cookbook", "catalog": "cookbook", "item": "r01", "category": urllib.parse.quote(category),
              "field": "complexity"}
    scratch.get("/api/v1/favorites/cookbook/r01", token=token, method="PUT", body=b"")
    documented = set()
    for number, line in enumerate(api_page.read_text(encoding="utf-8").split("\n"), 1):
        row = re.match(r"^\| `((?:GET|POST|PUT|PATCH|DELETE)[^`]*)`.*?\| (.*) \|$", line)
        if not row:
            continue
        where = f"{api_page.relative_to(ROOT)}:{number}"
        for path in re.findall(r"`(?:[A-Z]+ )?(/[^\s?`]*)", line):
            documented.add(path)
            if path not in openapi["paths"]:
                fail(where, f"{path} is not in the OpenAPI document")
        if " " not in row.group(1):
            continue
        method, target = row.group(1).split(" ", 1)
        shape_text = re.match(r"`(\{[^`]*\}|\[\{[^`]*\}\]|record)`", row.group(2))
        if not shape_text or method not in ("GET", "POST"):
            continue
        path = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], target.split("?")[0])
        query = re.findall(r"[?&](\w+)=([\w-]*)", target.split(" ")[0])
        query = "&".join(f"{k}={'0' if v == 'N' else v}" for k, v in query if v and v != "CURSOR")
        if "/search" in path:
            query = "q=paprik"
        try:
            if path == "/api/v1/signin":
                answer = scratch.get(path, method="POST", content_type="application/json",
                                     body=json.dumps({"name": "docs-admin", "password": "docs-password"}).encode())
            elif path.endswith("/import"):
                path = path.replace("/cookbook/", "/pantry-api/")
                answer = scratch.get(path + "?locale=hu", token=token, method="POST", content_type="text/csv",
                                     body=(scratch.dir / "docs" / "examples" / "pantry.csv").read_bytes())
            else:
                answer = scratch.get(path + (f"?{query}" if query else ""), token=token)
        except urllib.error.HTTPError as error:
            fail(where, f"{method} {path}: HTTP {error.code}")
            continue
        compare(parse_shape(shape_text.group(1)), answer, where, "", record_keys)
    text = api_page.read_text(encoding="utf-8")
    error_shape = re.search(r"Errors are `(\{[^`]*\})`", text)
    if not error_shape:
        fail(str(api_page.relative_to(ROOT)), "the error shape (Errors are `{…}`) is not documented")
    else:
        try:
            scratch.get("/api/v1/catalogs/no-such-catalog")
            fail(str(api_page.relative_to(ROOT)), "an unknown catalog answered 200")
        except urllib.error.HTTPError as error:
            compare(parse_shape(error_shape.group(1)), json.loads(error.read()),
                    f"{api_page.relative_to(ROOT)} (errors)", "", record_keys)
    for path in openapi["paths"]:
        if path not in documented and f"`{path}" not in text and f" {path}" not in text:
            fail(str(api_page.relative_to(ROOT)), f"the OpenAPI document's {path} is not documented")


def check_cli_shapes(scratch, cli_page, record_keys):
    for number, line in enumerate(cli_page.read_text(encoding="utf-8").split("\n"), 1):
        item = re.match(r"^- `(catalog [^`]*--json[^`]*)` → `(\{[^`]*\}|record)`", line)
        if not item:
            continue
        where = f"{cli_page.relative_to(ROOT)}:{number}"
        command = scratch.localize(item.group(1))
        result = subprocess.run(["bash", "-c", command], cwd=scratch.dir, env=scratch.env,
                                capture_output=True, text=True)
        if result.returncode != 0:
            fail(where, f"{command}: exit status {result.returncode}: {result.stderr.strip()}")
            continue
        compare(parse_shape(item.group(2)), json.loads(result.stdout), where, "", record_keys)


# ---------------------------------------------------------------------------- links

def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def check_links(page):
    fenced = False
    for number, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", line) + re.findall(r'src="([^"]+)"', line):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            if not path.exists():
                fail(f"{page.relative_to(ROOT)}:{number}", f"the link {target} leads nowhere")
            elif anchor and path.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.M)
                if anchor not in {slug(h) for h in headings}:
                    fail(f"{page.relative_to(ROOT)}:{number}", f"the link {target}: no such heading")


# ---------------------------------------------------------------------------- options

def command_uses(text):
    """(command, options) for every `catalog COMMAND …` in a line of shell or an inline span."""
    for match in re.finditer(r"(?<![\w/-])catalog ((?:user )?[a-z][a-z-]*)((?:[^|;&)#\n]|\\\n)*)", text):
        command = match.group(1)
        if command.split()[0] not in COMMANDS:
            continue
        yield command.split()[0], re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", match.group(2))


def main():
    binary = str(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / ".build/debug/catalog").resolve())
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    helps = {command: help_text(binary, command) for command in COMMANDS}
    global_options = options_of(help_text(binary, "")) | {"--help"}
    every_option = set().union(global_options, *(options_of(output) for output in helps.values()))
    openapi = json.loads((ROOT / "Sources/CatalogServer/API/openapi.json").read_text(encoding="utf-8"))
    record_keys = record_keys_from(ROOT / "docs" / "cli.md")
    blocks_run = 0

    for page in pages:
        blocks = read_blocks(page)
        check_links(page)
        for block in blocks:
            if block.usage:
                expected = usage_lines(help_text(binary, block.usage))
                if block.text != expected:
                    fail(block.where, f"the synopsis differs from catalog {block.usage} --help:\n"
                         f"documented:\n{block.text}--help:\n{expected}")
        uses = [(f"{block.where}", block.text) for block in blocks if block.lang in ("sh", "")]
        uses += [(f"{page.relative_to(ROOT)}:{n}", span) for n, span in inline_code(page)]
        for where, snippet in uses:
            for command, options in command_uses(snippet):
                for option in options:
                    if option not in options_of(helps[command]) | global_options:
                        fail(where, f"catalog {command} has no option {option} (catalog {command} --help)")
        if page.name not in OTHER_TOOLS_PAGES:
            for number, span in inline_code(page):
                option = re.match(r"--[a-z][a-z0-9-]*", span)
                if option and option.group(0) not in every_option:
                    fail(f"{page.relative_to(ROOT)}:{number}", f"no command has the option {option.group(0)}")
        runnable = [block for block in blocks if block.runnable]
        checks_api = page.name == "api.md"
        checks_cli = page.name == "cli.md"
        if not runnable and not checks_api and not checks_cli:
            continue
        scratch = Scratch(binary)
        try:
            for block in runnable:
                scratch.run_block(block)
                blocks_run += 1
            if checks_api:
                check_api_shapes(scratch, page, record_keys, openapi)
            if checks_cli:
                check_cli_shapes(scratch, page, record_keys)
        finally:
            scratch.close()
        print(f"ok   {page.relative_to(ROOT)}: {len(runnable)} blocks run", flush=True)

    docs_text = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))
    for command, output in helps.items():
        for option in sorted(options_of(output) - global_options):
            if option not in docs_text:
                fail("docs/", f"catalog {command} {option} (in --help) is documented nowhere in docs/")

    if FAILURES:
        print(f"docs-tests: {len(FAILURES)} failures ({blocks_run} blocks run)")
        return 1
    print(f"docs-tests: ok, {blocks_run} blocks run, shapes, synopses and options checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
