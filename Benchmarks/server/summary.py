#!/usr/bin/env python3
"""The summary table of server-bench.sh, from its results file.

    summary.py RESULTS          the table
    summary.py --line NAME RESULTS   one line for the run NAME, printed as it finishes

RESULTS holds one line per record, `KIND key=value …` (`database PATH` for the file): `meta`, `item`, the wrk runs
(`item_catalog`, `item_nginx`, `search_catalog`, `search_datasette`, `filtered_catalog`, `filtered_catalog_one`, `filtered_datasette`,
`soak`, `search_quiet`, `search_edits`, `search_after`, from report.lua), `edits` (edit-load.py's changes during search_edits),
`rss` (peaks of /proc/PID/status in kB), `stop` or `crash`, `end` (the load average). Each wrk run carries other_cpu_pct: the share of the
CPU other processes used meanwhile (cpu.py).
"""
import sys

RUN_TITLES = {
    "item_catalog": "item by id, catalog",
    "item_nginx": "item by id, nginx",
    "search_catalog": "search, catalog",
    "search_datasette": "search, Datasette",
    "filtered_catalog": "filtered search, catalog",
    "filtered_catalog_one": "filtered search, catalog, one client",
    "filtered_datasette": "filtered search, Datasette",
    "soak": "soak, catalog",
    "search_edits": "search while records change, catalog (a copy)",
    "search_quiet": "search without changes, catalog (the copy)",
    "search_after": "search after the changes, catalog (the copy)",
}


