"""Pure text-cleaning functions used by every loader: whitespace, hyphenation, headers/footers, noise."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_SPACES = re.compile(r"[ \t\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
_INVISIBLE = re.compile(r"[\u00ad\u200b-\u200d\u2060\ufeff]")
_CID = re.compile(r"\(cid:\d+\)")
_TRADEMARK = re.compile(r"[ \t]*[®™℠]")
_MANY_NEWLINES = re.compile(r"\n{3,}")
_DIGITS = re.compile(r"\d+")
_URL = re.compile(r"(?:https?://|ftp://|www\.)\S+|\b[\w.-]+\.(?:com|org|net|io|dev|html?)(?:/\S*)?\b", re.I)
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
_WORD = re.compile(r"\w*[^\W\d_]\w*")
_WHITESPACE = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[\W_]+")
_NON_LETTERS = re.compile(r"[\W\d_]+")
_ENDS_WITH_HYPHEN = re.compile(r"[^\W\d_]-$")


def squash(text: str) -> str:
    """Lower-case letters and digits only, so "Arduino® Nano 33 BLE" and "arduino nano 33 ble" compare equal (and
    "Scan_0001" and "scan-0001")."""
    return _SEPARATORS.sub("", text.lower())


def drop_trademarks(text: str) -> str:
    """Remove ®, ™ and ℠: datasheets put them inside names ("Arm® Cortex®-M4"), where they split the name for
    phrase search, question linking and the graph's name matching."""
    return _TRADEMARK.sub("", text)


# One-character temperature units and the ordinal sign written for a degree, as most documents write them: "85℃",
# "-40ºC" are "85°C", "-40°C" (the answer's value reading maps a question's units with it too)
SAME_UNIT_SIGNS = {"℃": "°C", "℉": "°F", "ºC": "°C", "ºF": "°F"}
_DEGREE_SIGNS = re.compile(r"℃|℉|º[CF]\b")


def clean_signs(text: str) -> str:
    """Drop trademark signs (`drop_trademarks`) and write temperatures with the degree sign ("85℃" -> "85°C"), as
    most documents do: phrase search, the graph's spec patterns and the answer's value reading see one unit."""
    return _DEGREE_SIGNS.sub(lambda m: SAME_UNIT_SIGNS[m.group(0)], drop_trademarks(text))


def normalize_whitespace(text: str) -> str:
    """Collapse runs of spaces, strip each line, drop invisible characters and PDF `(cid:N)` glyph codes, and clean
    the signs (`clean_signs`)."""
    text = clean_signs(_INVISIBLE.sub("", _CID.sub("", text)))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _MANY_NEWLINES.sub("\n\n", "\n".join(lines)).strip()


def join_lines(lines: Sequence[str]) -> str:
    """Join wrapped lines into one paragraph, undoing end-of-line hyphenation.

    `micro-` + `controller` -> `microcontroller`; `Wi-` + `Fi` -> `Wi-Fi` (capital or digit after the
    break: the hyphen is part of the word); anything else is joined with one space.
    """
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if not out:
            out = line
        elif _ENDS_WITH_HYPHEN.search(out):
            out = out[:-1] + line if line[0].islower() else out + line
        else:
            out = f"{out} {line}"
    return out


def dehyphenate(text: str) -> str:
    """Join words broken by a hyphen at a line end inside a text (`sig-\\nnal` -> `signal`)."""
    return re.sub(r"([^\W\d_])-\n([a-z])", r"\1\2", text)


def edge_key(line: str) -> str:
    """A line reduced for header/footer comparison: digit runs become '#', case and spacing ignored."""
    return " ".join(_DIGITS.sub("#", line).lower().split())


def find_repeated_edge_lines(
    pages: Sequence[Sequence[str]], edge: int = 2, min_share: float = 0.6
) -> list[set[int]]:
    """Indices, per page, of header/footer lines: among the first/last `edge` lines of a page and
    recurring (digits ignored) on at least `min_share` of the pages (and on 2 pages or more)."""
    if len(pages) < 2:
        return [set() for _ in pages]
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({edge_key(line) for line in _edges(lines, edge)})
    needed = max(2, math.ceil(min_share * len(pages)))
    repeated = {key for key, n in counts.items() if n >= needed and key}
    result: list[set[int]] = []
    for lines in pages:
        idx = set(range(min(edge, len(lines)))) | set(range(max(0, len(lines) - edge), len(lines)))
        result.append({i for i in idx if edge_key(lines[i]) in repeated})
    return result


def _edges(lines: Sequence[str], edge: int) -> list[str]:
    return list(lines[:edge]) + list(lines[max(edge, len(lines) - edge):])


def strip_repeated_edge_lines(
    pages: Sequence[Sequence[str]], edge: int = 2, min_share: float = 0.6
) -> list[list[str]]:
    """Pages with their repeated headers/footers removed (see `find_repeated_edge_lines`)."""
    drop = find_repeated_edge_lines(pages, edge, min_share)
    return [[line for i, line in enumerate(lines) if i not in d] for lines, d in zip(pages, drop, strict=True)]


def strip_markdown_links(text: str) -> str:
    """`[label](url)` -> `label`; images `![alt](src)` are removed."""
    return _MD_LINK.sub(lambda m: "" if m.group(0).startswith("!") else m.group(1), text)


def link_ratio(text: str) -> float:
    """Share of the non-space characters of `text` that belong to URLs or Markdown links."""
    total = sum(1 for ch in text if not ch.isspace())
    if not total:
        return 0.0
    linked = 0
    for match in _MD_LINK.finditer(text):
        linked += sum(1 for ch in match.group(0) if not ch.isspace())
    rest = _MD_LINK.sub(" ", text)
    for match in _URL.finditer(rest):
        linked += len(match.group(0))
    return min(1.0, linked / total)


def is_link_dominated(text: str, threshold: float = 0.5) -> bool:
    """True for navigation-like text: mostly URLs or links (link lists, 'see also' bars)."""
    return link_ratio(text) >= threshold


def word_count(text: str) -> int:
    """Number of word tokens that contain at least one letter (numbers and symbols do not count)."""
    return len(_WORD.findall(text))


def is_low_information(text: str, min_words: int) -> bool:
    """True when `text` has fewer than `min_words` words or is mostly punctuation and digits."""
    if word_count(text) < min_words:
        return True
    visible = len(_WHITESPACE.sub("", text))
    letters = len(_NON_LETTERS.sub("", text))
    return not visible or letters / visible < 0.35


_LIST_ITEM = re.compile(r"^\s*([-*+•▪◦]|\d+[.)]|[a-z][.)])\s+")


def reflow(lines: Sequence[str]) -> str:
    """Join soft-wrapped lines into paragraphs (hyphenation undone); list items keep their own line."""
    out: list[str] = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and not _LIST_ITEM.match(line):
            out[-1] = join_lines([out[-1], line])
        else:
            out.append(line)
    return "\n".join(out)
