"""Section paths ("History > Early years") from a sequence of headings with levels."""

from __future__ import annotations

SEPARATOR = " > "

# Sections that hold citations and links rather than prose about the subject.
NON_PROSE_SECTIONS = frozenset({
    "references", "external links", "see also", "further reading", "notes", "bibliography",
    "sources", "citations", "footnotes", "works cited", "notes and references", "gallery",
})


class SectionTrail:
    """Tracks the headings above the current position in a document."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def enter(self, level: int, title: str) -> str:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))
        return SEPARATOR.join(name for _, name in self._stack)


def is_prose(section_path: str) -> bool:
    """Not a section of citations or links, also when a word qualifies its name ("Selected bibliography", "General references")."""
    top = section_path.split(SEPARATOR, 1)[0].strip().lower()
    return top not in NON_PROSE_SECTIONS and not any(top.endswith(f" {name}") for name in NON_PROSE_SECTIONS)
