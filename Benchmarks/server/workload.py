#!/usr/bin/env python3
"""Request lists for server-bench.sh, taken from the catalog's own records.

    workload.py DB CATALOG_ID DATASETTE_DB_NAME OUTDIR

Writes into OUTDIR (one URL path a line):
  words.txt          the words picked from item titles, as they appear
  search-ours.txt    /api/v1/catalogs/ID/search?q=PREFIX&limit=50, each word typed letter by
                     letter ("k", "ka", "kaf", ...), lower case as a person types it
  search-peer.txt    the same prefixes for Datasette's canned query: FTS5 syntax "prefix"*,
                     folded the way the index is (the full-text tables hold folded words)
  items-ours.txt     /api/v1/catalogs/ID/items/ITEM for ids spread over the catalog
  item-id.txt        one id in the middle of the catalog, for the single-item benchmark
Prints the number of records, words and prefixes.

    workload.py --pages BASE_URL CATALOG_ID OUTDIR

Follows the catalog's item pages (limit 50, each page's `next` cursor), writing pages.txt:
pages from the start of the catalog and from the start of each section.

    workload.py --mix OUTDIR

Writes soak.txt: search, item, search, item, page, … (40 % search, 40 % items, 20 % pages).
"""
import json
import random
import re
import sqlite3
import sys
import unicodedata
import urllib.request
from urllib.parse import quote, urlsplit

WORDS = 400
ITEMS = 2000
LONGEST_PREFIX = 12
PAGES = 200
SOAK_LINES = 10000

# Letters the catalog folds that Unicode decomposition leaves alone (TextFolding.swift).
EXTRA_FOLDS = {"ø": "o", "ł": "l", "đ": "d", "æ": "ae", "œ": "oe", "þ": "th", "ı": "i", "ß": "ss"}


def fold(text):
    """Lower case without diacritics, close to the catalog's TextFolding."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    kept = "".join(c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me"))
    return "".join(EXTRA_FOLDS.get(c, c) for c in kept)


def main():
    database, catalog_id, datasette_name, outdir = sys.argv[1:5]
    connection = sqlite3.connect(f"file:{quote(database)}?mode=ro", uri=True)
    row = connection.execute("SELECT number, item_count FROM catalogs WHERE id = ?", (catalog_id,)).fetchone()
    if row is None:
        sys.exit(f"workload.py: no catalog {catalog_id!r} in {database}")
    number, count = row
    low, high = number << 32, (number + 1) << 32

    # Titles spread evenly over the catalog (ord = catalog number << 32 + position).
    step = max(1, count // 20000)
    titles = [
        title
        for (title,) in connection.execute(
            "SELECT title FROM items WHERE ord >= ? AND ord < ? AND (ord - ?) % ? = 0", (low, high, low, step)
        )
    ]
    seen = set()
    candidates = []
    for title in titles:
        for word in re.findall(r"[^\W_]+", title):
            word = word.lower()
            if len(word) >= 2 and word.isalpha() and fold(word) not in seen:
                seen.add(fold(word))
                candidates.append(word)
    random.Random(1).shuffle(candidates)
    words = candidates[:WORDS]
    if not words:
        sys.exit("workload.py: no words in the item titles")

    ours, peer = [], []
    for word in words:
        for length in range(1, min(len(word), LONGEST_PREFIX) + 1):
            typed = word[:length]
            ours.append(f"/api/v1/catalogs/{quote(catalog_id)}/search?q={quote(typed)}&limit=50")
            fts = '"' + fold(typed).replace('"', '""') + '"*'
            peer.append(f"/{quote(datasette_name)}/search.json?q={quote(fts)}&_shape=objects")

    id_step = max(1, count // ITEMS)
    ids = [
        item_id
        for (item_id,) in connection.execute(
            "SELECT id FROM items WHERE ord >= ? AND ord < ? AND (ord - ?) % ? = 7 ORDER BY ord",
            (low, high, low, id_step),
        )
    ]
    middle = connection.execute("SELECT id FROM items WHERE ord = ?", (low + count // 2,)).fetchone()
    if not ids or middle is None:
        sys.exit("workload.py: no items in the catalog")

    def write(name, lines):
        with open(f"{outdir}/{name}", "w", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n")

    write("words.txt", words)
    write("search-ours.txt", ours)
    write("search-peer.txt", peer)
    write("items-ours.txt", [f"/api/v1/catalogs/{quote(catalog_id)}/items/{quote(i, safe='')}" for i in ids])
    write("item-id.txt", [middle[0]])
    print(f"records={count} words={len(words)} prefixes={len(ours)} distinct={len(set(ours))} items={len(ids)}")


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def next_path(page, first_path):
    """The path of the page after `page` (its `next` cursor), or None at the end."""
    value = page.get("next")
    if not isinstance(value, str) or not value:
        return None
    if value.startswith("http://") or value.startswith("https://"):
        parts = urlsplit(value)
        return parts.path + ("?" + parts.query if parts.query else "")
    if value.startswith("/"):
        return value
    return f"{first_path}&after={quote(value, safe='')}"


def follow(base, first, count):
    """The paths of up to `count` pages from `first` on, following each page's cursor."""
    paths = []
    path = first
    while path is not None and len(paths) < count:
        paths.append(path)
        path = next_path(fetch_json(base + path), first)
    return paths


def pages(base, catalog_id, outdir):
    """Pages from the start of the catalog, and from the start of each section (deep pages)."""
    root = f"/api/v1/catalogs/{quote(catalog_id)}"
    paths = follow(base, f"{root}/items?limit=50", PAGES // 2)
    sections = fetch_json(f"{base}{root}/sections").get("sections", [])
    labels = [section["label"] for section in sections if section.get("count", 0) > 0]
    per_section = max(1, (PAGES - len(paths)) // max(1, len(labels)))
    for label in labels:
        paths += follow(base, f"{root}/items?section={quote(label, safe='')}&limit=50", per_section)
    with open(f"{outdir}/pages.txt", "w", encoding="utf-8") as file:
        file.write("\n".join(paths) + "\n")
    print(f"pages={len(paths)}")


def mix(outdir):
    def read(name):
        with open(f"{outdir}/{name}", encoding="utf-8") as file:
            return [line.rstrip("\n") for line in file if line.strip()]

    lists = {"search": read("search-ours.txt"), "item": read("items-ours.txt"), "page": read("pages.txt")}
    positions = {name: 0 for name in lists}
    pattern = ["search", "item", "search", "item", "page"]
    lines = []
    for index in range(SOAK_LINES):
        name = pattern[index % len(pattern)]
        paths = lists[name]
        lines.append(paths[positions[name] % len(paths)])
        positions[name] += 1
    with open(f"{outdir}/soak.txt", "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pages"]:
        pages(*sys.argv[2:5])
    elif sys.argv[1:2] == ["--mix"]:
        mix(sys.argv[2])
    else:
        main()
