"""`reasoner new NAME --text FILE`: the files a new ordinance starts from, split from its text where the text's own
numbering allows and marked for review where it does not. A law's files stand side by side in `encodings/`:

- its text `encodings/NAME.txt`, a copy of FILE;
- the registry `encodings/NAME.yaml`: metadata keys (TODO where the text must be read by a person), and a
  clause per section and paragraph, its words verbatim (spaces folded), `numbering: printed` where the id is the
  text's own, `reconstructed` where we numbered it, each under a `# REVIEW` comment;
- the encoding skeleton `encodings/NAME.lp`: the header, a `% § <id> "quoted words"` block per clause, and the
  conventions by example (param, regulated, reason, note);
- an empty scenario file `tests/scenarios/NAME.yaml`.

Sections are found from `=== [ID] Heading` markers (the statute texts), or from numbers opening a paragraph
(`§ 6-17`, `6.02 DEFINITIONS`, `SECTION 3.`, `Sec. 3.`, `45-21-5.`, `70.108.010`); paragraphs from `(a)`, `(i)`,
`(A)`, `(1)` opening them or run into the text after a stop (`...following:(a)A cash bond`), each kind of marker a
level below the kinds the section used before it. A section's history notes (`[ 1971 ex.s. c 302 s 19.]`,
`(L. 1975 S.B. 323 § 1)`, `Codes, 1942, § 7015-51; ...`) and editors' notes are not clauses: they are kept in its
REVIEW comment. A scraped text that gives a section several times (run together, then in paragraphs) keeps the
first full copy, and its REVIEW comment says so and where the copies differ.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from reasoner.events.loading import RefusedFile, read_text_bounded

NAME = re.compile(r"[a-z][a-z0-9_]*")
RESERVED = {"not", "vocabulary", "modes"}   # clingo's keyword, and the shared files' names
_MARKER = re.compile(r"^=== \[(?P<id>[^\]]+)\]\s*(?P<heading>.*?)\s*(?:\(source_url:.*)?$")
_SECTION = re.compile(r"^(?:§+\s*(?P<s>\d+[-.]\d+[A-Za-z]?)|(?:SECTION|Section|Sec\.)\s+(?P<n>\d+[A-Za-z]?)\."
                      r"|(?P<t>\d+(?:-\d+){2,}[A-Za-z]?)\.?\s+(?=[A-Z])|(?P<d>\d+(?:\.\d+)+)\.?\s+(?=[A-Z]))")
_MARK = r"\((?:[a-z]{1,4}|[A-Z]{1,4}|\d{1,3})\)"
# a marker opening a paragraph, followed by a space or, in a scraped text, by its first word, quote or marker
_PARAGRAPH = re.compile(r"^\((?P<m>[a-z]{1,4}|[A-Z]{1,4}|\d{1,3})\)(?:\s+|(?=[\"“A-Z(]))")
# where a scraped text runs a numbered item into the one before, glued to its stop or last word (a text that
# enumerates inside a sentence leaves a space: `provided: (1) Prior notification ... and (2) a letter`)
_RUN_IN = re.compile(rf"(?<=[.:;a-z])(?={_MARK}\s*[\"“A-Z(])")
# a statute's history and editors' notes, not its words: (1971, P.A. 696, S. 1.), [ 1971 ex.s. c 302 s 19.],
# (L. 1975 S.B. 323 § 1), Effective 7-16-75, Codes, 1942, § 7015-51; ..., Reviser's note: ..., ...: See note following RCW
_HISTORY = re.compile(r"^(?:\(\d{4},.*\)|\[\s*\d{4}\b.*\]|\(L\.\s*\d{4}\b.*\)|Effective \d{1,2}-\d{1,2}-\d{2,4}\.?"
                      r"|(?:Codes|Laws),\s*\d{4},.*|\*?Reviser's note:.*|.{0,160}?: See notes? following .*)$")
_GLUED_HISTORY = re.compile(r"(?<=[.;:])\s*(?P<note>(?:Codes|Laws),\s*\d{4},\s*§.*)$")
_HEADER = re.compile(r"^(?:Title|Chapter|Article|Part|Subchapter)\s+[\dIVXLC]+[A-Za-z]?\b.{0,80}$")
_ROMAN = re.compile(r"[ivxl]+")
_KINDS = ("lower", "roman", "upper", "digit")


class ScaffoldError(ValueError):
    """A name that cannot be used, or one already taken."""


@dataclass
class Clause:
    id: str
    heading: str
    text: str
    numbering: str = "printed"
    review: list[str] = field(default_factory=list)


def check_name(name: str, taken: tuple[str, ...]) -> None:
    if not NAME.fullmatch(name) or name in RESERVED:
        raise ScaffoldError(f"{name!r} is not a name an encoding can use: a lower-case identifier of letters, digits "
                            "and underscores, starting with a letter (as trempealeau or new_town), and not "
                            f"{', '.join(sorted(RESERVED))}")
    if name in taken:
        raise ScaffoldError(f"{name!r} is already an encoded ordinance; choose another name")


def _fold(text: str) -> str:
    return " ".join(text.split())


def _paragraphs(lines: list[str]) -> list[str]:
    """Blank-line separated paragraphs, each with its spaces folded."""
    found, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line)
        elif current:
            found.append(_fold(" ".join(current)))
            current = []
    return found


def _kind(marker: str, path: dict[int, str], order: list[str]) -> str:
    """digit, upper, lower or roman: a roman-looking letter is a letter when it follows its predecessor at the
    letter level, as (i) after (h)."""
    if marker.isdigit():
        return "digit"
    if marker.isupper():
        return "upper"
    if _ROMAN.fullmatch(marker):
        previous = path.get(order.index("lower")) if "lower" in order else None
        if not (len(marker) == 1 and previous and len(previous) == 1 and ord(marker) == ord(previous) + 1):
            return "roman"
    return "lower"


def _key(text: str) -> str:
    return "".join(text.split())


def _history(paragraphs: list[str]) -> tuple[list[str], list[str]]:
    """The paragraphs that are the law's words, and the history and editors' notes (each once)."""
    kept, notes = [], []
    for paragraph in paragraphs:
        glued = _GLUED_HISTORY.search(paragraph)
        if glued and not _HISTORY.match(paragraph):
            notes.append(glued.group("note"))
            paragraph = paragraph[:glued.start()].rstrip()
        if _HISTORY.match(paragraph):
            notes.append(paragraph)
        elif paragraph:
            kept.append(paragraph)
    return kept, list(dict.fromkeys(notes))


def _first_copy(pieces: list[str]) -> tuple[list[str], list[str]]:
    """A section a scraper gave several times (run together, then in paragraphs; or whole, three times over):
    the first full copy, and what to review. A copy starts where a paragraph opens as the section does."""
    if not pieces:
        return pieces, []
    review = []
    again = [i for i in range(1, len(pieces)) if _key(pieces[i]) == _key(pieces[i - 1])]
    if again:   # a paragraph given again right after itself
        times = len(pieces)
        pieces = [piece for i, piece in enumerate(pieces) if i not in again]
        if len(pieces) == 1:
            review.append(f"the text gives this section {times} times; the words are copy 1")
        else:
            review.append(f"the text gives {len(again)} paragraph(s) again right after themselves; each is kept once")
    opening = _key(pieces[0])[:60]
    if len(opening) < 30:
        return pieces, review
    starts = [0] + [i for i in range(1, len(pieces)) if _key(pieces[i]).startswith(opening)]
    if len(starts) == 1:
        return pieces, review
    copies = [pieces[a:b] for a, b in zip(starts, starts[1:] + [len(pieces)])]
    keys = ["".join(_key(piece) for piece in copy) for copy in copies]
    chosen = min(range(len(copies)), key=lambda i: (-len(keys[i]), -len(copies[i]), i))
    same = f", the same words as copy 1 in paragraphs" if chosen and keys[chosen] == keys[0] else ", the first full one"
    review.append(f"the text gives this section {len(copies)} times; the words are copy {chosen + 1}{same}")
    for index, copy in enumerate(copies):
        if keys[index] == keys[chosen]:
            continue
        mine = {_key(piece) for piece in copy}
        lacks = [piece for piece in copies[chosen] if _key(piece) not in mine and _key(piece) not in keys[index]]
        what = "; ".join(f"'{piece[:60]}{'...' if len(piece) > 60 else ''}'" for piece in lacks[:2])
        review.append(f"copy {index + 1} differs" + (f" (it lacks {what})" if what else ""))
    return copies[chosen], review


def _split_section(section: str, heading: str, body: list[str], numbering: str,
                   review: list[str] | None = None) -> list[Clause]:
    clauses: list[Clause] = []
    path: dict[int, str] = {}
    order: list[str] = []   # the kinds of marker in the order the section first uses them: its levels
    count = 0
    paragraphs, notes = _history(_paragraphs(body))
    pieces = [piece.strip() for paragraph in paragraphs for piece in _RUN_IN.split(paragraph) if piece.strip()]
    pieces, copies = _first_copy(pieces)
    for paragraph in pieces:
        found = _PARAGRAPH.match(paragraph)
        if found:
            markers = []
            while found:   # (2)(a) Except ...: the item (a) of (2), which has no words of its own
                markers.append(found.group("m"))
                paragraph = paragraph[found.end():]
                found = _PARAGRAPH.match(paragraph)
            for marker in markers:
                kind = _kind(marker, path, order)
                if kind not in order:
                    order.append(kind)
                level = order.index(kind)
                path = {k: v for k, v in path.items() if k < level}
                path[level] = marker
            clause_id = section + "".join(f"({path[k]})" for k in sorted(path))
            clauses.append(Clause(clause_id, f"{heading}: ({markers[-1]})" if heading else f"({markers[-1]})",
                                  paragraph, numbering,
                                  ["heading: the section's, with the paragraph's marker; give it its own"]))
        elif not clauses:
            clauses.append(Clause(section, heading or "TODO", paragraph, numbering))
        else:
            count += 1
            clauses.append(Clause(f"{section}¶{count + 1}", heading or "TODO", paragraph, "reconstructed",
                                  ["an unnumbered paragraph after numbered ones: its id is ours"]))
    if clauses:
        clauses[0].review[:0] = [*(review or []), *copies,
                                 *(f"a history or editor's note, not a clause: {note}" for note in notes)]
    return clauses


def _marked_section(marker: re.Match, body: list[str]) -> list[Clause]:
    """A section under a `=== [ID] Heading` marker. The id may carry the heading (`70.108.010 - Legislative
    declaration.`, cut short by the scraper); the body may open with the citation (`RCW 70.108.010`), the title
    and chapter, the heading on a line of its own, or the number and heading run into the words
    (`316.150. Definitions. —As used in ...`)."""
    raw = marker.group("id").strip()
    numbered = re.match(r"(?P<n>\d+(?:[.-]\d+)+[A-Za-z]?)\s*(?:-\s+(?P<h>.*))?$", raw)
    section = numbered.group("n") if numbered else raw.rstrip(". ")
    heading = ((numbered.group("h") if numbered and numbered.group("h") else "") or marker.group("heading")).rstrip(". ")
    review = []
    contents = re.search(r"(?<=[a-z.])Section \d", heading)
    if contents:   # the chapter's table of contents run into the first heading
        heading = heading[:contents.start()].rstrip(". ")
        review.append("the marker's heading ran on into a table of contents, cut off here")
    if body and body[0].startswith(section):   # the section's own first line: its heading as printed
        heading = body[0][len(section):].strip(" .") or heading
        body = body[1:]
    paragraphs = _paragraphs(body)
    while len(paragraphs) > 1:   # a section of one paragraph is its words, even when they repeat its heading
        first = paragraphs[0]
        if _HEADER.match(first) or re.fullmatch(rf"[A-Z][\w.]*\s+{re.escape(section)}\.?", first):
            paragraphs.pop(0)
        elif heading and first.rstrip(". ") != heading and first.startswith(heading) and len(first) < 200:
            heading = first.rstrip(". ")   # the heading in full, where the marker cut it short
            paragraphs.pop(0)
        elif heading and first.rstrip(". ") == heading:
            paragraphs.pop(0)
        else:
            break
    if paragraphs and paragraphs[0].startswith(section):
        run_in = re.match(rf"{re.escape(section)}\.?\s+(?P<h>.{{1,200}}?)\.\s*—\s*(?P<rest>.*)$", paragraphs[0])
        if run_in:
            heading = run_in.group("h")
            paragraphs[0] = run_in.group("rest")
    lines = [line for paragraph in paragraphs for line in (paragraph, "")]
    return _split_section(section, heading, lines, "printed", review)


def split(text: str) -> list[Clause]:
    """The clauses of an ordinance's text, by its own numbering where it has one."""
    lines = text.splitlines()
    marks = [i for i, line in enumerate(lines) if _MARKER.match(line)]
    if marks:
        clauses: list[Clause] = []
        for begin, end in zip(marks, marks[1:] + [len(lines)]):
            clauses += _marked_section(_MARKER.match(lines[begin]), lines[begin + 1:end])
        return clauses
    # No section markers: numbers that open a paragraph start a section; the rest are numbered by us.
    clauses = []
    section, heading, body, number = None, "", [], 0
    sections: list[tuple[str | None, str, list[str]]] = []
    for paragraph in _paragraphs(lines):
        found = _SECTION.match(paragraph)
        if found:
            sections.append((section, heading, body))
            section = next(g for g in found.groups() if g)
            heading = _fold(paragraph[found.end():])[:80]
            body = [paragraph[found.end():].strip(), ""]
        else:
            body += [paragraph, ""]
    sections.append((section, heading, body))
    for section, heading, body in sections:
        if not body:
            continue
        if section is None:
            for paragraph in _paragraphs(body):
                number += 1
                clauses.append(Clause(f"p{number}", "TODO", paragraph, "reconstructed",
                                      ["a paragraph the text does not number: its id is ours"]))
            continue
        clauses += _split_section(section, heading, body, "printed")
    return clauses