def read(path):
    records = {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            kind, _, rest = line.strip().partition(" ")
            if not kind:
                continue
            if kind == "database":
                records[kind] = {"path": rest}
                continue
            fields = {}
            for pair in rest.split(" "):
                key, _, value = pair.partition("=")
                if key:
                    fields[key] = value
            records[kind] = fields
    return records


def number(run, key):
    return float(run.get(key, 0) or 0)


def rate(run):
    seconds = number(run, "duration_us") / 1e6
    return number(run, "requests") / seconds if seconds > 0 else 0.0


def ms(microseconds):
    value = microseconds / 1000
    if value < 10:
        return f"{value:.2f} ms"
    if value < 100:
        return f"{value:.1f} ms"
    return f"{value:,.0f} ms"


def errors(run):
    """(total, description): socket errors, non-2xx answers and timeouts."""
    socket = sum(int(number(run, key)) for key in ("connect_errors", "read_errors", "write_errors"))
    timeouts = int(number(run, "timeouts"))
    non2xx = int(number(run, "non2xx"))
    if non2xx >= 0:
        bad_status, status_label = non2xx, "non-2xx"
    else:
        bad_status, status_label = int(number(run, "status_errors")), "status ≥ 400"
    total = socket + timeouts + bad_status
    description = f"{socket} socket, {bad_status} {status_label}, {timeouts} timeouts"
    if socket:
        description += (
            f" (connect {int(number(run, 'connect_errors'))}, read {int(number(run, 'read_errors'))},"
            f" write {int(number(run, 'write_errors'))})"
        )
    return total, description


def figures(run):
    return f"{rate(run):,.0f} req/s  p50 {ms(number(run, 'p50_us'))}  p99 {ms(number(run, 'p99_us'))}"


def run_line(name, run):
    total, description = errors(run)
    return (
        f"{RUN_TITLES.get(name, name)}: {figures(run)}  p90 {ms(number(run, 'p90_us'))}"
        f"  max {ms(number(run, 'max_us'))}; {int(number(run, 'requests')):,} requests in"
        f" {number(run, 'duration_us') / 1e6:.1f} s; errors: {description}"
        + (f"; other processes used {int(number(run, 'other_cpu_pct'))} % of the CPU" if "other_cpu_pct" in run else "")
    )


def verdict(met):
    return "met" if met else "MISSED"


def table(records):
    meta = records.get("meta", {})
    rows = []  # (figure, catalog, peer, ratio and goals)

    item = records.get("item", {})
    ours, nginx = records.get("item_catalog"), records.get("item_nginx")
    if ours or nginx:
        figure = f"item by id ({item.get('bytes', '?')} B JSON, -c64)"
        ratio = "-"
        if ours and nginx and rate(nginx) > 0:
            value = rate(ours) / rate(nginx)
            ratio = f"{value:.2f}× nginx (goal ≥ 0.8×) {verdict(value >= 0.8)}"
        rows.append((figure, figures(ours) if ours else "not run", "nginx " + figures(nginx) if nginx else "-", ratio))

    ours, peer = records.get("search_catalog"), records.get("search_datasette")
    if ours or peer:
        figure = (
            f"as-you-type search, typo tolerance on ({meta.get('prefixes', '?')} queries,"
            f" {meta.get('distinct', '?')} distinct: {meta.get('single', '?')} word prefixes,"
            f" {meta.get('pair', '?')} two-word, {meta.get('typo', '?')} with a typo)"
        )
        goals = "-"
        if ours:
            own = rate(ours) >= 3000 and number(ours, "p99_us") <= 15000
            goals = f"ours ≥ 3,000 req/s, p99 ≤ 15 ms {verdict(own)}"
            if peer and rate(peer) > 0:
                value = rate(ours) / rate(peer)
                goals = f"{value:,.{0 if value >= 100 else 1}f}× Datasette (goal ≥ 100×) {verdict(value >= 100)}; " + goals
        rows.append(
            (figure, figures(ours) if ours else "not run", "Datasette " + figures(peer) if peer else "-", goals)
        )

    ours, peer = records.get("filtered_catalog"), records.get("filtered_datasette")
    if ours or peer:
        figure = "the same queries with filter=price 10..50 and facets=category (Datasette: FTS5 MATCH, WHERE, GROUP BY)"
        goals = "-"
        if ours:
            goals = f"p99 ≤ 15 ms {verdict(number(ours, 'p99_us') <= 15000)}"
            if peer and rate(peer) > 0:
                goals = f"{rate(ours) / rate(peer):,.1f}× Datasette; " + goals
        rows.append(
            (figure, figures(ours) if ours else "not run", "Datasette " + figures(peer) if peer else "-", goals)
        )
    one = records.get("filtered_catalog_one")
    if one:
        # The p99 of one request, with no queue of other connections in front of it.
        rows.append(
            (
                "the same filtered queries, one keep-alive client",
                figures(one),
                "-",
                f"p99 ≤ 15 ms {verdict(number(one, 'p99_us') <= 15000)}",
            )
        )

    soak, rss = records.get("soak"), records.get("rss")
    if soak:
        total, _ = errors(soak)
        peak_mb = number(rss or {}, "vmhwm_kb") / 1024
        ours_text = f"{int(number(soak, 'requests')):,} requests, {rate(soak):,.0f} req/s, {total} errors"
        if rss:
            anonymous_mb = number(rss, "rssanon_kb") / 1024
            ours_text += f", peak RSS {peak_mb:,.0f} MB ({anonymous_mb:,.0f} MB anonymous)"
            goals = f"0 errors {verdict(total == 0)}"
        else:
            ours_text += ", no RSS samples"
            goals = f"0 errors {verdict(total == 0)}; peak RSS not measured"
        rows.append(("soak (-c100, mixed)", ours_text, "-", goals))
    busy, quiet, edits = records.get("search_edits"), records.get("search_quiet"), records.get("edits")
    if busy and quiet and edits:
        # The searchers' cost of steady changes: the same searches with and without them.
        value = rate(busy) / rate(quiet) if rate(quiet) > 0 else 0.0
        rows.append(
            (
                f"the same searches while {number(edits, 'rate'):,.0f} records change a second (PUT, a copy of the file)",
                f"{figures(busy)}; the changes: {int(number(edits, 'sent')):,} in {number(edits, 'seconds'):.0f} s,"
                f" p50 {number(edits, 'p50_ms'):.1f} ms, p99 {number(edits, 'p99_ms'):.1f} ms,"
                f" {int(number(edits, 'errors'))} errors",
                "without changes " + figures(quiet),
                f"{value:.2f}× the searches a second (goal ≥ 0.90×) {verdict(value >= 0.9 and number(edits, 'errors') == 0)}",
            )
        )
    after = records.get("search_after")
    if after and quiet:
        value = rate(after) / rate(quiet) if rate(quiet) > 0 else 0.0
        rows.append(
            (
                "the same searches right after those changes (segments not yet merged)",
                figures(after),
                "before the changes " + figures(quiet),
                f"{value:.2f}× the searches a second",
            )
        )
    if rss:
        anonymous_mb = number(rss, "rssanon_kb") / 1024
        rows.append(
            (
                f"server memory at {int(number(meta, 'records')):,} records (peak over the run)",
                f"anonymous (RssAnon) {anonymous_mb:,.1f} MB; mapped file (RssFile) {number(rss, 'rssfile_kb') / 1024:,.1f} MB"
                f" apart; VmHWM {number(rss, 'vmhwm_kb') / 1024:,.1f} MB",
                "-",
                f"anonymous ≤ 100 MB {verdict(anonymous_mb <= 100)}",
            )
        )

    print(
        f"Server benchmarks: catalog \"{meta.get('catalog', '?')}\", {int(number(meta, 'records')):,} records,"
        f" {records.get('database', {}).get('path', '?')}; {meta.get('cores', '?')} cores; nginx {meta.get('nginx', '?')}, Datasette {meta.get('datasette', '?')}"
    )
    headers = ("figure", "catalog serve", "peer, same run", "ratio and goals")
    widths = [max(len(row[column]) for row in rows + [headers]) for column in range(3)]
    for row in [headers] + rows:
        print(" | ".join(cell.ljust(widths[i]) if i < 3 else cell for i, cell in enumerate(row)).rstrip())

    print()
    for name in RUN_TITLES:
        if name in records:
            print(run_line(name, records[name]))
    if rss:
        print(
            f"catalog serve memory, peaks over {int(number(rss, 'samples'))} samples from its start to the end of the soak:"
            f" VmHWM {number(rss, 'vmhwm_kb') / 1024:,.1f} MB (whole run), VmRSS {number(rss, 'vmrss_kb') / 1024:,.1f} MB"
            f" = anonymous {number(rss, 'rssanon_kb') / 1024:,.1f} MB + mapped file {number(rss, 'rssfile_kb') / 1024:,.1f} MB"
        )
    if "stop" in records:
        stop = records["stop"]
        if stop.get("status") == "running":
            print("SIGTERM: catalog serve had not stopped after 10 s")
        else:
            print(f"SIGTERM: catalog serve stopped in {stop.get('ms', '?')} ms, exit status {stop.get('status', '?')}")
    if "crash" in records:
        print(f"catalog serve EXITED during the run (status {records['crash'].get('status', '?')})")
    busy = {name: int(number(records[name], "other_cpu_pct")) for name in RUN_TITLES if name in records}
    if any(share >= 10 for share in busy.values()):
        print(
            "Note: other processes (builds, other jobs) used part of the CPU during the runs ("
            + ", ".join(f"{RUN_TITLES[name]} {share} %" for name, share in busy.items())
            + f"; load average {number(meta, 'load'):.2f} at the start, {number(records.get('end', {}), 'load'):.2f}"
            " at the end): the figures are lower than on a quiet machine, the ratios less reliable."
        )
    if rss and number(rss, "rssfile_kb") > number(rss, "rssanon_kb"):
        print(
            "Note: mapped-file pages are the database read through SQLite's mmap: clean page cache the kernel"
            " can drop, counted in RSS while mapped."
        )
    if meta.get("peers_only") == "1":
        print("(--peers-only: the server was not measured)")


def main():
    if sys.argv[1:2] == ["--line"]:
        name, path = sys.argv[2], sys.argv[3]
        print("  " + run_line(name, read(path)[name]))
    else:
        table(read(sys.argv[1]))


if __name__ == "__main__":
    main()
