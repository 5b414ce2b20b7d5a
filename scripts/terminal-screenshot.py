#!/usr/bin/env python3
"""Screenshots of `catalog browse` for the README, as SVG: a throwaway `catalog serve` with the demo
catalogs on a loopback port (the terminal tests' harness, Tests/terminal/harness.py), `catalog
browse` in a tmux pane of 80×24 with 24-bit colour, the pane captured with its escapes and drawn
cell by cell: each run of cells in one style one <text>, each run of one background one <rect>,
on a dark terminal (the app's own colours off the list's paper are chosen for a dark one).

    scripts/terminal-screenshot.py [CATALOG_BINARY]      default .build/debug/catalog

Writes docs/screenshots/terminal-list.svg (the Hungarian cookbook's list) and
docs/screenshots/terminal-search.svg (a search for "leves", the soups first, then the recipes of
a similar spelling). Python's standard library and tmux only.
"""

import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "terminal"))

from harness import Pane, Server, columns  # noqa: E402
from screen import Screen, xterm  # noqa: E402

WIDTH, HEIGHT = 80, 24
CELL_WIDTH, LINE_HEIGHT, FONT_SIZE, PADDING = 8.4, 18, 14, 12
FOREGROUND, BACKGROUND = (216, 216, 216), (28, 28, 30)
# The theme's first 16 colours (xterm's defaults).
ANSI = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255)]


def rgb(color, default):
    """A cell's colour as the terminal draws it."""
    if color is None:
        return default
    if isinstance(color, int):
        return ANSI[color] if color < 16 else xterm(color)
    return color


def colors(style):
    """A cell's foreground and background, reverse video applied."""
    foreground = rgb(style.foreground, FOREGROUND)
    background = rgb(style.background, BACKGROUND)
    return (background, foreground) if style.reverse else (foreground, background)


def narrow(cell):
    """Whether a cell holds a character of one column (not a wide one, nor the right half of one)."""
    return cell.text != "" and columns(cell.text) == 1


def text_style(cell):
    """What a cell's text is drawn with: its colour, bold, underline."""
    return (colors(cell.style)[0], cell.style.bold, cell.style.underline)


def hex_color(color):
    return "#%02x%02x%02x" % color


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(screen, title):
    """The screen as an SVG of monospace text on its cells' backgrounds."""
    classes = {}

    def fill(color):
        if color not in classes:
            classes[color] = f"c{len(classes)}"
        return classes[color]

    rects, texts = [], []
    for number, cells in enumerate(screen.rows[:HEIGHT]):
        top = PADDING + number * LINE_HEIGHT
        baseline = top + LINE_HEIGHT * 0.75
        # Backgrounds: one rect per run of one colour that is not the terminal's.
        column = 0
        while column < len(cells):
            background = colors(cells[column].style)[1]
            end = column
            while end < len(cells) and colors(cells[end].style)[1] == background:
                end += 1
            if background != BACKGROUND:
                rects.append(f'<rect x="{PADDING + column * CELL_WIDTH:g}" y="{top}" width="'
                             f'{(end - column) * CELL_WIDTH:g}" height="{LINE_HEIGHT}" class="{fill(background)}"/>')
            column = end
        # Text: one <text> per run of narrow characters in one style; a wide character on its own.
        column = 0
        while column < len(cells):
            cell = cells[column]
            key = text_style(cell)
            end = column + 1
            if narrow(cell):
                while end < len(cells) and narrow(cells[end]) and text_style(cells[end]) == key:
                    end += 1
            text = "".join(part.text for part in cells[column:end])
            stripped = text.rstrip(" ")
            leading = len(stripped) - len(stripped.lstrip(" "))
            if stripped.strip():
                names = [fill(key[0])] + (["b"] if key[1] else []) + (["u"] if key[2] else [])
                start = column + leading
                span = columns(stripped[leading:])
                texts.append(f'<text x="{PADDING + start * CELL_WIDTH:g}" y="{baseline:g}" class="{" ".join(names)}"'
                             f' textLength="{span * CELL_WIDTH:g}">{escape(stripped[leading:])}</text>')
            column = end
    width = 2 * PADDING + WIDTH * CELL_WIDTH
    height = 2 * PADDING + HEIGHT * LINE_HEIGHT
    style = "".join(f".{name}{{fill:{hex_color(color)}}}" for color, name in classes.items())
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{escape(title)}">\n'
        f"<title>{escape(title)}</title>\n"
        f"<style>text{{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:{FONT_SIZE}px;"
        f"white-space:pre}}.b{{font-weight:bold}}.u{{text-decoration:underline}}{style}</style>\n"
        f'<rect width="100%" height="100%" rx="6" fill="{hex_color(BACKGROUND)}"/>\n'
        + "\n".join(rects) + "\n" + "\n".join(texts) + "\n</svg>\n")


def capture(pane):
    """The pane with its escapes, trailing cells kept (a row's paper runs to the right edge)."""
    return pane.tmux("capture-pane", "-p", "-e", "-N", "-t", pane.name)


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/catalog"))
    if not os.access(binary, os.X_OK):
        sys.exit(f"terminal-screenshot: no catalog binary at {binary} (swift build)")
    output = os.path.join(ROOT, "docs", "screenshots")
    work = tempfile.mkdtemp(prefix="catalog-screenshot-")
    server = Server(work, binary=binary)
    pane = None
    try:
        pane = Pane(f"{binary} browse {server.url} --catalog cookbook", width=WIDTH, height=HEIGHT,
                    environment={"TERM": "xterm-256color", "COLORTERM": "truecolor"})
        pane.wait_until(lambda lines: "● élő" in lines[-1] and lines[-2].strip(), "the list, live")
        shots = {"terminal-list.svg": (capture(pane), "catalog browse: the Hungarian cookbook's recipes by their "
                                                     "index letters, every other row tinted")}
        pane.type("/")
        pane.type("leves")
        pane.wait_for("Hasonló írásmód")
        pane.wait_until(lambda lines: "10 találat" in lines[-1], "the search's results")
        shots["terminal-search.svg"] = (capture(pane), "catalog browse: a search for “leves”, the soups with the "
                                                       "word highlighted, then recipes of a similar spelling")
        for name, (captured, title) in shots.items():
            path = os.path.join(output, name)
            with open(path, "w", encoding="utf-8") as out:
                out.write(svg(Screen(captured), title))
            print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes")
    finally:
        if pane:
            pane.close()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(os.path.join(tempfile.gettempdir(), f"catalog-terminal-state-{os.getpid()}"), ignore_errors=True)


if __name__ == "__main__":
    main()
