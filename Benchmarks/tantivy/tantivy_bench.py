#!/usr/bin/env python3
"""Tantivy beside catalog's in-process search: the same records, the same as-you-type queries.

    tantivy_bench.py RECORDS_JSON QUERIES_TSV INDEX_DIR RESULT_JSON

RECORDS_JSON is `catalog export --format json` of the benchmark catalog (id, title, description
and categories are read from each record). QUERIES_TSV is written by catalog-bench: one query a
line, `KIND<TAB>SCOPE<TAB>TEXT`, KIND `warm` (run first, not timed), `query` (timed), or
`filtered` and `sorted` (timed apart: see below), SCOPE a category name or empty. The same text
catalog-bench searches.

Each query, built with tantivy's Query API:
  - every word must match (Occur.Must), on title or description (Occur.Should over both);
  - each word: term_query (BM25-scored), and for a word of 5+ letters fuzzy_term_query with
    distance 1 (9+ letters: 2), transposition_cost_one=True;
  - the last word as a prefix: fuzzy_term_query(prefix=True) with distance 0 below 5 letters,
    1 from 5, 2 from 9 (Tantivy's prefix Levenshtein automaton), plus its term_query for BM25;
  - a scope becomes Must term_query on a raw `category` field holding the record's categories;
  - searcher.search(query, limit=50, count=True): BM25 top 50 and the total (catalog counts too).
`filtered` adds a Must range_query on a fast float `price` field (10 to 50, both included, as
catalog-bench's `price 10..50`) and times, besides the search, searcher.aggregate with a terms
aggregation on the fast `category` field (the category facet); `sorted` is the same with the
hits ordered by price, highest first (order_by_field).
Fuzzy and prefix queries score a constant in Tantivy; exact terms carry the BM25 score.
Text is tokenized with Tokenizer.simple + lowercase + ascii_fold, the query words the same way.

Timed around searcher.search only (time.perf_counter_ns); p50/p99/max printed and written to
RESULT_JSON, with the index build time.
"""
import json
import os
import re
import shutil
import sys
import time
import unicodedata

import tantivy


def line(label, value):
    print("  " + label.ljust(36) + value, flush=True)


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me"))