def _unique(clauses: list[Clause]) -> list[Clause]:
    seen: dict[str, int] = {}
    for clause in clauses:
        if clause.id in seen:
            seen[clause.id] += 1
            clause.id = f"{clause.id}~{seen[clause.id]}"
            clause.numbering = "reconstructed"
            clause.review.append("the text numbers two paragraphs alike: one id is ours")
        else:
            seen[clause.id] = 1
    return clauses


def registry_text(name: str, text_file: Path, clauses: list[Clause], listed: int) -> str:
    head = [
        f"ordinance: {name}",
        f"listed: {listed}  # where the ordinance stands in every listing (after those adopted before it)",
        "time_zone: America/Chicago  # TODO: the ordinance's own clock (an IANA zone); durations count elapsed time in it",
        "extent: [0, 0, 0, 0]  # TODO: south, north, west, east in degrees (west negative), a little wider than the land",
        "jurisdiction: TODO  # the county, town, village or state, as the text names it",
        "level: TODO  # county, town, village or state",
        "adopting_body: TODO  # the board or legislature that adopted the text",
        "title: TODO  # the text's own title",
        "history: TODO  # the adoption and amendment line, as printed",
        f"source: {text_file.name}  # the text's file as published; encodings/{name}.txt is its copy",
        "authority: TODO  # who issues the permit or license",
        "permit_term: permit  # TODO: permit, license, ... as the text says",
        "numbering_notes:",
        "- 'TODO: how ids follow the text: printed section numbers, paragraphs (a), (i), (A), (1); ids marked",
        "  reconstructed are ours.'",
        "# versions:  TODO: the versions the text dates (see docs/adding-an-ordinance.md, \"Versions\")",
        "clauses:",
    ]
    body = []
    for clause in clauses:
        notes = "; ".join(["split from the text by its numbering: check the id, heading and words", *clause.review])
        entry = {"id": clause.id, "heading": clause.heading, "numbering": clause.numbering, "text": clause.text}
        body.append(f"# REVIEW: {notes}")
        body.append(yaml.safe_dump([entry], allow_unicode=True, sort_keys=False, width=110).rstrip("\n"))
    tail = ["interpretations: []  # one per reading the text leaves open: {id, clause, text}"]
    return "\n".join(head + body + tail) + "\n"


