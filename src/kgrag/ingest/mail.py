"""E-mail loaders (.eml, and .mbox mailbox exports): the subject is the title, and a reply thread is read message by
message. The newest message is on top and each earlier one is quoted below it ("On …, X wrote:" over "> " lines, or an
"-----Original Message-----" block); each message becomes a section named by who wrote it and when, its quote marks
removed, so a fact is read with its author. A disclaimer or signature paragraph every message repeats is kept once;
attached documents follow."""

from __future__ import annotations

import mailbox
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag

from kgrag.errors import IngestError
from kgrag.ingest.base import Block, Parsed
from kgrag.ingest.clean import normalize_whitespace
from kgrag.ingest.text import text_blocks

_QUOTE = re.compile(r"^(\s?>)+\s?")
# "On Tue, 3 Mar 2026 at 09:12, Jane Doe <j@x.com> wrote:", as German and French mail clients write it too
_ATTRIBUTION = re.compile(r"^(?:On\s.{4,300}\swrote|Am\s.{4,300}\sschrieb\s.{1,200}|Le\s.{4,300}\sa écrit\s?):$")
_ATTRIBUTION_START = ("On ", "Am ", "Le ")
_ORIGINAL = re.compile(r"^-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}$", re.I)
_OUTLOOK_FIELD = re.compile(r"^(From|Sent|Date|To|Cc|Subject):\s*(.*)$", re.I)
_REPLY_PREFIX = re.compile(r"^(?:(?:re|fwd?|aw|sv|wg)\s*:\s*)+", re.I)
_HTML_PARAGRAPHS = {"p", "div", "table", "ul", "ol", "pre", "hr", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"}
_HTML_LINES = {"br", "li", "tr"}
_HTML_HIDDEN = {"script", "style", "head", "title"}


def parse_eml(path: Path, loaders: Mapping[str, Callable[[Path], Parsed]] | None = None) -> Parsed:
    """Blocks of one e-mail: its header fields, then each message of its thread as a section, newest first, then the
    attached documents that one of `loaders` (suffix -> loader, parse.LOADERS) reads."""
    try:
        with open(path, "rb") as fh:
            message = BytesParser(policy=policy.default).parse(fh)
    except OSError as exc:
        raise IngestError(path, f"cannot read file ({exc.strerror or exc})") from exc
    if not _is_mail(message):
        raise IngestError(path, "not an e-mail message (no From or Subject header)")
    blocks, read = message_blocks(message, loaders or {}, set())
    subject = normalize_whitespace(str(message["subject"] or ""))
    return Parsed(blocks, title=_REPLY_PREFIX.sub("", subject) or subject, meta={"format": "eml", **read.meta()})


def parse_mbox(path: Path, loaders: Mapping[str, Callable[[Path], Parsed]] | None = None) -> Parsed:
    """Blocks of a mailbox export (Thunderbird, Google Takeout): each message a section named by its subject, read as
    `parse_eml` reads one; a paragraph an earlier message quoted or repeated is kept once."""
    try:
        box = mailbox.mbox(path, factory=lambda fh: BytesParser(policy=policy.default).parse(fh), create=False)
        messages = [m for m in box if _is_mail(m)]
    except (OSError, mailbox.Error) as exc:
        raise IngestError(path, f"cannot read mailbox ({exc})") from exc
    if not messages:
        raise IngestError(path, "no e-mail messages in the mailbox")
    blocks: list[Block] = []
    read = Attachments()
    seen: set[str] = set()
    for message in messages:
        label = normalize_whitespace(str(message["subject"] or "")) or "(no subject)"
        own, attached = message_blocks(message, loaders or {}, seen)
        blocks += _sectioned(label, own)
        read.formats += attached.formats
        read.problems += attached.problems
    return Parsed(blocks, meta={"format": "mbox", "messages": len(messages), **read.meta()})


@dataclass
class Attachments:
    """What a mail's attachments gave: the formats read, and a line for each that could not be read."""

    formats: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def meta(self) -> dict[str, list[str]]:
        """The document metadata: `attachments` (formats read) and `warnings` (`kgrag documents --details`)."""
        return {"attachments": self.formats, "warnings": self.problems}


def _is_mail(message: object) -> bool:
    return isinstance(message, EmailMessage) and bool(message["from"] or message["subject"])


def message_blocks(message: EmailMessage, loaders: Mapping[str, Callable[[Path], Parsed]], seen: set[str]
                   ) -> tuple[list[Block], Attachments]:
    """One message's blocks (its fields, its thread message by message, its attachments) and what its attachments
    gave; a paragraph in `seen` (an earlier message's, a repeated disclaimer) is left out, and `seen` grows."""
    top = f"On {message['date']}, {message['from']} wrote" if message["date"] else f"{message['from'] or ''} wrote"
    blocks = [Block((top,), top, "heading")]
    fields = [f"{name}: {normalize_whitespace(str(message[name]))}" for name in ("From", "To", "Cc", "Date", "Subject")
              if message[name]]
    names = [str(part.get_filename()) for part in message.iter_attachments() if part.get_filename()]
    if names:
        fields.append(f"Attachments: {', '.join(names)}")
    blocks.append(Block((top,), "\n".join(fields)))
    for heading, lines in split_thread(_body_lines(message), top):
        if heading != top:
            blocks.append(Block((heading,), heading, "heading"))
        for block in text_blocks(lines):
            if block.kind == "heading" or block.text not in seen:
                seen.add(block.text)
                blocks.append(Block((heading, *block.path), block.text, block.kind))
    attached, read = attachment_blocks(message, loaders)
    return blocks + attached, read


def attachment_blocks(message: EmailMessage, loaders: Mapping[str, Callable[[Path], Parsed]]
                      ) -> tuple[list[Block], Attachments]:
    """The blocks of each attached document a loader reads (a customer's CSV log, a PDF report, a Word file), each
    under a section "Attachment: <name>", and what was read; one that cannot be read leaves a line saying so and a
    warning, not an error (the mail is still read)."""
    blocks: list[Block] = []
    read = Attachments()
    for part in message.iter_attachments():
        name = Path(str(part.get_filename() or "")).name
        loader = loaders.get(Path(name).suffix.lower())
        payload = part.get_payload(decode=True) if loader is not None else None
        if loader is None or not isinstance(payload, bytes) or not payload:
            continue
        heading = f"Attachment: {name}"
        with tempfile.TemporaryDirectory() as folder:
            file = Path(folder) / name
            file.write_bytes(payload)
            try:
                parsed = loader(file)
            except Exception as exc:  # any loader's failure on a damaged attachment (IngestError, XML, zip errors)
                reason = exc.reason if isinstance(exc, IngestError) else f"{type(exc).__name__}: {exc}"
                blocks.append(Block((heading,), f"The attachment {name} could not be read ({reason})."))
                read.problems.append(f"attachment {name} not read: {reason}")
                continue
        blocks += _sectioned(heading, parsed.blocks)
        read.formats.append(str(parsed.meta.get("format", "")))
    return blocks, read


def _sectioned(heading: str, blocks: list[Block]) -> list[Block]:
    """`blocks` as a section under `heading`: its heading block first, each block's path below it."""
    return [Block((heading,), heading, "heading"), *(Block((heading, *b.path), b.text, b.kind, b.page) for b in blocks)]


def split_thread(lines: list[str], top: str) -> list[tuple[str, list[str]]]:
    """The messages of a reply thread as (heading, lines), newest first: a message starts at an attribution line
    ("On … wrote:", joined when wrapped) whose quoted lines follow one level deeper, or at an Outlook block
    ("-----Original Message-----" or From:/Sent: lines), whose fields name it."""
    messages: list[tuple[str, list[str]]] = [(top, [])]
    at_depth: dict[int, int] = {0: 0}  # quote depth → index of the message its lines belong to
    i = 0
    while i < len(lines):
        depth, text = _unquote(lines[i])
        wrapped = f"{text} {_unquote(lines[i + 1])[1]}" if i + 1 < len(lines) else ""
        if _ATTRIBUTION.match(text) or (text.startswith(_ATTRIBUTION_START) and _ATTRIBUTION.match(wrapped)):
            heading = text if _ATTRIBUTION.match(text) else wrapped
            i += 1 if heading == text else 2
            messages.append((heading.removesuffix(":").rstrip(), []))
            at_depth[depth + 1] = len(messages) - 1
            continue
        fields, used = _outlook_fields(lines, i, depth)
        if used:
            messages.append((_outlook_heading(fields), []))
            at_depth = {d: k for d, k in at_depth.items() if d < depth} | {depth: len(messages) - 1}
            i += used
            continue
        if depth not in at_depth:  # quoted lines with no attribution above them
            messages.append(("Quoted earlier message", []))
            at_depth[depth] = len(messages) - 1
        messages[at_depth[depth]][1].append(text)
        i += 1
    return [(heading, body) for heading, body in messages if any(line.strip() for line in body)]


def _unquote(line: str) -> tuple[int, str]:
    """(quote depth, the line without its quote marks)."""
    match = _QUOTE.match(line)
    if not match:
        return 0, line.rstrip()
    return match.group(0).count(">"), line[match.end():].rstrip()


def _outlook_fields(lines: list[str], start: int, depth: int) -> tuple[dict[str, str], int]:
    """The fields of an Outlook reply header starting at `start` and how many lines it takes (0 when none starts):
    an "-----Original Message-----" line and the fields under it, or a From: line with a Sent:/Date: line below."""
    i = start
    if _ORIGINAL.match(_unquote(lines[i])[1].strip()):
        i += 1
    fields: dict[str, str] = {}
    while i < len(lines) and _unquote(lines[i])[0] == depth and (m := _OUTLOOK_FIELD.match(_unquote(lines[i])[1])):
        fields[m.group(1).lower()] = m.group(2).strip()
        i += 1
    if i > start and (i > start + len(fields) or ("from" in fields and ({"sent", "date"} & fields.keys()))):
        return fields, i - start
    return {}, 0


def _outlook_heading(fields: dict[str, str]) -> str:
    when = fields.get("sent") or fields.get("date")
    who = fields.get("from") or "someone"
    return f"On {when}, {who} wrote" if when else f"{who} wrote"


def _body_lines(message: EmailMessage) -> list[str]:
    """The message's text as lines: its text/plain part, else its HTML part with each <blockquote> level written
    as "> " marks."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return []
    try:
        content = str(part.get_content())
    except LookupError:  # a charset Python does not know: its bytes read as UTF-8, as mail clients fall back
        content = (part.get_payload(decode=True) or b"").decode("utf-8", errors="replace")
    if part.get_content_type() == "text/plain":
        return normalize_whitespace(content).split("\n")
    soup = BeautifulSoup(content, "lxml")
    lines: list[tuple[int, str]] = [(0, "")]
    for node in (soup.body or soup).descendants:
        depth = len(node.find_parents("blockquote"))
        if isinstance(node, Tag) and node.name in _HTML_PARAGRAPHS:
            lines += [(depth, ""), (depth, "")]  # a blank line: the paragraph ends
        elif isinstance(node, Tag) and node.name in _HTML_LINES:
            lines.append((depth, "- " if node.name == "li" else ""))
        elif isinstance(node, Tag) and node.name in ("td", "th") and lines[-1][1].strip():
            lines[-1] = (depth, lines[-1][1] + " | ")
        elif type(node) is NavigableString and node.parent is not None and node.parent.name not in _HTML_HIDDEN:
            if lines[-1][0] != depth:
                lines.append((depth, ""))
            lines[-1] = (depth, lines[-1][1] + str(node))
    return list(_quoted(lines))


def _quoted(lines: list[tuple[int, str]]) -> Iterator[str]:
    """Each (depth, text) line written with its quote marks, a run of blank lines as one."""
    blank = True
    for depth, text in lines:
        text = " ".join(text.split())
        if text or not blank:
            yield f"{'> ' * depth}{text}".rstrip()
        blank = not text