WORD = re.compile(r"[^\W_]+")
# "tantivy v0.27.0, index_format v7" -> "0.27.0"
VERSION = next((part.strip("v,") for part in tantivy.__version__.split() if part[:2] == "v0" or part[:1].isdigit()), "?")


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, -(-len(sorted_values) * p // 100) - 1))
    return sorted_values[int(index)]


def records_of(path):
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    if isinstance(data, dict):
        for key in ("records", "items"):
            if isinstance(data.get(key), list):
                return data[key]
        return [dict(value, id=key) if isinstance(value, dict) else {"id": key} for key, value in data.items()]
    return data


def text_of(value):
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(text_of(v) for v in value)
    if isinstance(value, dict):
        return " ".join(text_of(v) for v in value.values())
    return str(value)


def main():
    records_path, queries_path, index_dir, result_path = sys.argv[1:5]

    analyzer = (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
        .build()
    )
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("title", stored=False, tokenizer_name="fold")
    builder.add_text_field("description", stored=False, tokenizer_name="fold")
    builder.add_text_field("category", stored=False, fast=True, tokenizer_name="raw", index_option="basic")
    builder.add_float_field("price", stored=False, indexed=True, fast=True)
    schema = builder.build()

    shutil.rmtree(index_dir, ignore_errors=True)
    os.makedirs(index_dir)
    index = tantivy.Index(schema, path=index_dir)
    index.register_tokenizer("fold", analyzer)

    started = time.perf_counter()
    records = records_of(records_path)
    read_seconds = time.perf_counter() - started
    started = time.perf_counter()
    writer = index.writer(heap_size=512_000_000, num_threads=2)
    count = 0
    for record in records:
        categories = record.get("categories") or []
        if isinstance(categories, str):
            categories = [categories]
        fields = dict(
            id=str(record.get("id", "")),
            title=text_of(record.get("title")),
            description=text_of(record.get("description")),
            category=[str(c) for c in categories],
        )
        if isinstance(record.get("price"), (int, float)):
            fields["price"] = float(record["price"])
        writer.add_document(tantivy.Document(**fields))
        count += 1
    del records
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    build_seconds = time.perf_counter() - started
    searcher = index.searcher()
    line(
        "Tantivy index build",
        f"{count} records in {build_seconds:.1f} s ({searcher.num_segments} segments;"
        f" reading the JSON export took {read_seconds:.1f} s)",
    )

    def word_query(field_word, last):
        word = field_word
        distance = 2 if len(word) >= 9 else 1 if len(word) >= 5 else 0
        parts = []
        for field in ("title", "description"):
            parts.append((tantivy.Occur.Should, tantivy.Query.term_query(schema, field, word)))
            if last:
                parts.append(
                    (
                        tantivy.Occur.Should,
                        tantivy.Query.fuzzy_term_query(schema, field, word, distance=distance, prefix=True),
                    )
                )
            elif distance > 0:
                parts.append(
                    (tantivy.Occur.Should, tantivy.Query.fuzzy_term_query(schema, field, word, distance=distance))
                )
        return tantivy.Query.boolean_query(parts)

    def build(scope, text):
        words = WORD.findall(fold(text))
        if not words:
            return None
        musts = [(tantivy.Occur.Must, word_query(w, i == len(words) - 1)) for i, w in enumerate(words)]
        if scope:
            musts.append((tantivy.Occur.Must, tantivy.Query.term_query(schema, "category", scope)))
        return tantivy.Query.boolean_query(musts)

    price_range = tantivy.Query.range_query(schema, "price", tantivy.FieldType.Float, 10.0, 50.0)
    facet = {"categories": {"terms": {"field": "category", "size": 20}}}

    warm, timed, kinds = [], [], {"filtered": [], "sorted": []}
    with open(queries_path, encoding="utf-8") as file:
        for raw in file:
            kind, scope, text = raw.rstrip("\n").split("\t", 2)
            {"warm": warm, "query": timed}.get(kind, kinds.get(kind, [])).append((scope, text))

    for scope, text in warm:
        query = build(scope, text)
        if query is not None:
            searcher.search(query, limit=50, count=True)

    times, totals = [], []
    with_build = []
    for scope, text in timed:
        begun = time.perf_counter_ns()
        query = build(scope, text)
        if query is None:
            continue
        started = time.perf_counter_ns()
        result = searcher.search(query, limit=50, count=True)
        ended = time.perf_counter_ns()
        times.append((ended - started) / 1e6)
        with_build.append((ended - begun) / 1e6)
        totals.append(result.count)
    times.sort()
    with_build.sort()
    p50, p99 = percentile(times, 50), percentile(times, 99)
    scoped = sum(1 for scope, _ in timed if scope)
    line(
        f"Tantivy {VERSION} (BM25 top 50, fuzzy)",
        f"p50 {p50:.2f} ms  p99 {p99:.2f} ms  max {times[-1] if times else 0:.2f} ms"
        f" ({len(times)} queries, {scoped} scoped as a category term; with building the query in Python:"
        f" p50 {percentile(with_build, 50):.2f} ms  p99 {percentile(with_build, 99):.2f} ms)",
    )

    # The same queries in the price range with the category facet, ranked, then by price.
    kind_figures = {}
    for kind, queries in kinds.items():
        kind_times = []
        for scope, text in queries:
            query = build(scope, text)
            if query is None:
                continue
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query), (tantivy.Occur.Must, price_range)])
            started = time.perf_counter_ns()
            if kind == "sorted":
                searcher.search(query, limit=50, count=True, order_by_field="price", order=tantivy.Order.Desc)
            else:
                searcher.search(query, limit=50, count=True)
            searcher.aggregate(query, facet)
            kind_times.append((time.perf_counter_ns() - started) / 1e6)
        if kind_times:
            kind_times.sort()
            kind_figures[kind] = {
                "p50": percentile(kind_times, 50),
                "p99": percentile(kind_times, 99),
                "max": kind_times[-1],
            }
    with open("/proc/self/status", encoding="utf-8") as status:
        peak = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "0")
    line("  (Tantivy process memory)", f"peak RSS {int(peak) // 1024} MB (VmHWM, records loaded from JSON included)")
    with open(result_path, "w", encoding="utf-8") as file:
        json.dump(
            {
                "p50": p50,
                "p99": p99,
                "max": times[-1] if times else 0,
                "version": VERSION,
                "queries": len(times),
                "build_seconds": build_seconds,
                "median_total": percentile(sorted(totals), 50),
                **kind_figures,
            },
            file,
        )


if __name__ == "__main__":
    main()
