"""Wikitext to plain-text sections, with mwparserfromhell."""

from __future__ import annotations

import re

import mwparserfromhell
from mwparserfromhell.nodes import Heading, Node, Tag, Template, Text, Wikilink

from sea.kb.inline_templates import inline_text
from sea.kb.sections import SectionTrail, is_prose

_DISAMBIGUATION = re.compile(
    r"\{\{\s*(disambiguation|disambig|dab|disamb|hndis|geodis|numberdis|mil-unit-dis|"
    r"hospital disambiguation|school disambiguation|letter disambiguation)\s*[|}]",
    re.IGNORECASE,
)
_NON_TEXT_LINK = re.compile(r"^\s*:?\s*(file|image|category|media|[a-z]{2,3}(-[a-z]+)?)\s*:", re.IGNORECASE)
_NON_TEXT_TAGS = frozenset({"table", "ref", "gallery", "math", "chem", "score", "timeline", "graph", "syntaxhighlight", "imagemap"})
# References and comments are the bulk of an article's markup; removing them before parsing
# roughly halves the parse time and leaves fewer nodes to walk.
_REFERENCE = re.compile(r"<ref[^>]*?/>|<ref[^>]*>.*?</ref\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
_MAGIC_WORD = re.compile(r"__[A-Z]+__")
_SPACE = re.compile(r"[ \t\u00a0]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")
_EMPTY_BRACKETS = re.compile(r"\(\s*[,;]?\s*\)")


def _without_tables(wikitext: str) -> str:
    """The wikitext with every table's lines taken out ("{|" to "|}", nested ones within). The parser drops the tables it
    recognises but reads some as text: their cells became a paragraph ("1986 !! 1987 !! …", Andre Agassi's singles
    timeline), and bold a cell left open ran over the headings after it (Alaska lost its Economy, Transportation and Law
    sections)."""
    kept, depth = [], 0
    for line in wikitext.split("\n"):
        start = line.lstrip(" :")
        if start.startswith("{|"):
            depth += 1
        elif depth and start.startswith("|}"):
            depth -= 1
            line = start[2:]  # what closes on the same line ("|}}}" ends a template too)
        if not depth:
            kept.append(line)
    return "\n".join(kept)


def is_disambiguation(title: str, wikitext: str) -> bool:
    return title.endswith("(disambiguation)") or bool(_DISAMBIGUATION.search(wikitext))


def _is_non_text(node: Node) -> bool:
    if isinstance(node, Tag):
        return str(node.tag).strip().lower() in _NON_TEXT_TAGS
    return isinstance(node, Wikilink) and bool(_NON_TEXT_LINK.match(str(node.title)))


def _drop_non_text(code: mwparserfromhell.wikicode.Wikicode) -> None:
    """Remove tables, references, images, categories and interlanguage links, and put the text of templates that stand
    inside a sentence in their place, in one walk down the tree (`Wikicode.remove` searches the whole tree again for
    each node it removes)."""
    nodes = code.nodes
    for index in range(len(nodes) - 1, -1, -1):
        if _is_non_text(nodes[index]):
            del nodes[index]
            continue
        for child in nodes[index].__children__():
            _drop_non_text(child)
        if isinstance(nodes[index], Template) and (text := inline_text(nodes[index])) is not None:
            nodes[index] = Text(text)


def _plain(code: mwparserfromhell.wikicode.Wikicode) -> str:
    text = code.strip_code(normalize=True, collapse=True)
    text = _MAGIC_WORD.sub("", text)
    text = _EMPTY_BRACKETS.sub("", text)
    lines = [_SPACE.sub(" ", line).strip() for line in text.splitlines()]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def wikitext_sections(wikitext: str, drop_by_name: bool = True) -> list[tuple[str, str]]:
    """(section path, plain text) for the lead (path "") and each section, in order; with drop_by_name,
    sections named like English reference sections ("References", "See also", ...) are left out."""
    code = mwparserfromhell.parse(_without_tables(_REFERENCE.sub("", wikitext)))
    _drop_non_text(code)
    trail = SectionTrail()
    sections = []
    for section in code.get_sections(flat=True, include_lead=True):
        nodes = section.nodes
        path = ""
        if nodes and isinstance(nodes[0], Heading):
            heading = nodes[0]
            path = trail.enter(heading.level, _plain(heading.title) or "untitled")
            section.remove(heading)
        if not drop_by_name or is_prose(path):
            sections.append((path, _plain(section)))
    return sections