def _quote(clause: Clause, words: int = 24) -> str:
    """The clause's first words for its `% §` header, quoted when they hold no quotation mark of their own."""
    if any(mark in clause.text for mark in '"“”'):
        return clause.heading
    split_words = clause.text.split()
    shown = " ".join(split_words[:words]) + (" ..." if len(split_words) > words else "")
    return f'"{shown}"'


def _comment(text: str, width: int = 100) -> list[str]:
    lines, current = [], "%"
    for word in text.split():
        if len(current) + 1 + len(word) > width and current != "%":
            lines.append(current)
            current = "%"
        current += " " + word
    return lines + [current]


def encoding_text(name: str, text_file: Path, clauses: list[Clause]) -> str:
    first = clauses[0].id if clauses else "ID"
    lines = [
        "% =====================================================================",
        "% TODO jurisdiction -- TODO title",
        "% History: TODO (the adoption and amendment line)",
        f"% Source: encodings/{name}.txt (published as {text_file.name})",
        f"% Registry: encodings/{name}.yaml (clause words, interpretations, versions)",
        f"% Helper predicates carry the prefix {name}_.",
        "% =====================================================================",
        "%",
        "% The conventions, by example (docs/adding-an-ordinance.md); replace them with the law's rules:",
        "% every number a param/4 fact with its clause, stated once:",
        f'%   param({name}, attendance_threshold, 2000, "{first}").',
        "% what the ordinance reaches, with a %@ sentence above the rule:",
        "%   %@ {N} people at the peak is at least the threshold of {T}.",
        f"%   {name}_large(E) :- attendance(E,N), param({name}, attendance_threshold, T, _), N >= T.",
        f'%   regulated({name},E,"{first}") :- {name}_large(E).',
        "% each condition's reason, on both sides (encodings/vocabulary.yaml `reasons`):",
        f'%   reason({name},E,attendance_at_least,yes,N,T,"{first}") :- attendance(E,N), param({name}, attendance_threshold, T, _), N >= T.',
        f'%   reason({name},E,attendance_at_least,no,N,T,"{first}") :- attendance(E,N), param({name}, attendance_threshold, T, _), N < T.',
        "% each reading the text leaves open, an interpretation in the registry and a note here:",
        f'%   note({name},E,peak_counts,"{first}") :- regulated({name},E,_).',
        "",
    ]
    for clause in clauses:
        lines.append("")
        lines += _comment(f"§ {clause.id} {_quote(clause)}")
        lines.append("% TODO: encode, or give the clause a `reason` in the registry (non-operative: `operative: false`).")
    return "\n".join(lines) + "\n"


