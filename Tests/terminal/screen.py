"""A screen captured with `tmux capture-pane -e -p`, read as a terminal draws it: SGR sequences
set and reset the style, every other character is drawn in the style in force, one cell per
column (two for a wide character). Colours as the terminal shows them, and the WCAG 2 contrast
ratio of two colours — the measure of Tests/CatalogTerminalTests/ContrastTests.swift.

Used by test_browse.py and scripts/terminal-screenshot.py. Python's standard library only.
"""

import re
from dataclasses import dataclass, replace

from harness import columns

SGR = re.compile(r"\x1b\[([0-9;:]*)([A-Za-z])")


def xterm(index):
    """The sRGB colour of an xterm 256-colour palette entry (16–255); None for the first 16,
    which the terminal's theme decides."""
    if 16 <= index <= 231:
        levels = [0, 95, 135, 175, 215, 255]
        cube = index - 16
        return (levels[cube // 36], levels[cube // 6 % 6], levels[cube % 6])
    if 232 <= index <= 255:
        gray = 8 + 10 * (index - 232)
        return (gray, gray, gray)
    return None


def luminance(color):
    """WCAG relative luminance of an sRGB colour."""
    def channel(value):
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    red, green, blue = color
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(a, b):
    """The WCAG contrast ratio of two sRGB colours (1…21)."""
    light, dark = max(luminance(a), luminance(b)), min(luminance(a), luminance(b))
    return (light + 0.05) / (dark + 0.05)


# SGR codes that set or clear one attribute of a style: code → (attribute, value).
SGR_ATTRIBUTES = {
    1: ("bold", True), 22: ("bold", False), 4: ("underline", True), 24: ("underline", False),
    7: ("reverse", True), 27: ("reverse", False), 39: ("foreground", None), 49: ("background", None),
}


@dataclass(frozen=True)
class Style:
    """How a cell is drawn. A colour is an (r, g, b) tuple, a palette index (0–15: the theme's
    colours) or None (the terminal's own foreground or background)."""

    foreground: object = None
    background: object = None
    bold: bool = False
    underline: bool = False
    reverse: bool = False

    def rgb(self, which):
        """The foreground's or background's sRGB colour, None when the terminal's theme decides it."""
        color = self.foreground if which == "foreground" else self.background
        if isinstance(color, int):
            return xterm(color)
        return color

    def applying(self, parameters):
        """This style after one SGR sequence's parameters (`1;38;5;16`)."""
        codes = [int(code) if code.isdigit() else 0 for code in re.split("[;:]", parameters)] if parameters else [0]
        style = self
        while codes:
            code = codes.pop(0)
            if code == 0:
                style = Style()
            elif code in SGR_ATTRIBUTES:
                name, value = SGR_ATTRIBUTES[code]
                style = replace(style, **{name: value})
            elif code in (38, 48):
                color = None
                if codes[:1] == [5] and len(codes) >= 2:
                    color = codes[1]
                    codes = codes[2:]
                elif codes[:1] == [2] and len(codes) >= 4:
                    color = tuple(codes[1:4])
                    codes = codes[4:]
                style = replace(style, **{"foreground" if code == 38 else "background": color})
            elif 30 <= code <= 37 or 90 <= code <= 97:
                style = replace(style, foreground=code - 30 if code < 90 else code - 82)
            elif 40 <= code <= 47 or 100 <= code <= 107:
                style = replace(style, background=code - 40 if code < 100 else code - 92)
        return style


@dataclass
class Cell:
    """One column: its text ("" for the right half of a wide character) and style."""

    text: str
    style: Style


class Screen:
    """The rows of cells of a captured screen."""

    def __init__(self, captured):
        self.rows = []
        style = Style()
        # tmux writes only the changes from one cell to the next, across lines too.
        for line in captured.rstrip("\n").split("\n"):
            cells = []
            position = 0
            while position < len(line):
                char = line[position]
                if char == "\x1b":
                    match = SGR.match(line, position)
                    if match is None:
                        position += 1
                        continue
                    if match.group(2) == "m":
                        style = style.applying(match.group(1))
                    position = match.end()
                    continue
                width = columns(char)
                if width == 0 and cells:
                    cells[-1].text += char
                else:
                    cells.append(Cell(char, style))
                    if width == 2:
                        cells.append(Cell("", style))
                position += 1
            self.rows.append(cells)

    def text(self, row):
        """A row's text without styles."""
        return "".join(cell.text for cell in self.rows[row])

    def runs(self, row):
        """A row as (text, style) runs of cells in one style."""
        runs = []
        for cell in self.rows[row]:
            if runs and runs[-1][1] == cell.style:
                runs[-1] = (runs[-1][0] + cell.text, cell.style)
            else:
                runs.append((cell.text, cell.style))
        return runs
