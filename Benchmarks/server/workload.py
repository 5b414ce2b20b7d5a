#!/usr/bin/env python3
"""Request lists for server-bench.sh, taken from the catalog's own records.

    workload.py DB CATALOG_ID DATASETTE_DB_NAME OUTDIR

Writes into OUTDIR (one URL path a line):
  words.txt          the words picked from item titles, as they appear
  search-ours.txt    /api/v1/catalogs/ID/search?q=PREFIX&limit=50, as a person types, lower case:
                     every word typed letter by letter ("k", "ka", "kaf", ...), two-word queries
                     from one title with the second word typed letter by letter ("blue g",
                     "blue gu", ...), and words of 5+ letters with one typo (two letters swapped or
                     one replaced) typed from their fifth letter on; each query once, up to
                     SEARCH_LINES (40,000) of them, so the response cache cannot stand in
  search-warm.txt    other queries of the same kinds, for the warm-up (none of search-ours.txt)
  search-peer.txt    the same prefixes for Datasette's canned query: FTS5 syntax "prefix"*,
                     folded the way the index is (the full-text tables hold folded words)
  filtered-ours.txt  the same searches with filter=price 10..50 and facets=category
  filtered-peer.txt  the same for Datasette's canned query search_filtered (MATCH, WHERE on the
                     price, the categories of every match counted)
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
SEARCH_LINES = 40000
TYPO_WORDS = 2000
WARM_LINES = 5000
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
    row = connection.execute("SELECT version, item_count FROM catalogs WHERE id = ?", (catalog_id,)).fetchone()
    if row is None:
        sys.exit(f"workload.py: no catalog {catalog_id!r} in {database}")
    version, count = row
    low, high = version << 32, (version + 1) << 32

    # Titles spread evenly over the catalog (items.key = the catalog's version << 32 + document number).
    step = max(1, count // 20000)
    titles = [
        title
        for (title,) in connection.execute(
            "SELECT title FROM items WHERE key >= ? AND key < ? AND (key - ?) % ? = 0", (low, high, low, step)
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

    # Typing sessions: every word of the titles typed letter by letter, typo'd words, then two-word
    # queries; each query text once.
    random_typos = random.Random(2)
    typed_queries, warm_queries, seen_queries = [], [], set()
    counts = {"single": 0, "typo": 0, "pair": 0}

    def add(text, kind):
        if text in seen_queries:
            return
        seen_queries.add(text)
        if len(typed_queries) < SEARCH_LINES:
            typed_queries.append(text)
            counts[kind] += 1
        elif len(warm_queries) < WARM_LINES:
            warm_queries.append(text)  # the warm-up's own queries, not measured

    for word in candidates:
        for length in range(1, min(len(word), LONGEST_PREFIX) + 1):
            add(word[:length], "single")
    for word in [w for w in candidates if len(w) >= 5][:TYPO_WORDS]:
        letters = list(word)
        position = random_typos.randrange(1, len(letters) - 1)
        if random_typos.random() < 0.5:
            letters[position], letters[position + 1] = letters[position + 1], letters[position]
        else:
            letters[position] = random_typos.choice([c for c in "aeiourstnl" if c != letters[position]])
        typo = "".join(letters)
        for length in range(5, min(len(typo), LONGEST_PREFIX) + 1):
            add(typo[:length], "typo")
    shuffled_titles = list(titles)
    random.Random(3).shuffle(shuffled_titles)
    for title in shuffled_titles:
        title_words = [w.lower() for w in re.findall(r"[^\W_]+", title) if w.isalpha()]
        for first, second in zip(title_words, title_words[1:]):
            for length in range(1, min(len(second), LONGEST_PREFIX) + 1):
                add(f"{first} {second[:length]}", "pair")
        if len(warm_queries) >= WARM_LINES:
            break

    ours, peer, filtered_ours, filtered_peer = [], [], [], []
    for typed in typed_queries:
        ours.append(f"/api/v1/catalogs/{quote(catalog_id)}/search?q={quote(typed)}&limit=50")
        filtered_ours.append(ours[-1] + "&filter=" + quote("price 10..50") + "&facets=category")
        parts = fold(typed).split()
        fts = " ".join('"' + part.replace('"', '""') + '"' for part in parts) + "*"
        peer.append(f"/{quote(datasette_name)}/search.json?q={quote(fts)}&_shape=objects")
        filtered_peer.append(f"/{quote(datasette_name)}/search_filtered.json?q={quote(fts)}&_shape=objects")

    id_step = max(1, count // ITEMS)
    ids = [
        item_id
        for (item_id,) in connection.execute(
            "SELECT id FROM items WHERE key >= ? AND key < ? AND (key - ?) % ? = ? ORDER BY key",
            (low, high, low, id_step, 7 % id_step),
        )
    ]
    middle = connection.execute(
        "SELECT id FROM items WHERE key >= ? AND key < ? ORDER BY key LIMIT 1 OFFSET ?", (low, high, count // 2)
    ).fetchone()
    if not ids or middle is None:
        sys.exit("workload.py: no items in the catalog")

    def write(name, lines):
        with open(f"{outdir}/{name}", "w", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n")

    write("words.txt", words)
    write("search-ours.txt", ours)
    search_path = f"/api/v1/catalogs/{quote(catalog_id)}/search?limit=50&q="
    write("search-warm.txt", [search_path + quote(typed) for typed in warm_queries] or ours[::-1])
    write("search-peer.txt", peer)
    write("filtered-ours.txt", filtered_ours)
    write("filtered-peer.txt", filtered_peer)
    write("items-ours.txt", [f"/api/v1/catalogs/{quote(catalog_id)}/items/{quote(i, safe='')}" for i in ids])
    write("item-id.txt", [middle[0]])
    print(
        f"records={count} words={len(candidates)} prefixes={len(ours)} distinct={len(set(ours))} items={len(ids)}"
        f" single={counts['single']} typo={counts['typo']} pair={counts['pair']}"
    )


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
