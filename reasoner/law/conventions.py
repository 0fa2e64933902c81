"""The conventions an encoding file is written in, read in one place (explain, check, coverage):

- a comment line `% § <clause id> <heading or "quoted words">`, with its quotation continued on the
  comment lines below it, opens the block of rules for that clause;
- a comment line `%@ <sentence with {Variables}>` right above a rule is the sentence its explanation prints.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_HEADER = re.compile(r"^% § (\S+)")
_QUOTED = re.compile(r'"([^"]*)"')
_ELLIPSIS = re.compile(r"\.\.\.|…")


@dataclass(frozen=True)
class Header:
    line: int          # 1-based
    clause: str
    words: str         # the header's text after the clause id, its comment lines joined

    def quotations(self) -> list[str]:
        """The fragments the header quotes from the ordinance (each part between ellipses), spaces folded."""
        fragments = []
        for quoted in _QUOTED.findall(self.words):
            fragments += [" ".join(part.split()).strip(" ,;:") for part in _ELLIPSIS.split(quoted)]
        return [fragment for fragment in fragments if fragment]


class Annotations:
    """The `% §` headers and `%@` sentences of one encoding's text."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.headers: list[Header] = []
        for index, line in enumerate(self.lines):
            found = _HEADER.match(line)
            if not found:
                continue
            words = [line[found.end():]]
            for following in self.lines[index + 1:]:
                if not following.startswith("%") or following.startswith(("%@", "% §", "% -", "% =")):
                    break
                words.append(following[1:])
            self.headers.append(Header(index + 1, found.group(1), " ".join(" ".join(words).split())))
        self._header_lines = [header.line for header in self.headers]

    def clause_at(self, line: int) -> str | None:
        """The clause of the nearest `% §` header above a line."""
        above = bisect.bisect_left(self._header_lines, line)
        return self.headers[above - 1].clause if above else None

    def sentence_at(self, line: int) -> str | None:
        """The `%@` sentence right above a line."""
        above = self.lines[line - 2] if line >= 2 else ""
        return above[2:].strip() if above.startswith("%@") else None


def folded(text: str) -> str:
    """Words compared as a reader compares them: spaces folded, typographic quotes and dashes plain."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.replace("\u2013", "-").replace("\u2014", "-").split())