def scenario_text(name: str) -> str:
    return (f"ordinance: {name}\n"
            "# The base event; each case changes only what its sentence is about, and every threshold has a case\n"
            "# on each side of it (docs/adding-an-ordinance.md).\n"
            "base:\n"
            "  id: base\n"
            "  attendance: {expected_max: 3000}\n"
            "  schedule: {start: 2027-07-17T10:00, end: 2027-07-17T23:00}\n"
            "cases: []\n")


def targets(root: Path, name: str) -> dict[str, Path]:
    return {"text": root / "encodings" / f"{name}.txt", "registry": root / "encodings" / f"{name}.yaml",
            "encoding": root / "encodings" / f"{name}.lp", "scenarios": root / "tests" / "scenarios" / f"{name}.yaml"}


def scaffold(name: str, text_file: Path, root: Path, taken: tuple[str, ...], listed: int) -> dict[str, Path]:
    """Write the four files under `root` (a checkout); refuses a bad or taken name and files that exist."""
    check_name(name, taken)
    paths = targets(root, name)
    # The text may already stand where it belongs; the other files may not.
    in_place = paths["text"].exists() and paths["text"].resolve() == text_file.resolve()
    existing = [str(path) for key, path in paths.items() if path.exists() and not (key == "text" and in_place)]
    if existing:
        raise ScaffoldError(f"{', '.join(existing)} already exist(s); {name!r} is taken")
    try:
        text = read_text_bounded(text_file, "an ordinance's text")
    except RefusedFile as error:
        raise ScaffoldError(f"{text_file}: {error}") from None
    clauses = _unique(split(text))
    for path in paths.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    if not in_place:
        paths["text"].write_text(text, encoding="utf-8")
    paths["registry"].write_text(registry_text(name, text_file, clauses, listed), encoding="utf-8")
    paths["encoding"].write_text(encoding_text(name, text_file, clauses), encoding="utf-8")
    paths["scenarios"].write_text(scenario_text(name), encoding="utf-8")
    return paths
