"""HTML loader: boilerplate (nav, header, footer, aside, scripts, forms, link lists) dropped; h1-h6 form
the section path; tables become ` | `-joined row lines."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Doctype, ProcessingInstruction

from kgrag.ingest.base import Block, HeadingStack, Parsed
from kgrag.ingest.clean import normalize_whitespace
from kgrag.ingest.textio import read_text

DROP_TAGS = {
    "nav", "header", "footer", "aside", "script", "style", "noscript", "template", "form", "button",
    "input", "select", "textarea", "iframe", "svg", "canvas", "head", "menu", "dialog", "object",
}
DROP_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar"}
HEADINGS = {f"h{i}": i for i in range(1, 7)}
TEXT_BLOCKS = {"p", "li", "dt", "dd", "blockquote", "figcaption", "caption", "address", "summary", "td", "th"}
_BR = "\u2028"  # marks <br> while HTML whitespace is collapsed


def parse_html(path: Path) -> Parsed:
    """Blocks of an HTML page; title from <title> (else the first <h1>); product/category from <meta>."""
    soup = BeautifulSoup(read_text(path), "lxml")
    metas = {
        str(tag.get("name", "")).lower(): str(tag.get("content", "")).strip()
        for tag in soup.find_all("meta")
        if tag.get("name") and tag.get("content")
    }
    title_tag = soup.find("title")
    title = normalize_whitespace(title_tag.get_text(" ")) if title_tag else ""
    root = soup.find("main") or _only_article(soup) or soup.body or soup
    if not title:
        h1 = root.find("h1")
        title = normalize_whitespace(h1.get_text(" ")) if h1 else ""
    walker = _Walker()
    blocks = list(walker.walk(root))
    return Parsed(blocks, title=title, meta={"format": "html"}, product=metas.get("product", ""),
                  category=metas.get("category", ""), version=metas.get("version", ""))


def _only_article(soup: BeautifulSoup) -> Tag | None:
    """The page's one top-level <article>, its content; None for a page of several (a knowledge base's articles, a
    forum thread's posts, an FAQ's items), which are all content."""
    articles = [a for a in soup.find_all("article") if a.find_parent("article") is None]
    return articles[0] if len(articles) == 1 else None


def _heads_an_item(header: Tag) -> bool:
    """A <header> inside an article or section, or heading one of several like items (a forum thread's posts): who
    wrote it, when, whether it is the accepted answer. A page's own header (its banner) is boilerplate."""
    if header.find_parent(["article", "section"]) is not None:
        return True
    item = header.parent
    if not isinstance(item, Tag) or item.name in ("body", "html", "main") or not item.get("class"):
        return False
    kind = item["class"][0]
    siblings = chain(item.previous_siblings, item.next_siblings)  # stops at the first like item
    return any(isinstance(s, Tag) and s.name == item.name and kind in (s.get("class") or []) for s in siblings)


def link_density(tag: Tag) -> float:
    """Share of an element's text that sits inside <a> links."""
    text = len(tag.get_text(" ", strip=True))
    if not text:
        return 0.0
    linked = sum(len(a.get_text(" ", strip=True)) for a in tag.find_all("a"))
    return linked / text


def _is_boilerplate(tag: Tag) -> bool:
    if tag.name == "header" and _heads_an_item(tag):
        return False
    if tag.name in DROP_TAGS or str(tag.get("role", "")).lower() in DROP_ROLES:
        return True
    if tag.has_attr("hidden") or str(tag.get("aria-hidden", "")).lower() == "true":
        return True
    if tag.name in ("ul", "ol", "div", "p", "section", "table", "dl"):
        n_links = len(tag.find_all("a"))
        density = link_density(tag)
        return (n_links >= 3 and density > 0.6) or (n_links >= 1 and density > 0.9)
    return False


class _Walker:
    """Depth-first walk keeping the heading stack."""

    def __init__(self) -> None:
        self.stack = HeadingStack()
        self.inline: list[str] = []

    def path(self) -> tuple[str, ...]:
        return self.stack.path()

    def walk(self, node: Tag) -> Iterator[Block]:
        yield from self._children(node)
        yield from self._flush()

    def _flush(self) -> Iterator[Block]:
        text = "\n".join(" ".join(part.split()) for part in " ".join(self.inline).split(_BR))
        text = normalize_whitespace(text)
        self.inline = []
        if text:
            yield Block(self.path(), text)

    def _children(self, node: Tag) -> Iterator[Block]:
        for child in node.children:
            if isinstance(child, (Comment, Doctype, ProcessingInstruction)):
                continue
            if isinstance(child, NavigableString):
                if child.strip():
                    self.inline.append(str(child))
                continue
            if not isinstance(child, Tag) or _is_boilerplate(child):
                continue
            yield from self._element(child)

    def _element(self, tag: Tag) -> Iterator[Block]:
        name = tag.name
        if name in HEADINGS:
            yield from self._flush()
            text = _inline_text(tag)
            if text:
                self.stack.push(HEADINGS[name], text)
                yield Block(self.path(), text, "heading")
        elif name == "table":
            yield from self._flush()
            rows = _table_rows(tag)
            if rows:
                yield Block(self.path(), "\n".join(rows), "table")
        elif name == "pre":
            yield from self._flush()
            code = tag.get_text().strip("\n")
            if code.strip():
                yield Block(self.path(), code, "code")
        elif name == "br":
            self.inline.append(_BR)
        elif name in ("ul", "ol") and not tag.find(["p", "table", "pre", "ul", "ol", "div", *HEADINGS]):
            yield from self._flush()
            items = [_inline_text(li) for li in tag.find_all("li", recursive=False)]
            text = "\n".join(f"{mark} {item}" for mark, item in zip(_list_marks(tag, len(items)), items, strict=True)
                             if item)
            if text:
                yield Block(self.path(), text)
        elif name in TEXT_BLOCKS and not tag.find(["p", "table", "pre", "ul", "ol", "div", *HEADINGS]):
            yield from self._flush()
            text = _inline_text(tag)
            if text:
                yield Block(self.path(), text)
        elif name in ("span", "a", "b", "strong", "em", "i", "code", "sup", "sub", "small", "mark", "abbr"):
            self.inline.append(tag.get_text(" "))
        else:
            yield from self._flush()
            yield from self._children(tag)
            yield from self._flush()


def _list_marks(tag: Tag, count: int) -> list[str]:
    """Each item's mark: "1.", "2.", … in an ordered list (from its `start`), so a procedure's steps stay numbered
    steps ("What is step 4?", a how-to question's steps in order); "-" in a bulleted one."""
    if tag.name != "ol":
        return ["-"] * count
    start = str(tag.get("start") or "1").strip()
    first = int(start) if start.lstrip("-").isdigit() else 1
    return [f"{first + i}." for i in range(count)]


def _inline_text(tag: Tag) -> str:
    """An element's text with HTML whitespace rules: runs of whitespace are one space, <br> a newline."""
    parts: list[str] = []
    for node in tag.descendants:
        if isinstance(node, Tag) and node.name == "br":
            parts.append(_BR)
        elif isinstance(node, NavigableString) and not isinstance(node, (Comment, Doctype)):
            parts.append(str(node))
    lines = ("".join(parts)).split(_BR)
    return normalize_whitespace("\n".join(" ".join(line.split()) for line in lines))


def _table_rows(table: Tag) -> list[str]:
    """Each row's cell texts joined with ' | ' (nested tables flattened into their cell)."""
    rows: list[str] = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue
        cells = [" ".join(c.get_text(" ").split()) for c in tr.find_all(["td", "th"], recursive=False)]
        if any(cells):
            rows.append(" | ".join(cells))
    return rows
