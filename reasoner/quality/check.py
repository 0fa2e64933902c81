"""`reasoner check`: lint the encodings and the clause registries, ordinance by ordinance.

What must hold (each failure is a Problem naming the file, the line or clause, and what is wrong):

- clingo grounds vocabulary.lp + the encoding + sample facts without a single message: no undefined
  atom (a predicate no rule or fact defines), no undefined operation, no unsafe variable;
- every conclusion a rule can derive cites a clause registered for its own ordinance: checked in each
  rule head, and again on every atom the grounding can derive from the sample facts (clause ids that
  flow in through variables);
- every registered clause is encoded (some rule or fact of the encoding cites it) or carries a
  `reason` (non-operative, or how it is covered without rules of its own);
- every number the ordinance states is a param/4 fact, declared once, with a registered clause;
  numbers inside rules are only 0, 1 and unit conversions;
- every interpretation note names a registered clause, is emitted, and the note/4 rule cites the
  same clause the registry names;
- names reaching the event vocabulary are spelled as in encodings/vocabulary.yaml (a misspelt
  `event_kind(E,festivall)` grounds silently and never holds);
- every rule stands under a registered `% §` clause header, a conclusion written with a clause id cites its
  header's (a finer clause comes from a table, through a variable), and every `{Variable}` of its `%@`
  sentence is a variable of the rule.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from reasoner.law.conventions import folded
from reasoner.law.rules import Encoding, EncodingSyntaxError, encoding, parse
from reasoner.law.rules import constant as _constant
from reasoner.law.schema import INPUT, OUTPUT, PARAM, PARAM_FACT, SHOWN, enumerated_arguments
from reasoner.law.locator import encoded_ordinances, registry_path
from reasoner.law.ordinances import unfinished_metadata
from reasoner.law.vocabulary import names

# Numbers a rule may write itself: they convert units, they state nothing the ordinance says.
UNIT_CONVERSIONS = {0: "zero", 1: "one", 2: "halves", 10: "tenths", 24: "hours per day", 60: "minutes per hour",
                    100: "percent", 1440: "minutes per day"}

# The enumerated argument of each input predicate, and the vocabulary section it draws from; and the output
# arguments that must be vocabulary names too (obligations join across ordinances by name).
ENUMERATED_INPUTS = {key: section for key, section in enumerated_arguments().items() if key[0] in INPUT}
ENUMERATED_OUTPUTS = {key: section for key, section in enumerated_arguments().items() if key[0] not in INPUT}
EXTRA_NAMES = {"event_flags": {"insurance_names_government"}}  # written by atoms.py from the insurance section


@dataclass(frozen=True)
class Problem:
    ordinance: str
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass
class Report:
    ordinance: str
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    not_encoded: dict[str, str] = field(default_factory=dict)  # operative clause id -> its reason

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {"ordinance": self.ordinance, "ok": self.ok, "counts": self.counts,
                "operative_not_encoded": self.not_encoded, "problems": [asdict(p) for p in self.problems]}


# ---------------------------------------------------------------- reading the encodings

# What a %@ sentence may write besides a law's numbers: quotations of the text, placeholders, clause ids
# (6.01(2)(a), 177-8, 6-17A, 5.health-2, item 6.02(a)15) and section numbers.
_NOT_A_STATED_NUMBER = re.compile(r'"[^"]*"|\{[^}]*\}|\b\d+(?:[.-]\d+)*[A-Z]?(?:\([a-z0-9]+\))+\d*|\b\d+-\d+[A-Z]?'
                                  r'|\b\d+\.[a-z][\w-]*|\b(?:[Ss]ection|[Cc]hapter|item|§) \d+')


def stated_in_sentence(label: str) -> set[int]:
    """The numbers a %@ sentence writes as its own words (not quoted, not a placeholder, not a clause id)."""
    text = re.sub(r"\b\d+\.\d+\b", " ", _NOT_A_STATED_NUMBER.sub(" ", label))  # decimals are no counts
    return {int(n.replace(",", "")) for n in re.findall(r"\b\d{1,3}(?:,\d{3})+\b|\b\d+\b", text)}


def read_encoding(name: str, root: Path | None = None) -> Encoding:
    """An encoding from the package (or from `root`/encodings, for testing the check itself)."""
    return parse(name, root / "encodings" / f"{name}.lp") if root else encoding(name)


# ---------------------------------------------------------------- sample facts

def _input_signatures(events: Sequence) -> set[tuple[str, int]]:
    from reasoner.events.atoms import event_atoms

    return {(a.name, len(a.arguments)) for index, e in enumerate(events, start=1) for a in event_atoms(index, e)}


# ---------------------------------------------------------------- the checks

class _Checker:
    def __init__(self, ordinance: str, vocabulary_encoding: Encoding, events: Sequence, inputs: set[tuple[str, int]],
                 root: Path | None = None):
        self.ordinance = ordinance
        self.root = root
        self.vocabulary = vocabulary_encoding
        self.events = events
        self.inputs = inputs
        self.report = Report(ordinance)
        self.shown = set(vocabulary_encoding.shown)
        self.enc: Encoding | None = None

    @property
    def stated(self) -> dict[int, str]:
        """{number: param name} of this ordinance's param facts, as its encoding writes them."""
        found: dict[int, str] = {}
        for statement in self.enc.statements if self.enc else ():
            if statement.predicate == (PARAM, PARAM_FACT.arity) and not statement.body:
                head = statement.head_atom
                value, name = _constant(PARAM_FACT.argument(head, "value")), _constant(PARAM_FACT.argument(head, "name"))
                if value is not None and value.type == clingo.SymbolType.Number and value.number > 1:
                    found.setdefault(value.number, str(name))
        return found

    def problem(self, where: str, what: str) -> None:
        self.report.problems.append(Problem(self.ordinance, where, what))

    def run(self) -> Report:
        registry_data = self._registry()
        try:
            self.enc = read_encoding(self.ordinance, self.root)
        except (OSError, EncodingSyntaxError) as error:
            self.problem(f"encodings/{self.ordinance}.lp", f"cannot be parsed: {error}")
            return self.report
        if registry_data is None:
            return self.report
        clauses, interpretations = registry_data
        # a note names an interpretation, or the alternative reading it states when that reading is chosen
        by_note = {**interpretations, **{a["id"]: i for i in interpretations.values() for a in i.get("alternatives") or ()}}
        self._heads(clauses, by_note)
        self._parameters(clauses)
        self._clauses(clauses)
        self._interpretations(clauses, interpretations)
        self._readings(interpretations)
        self._names()
        self._helpers()
        self._labels(clauses)
        self._ground(clauses, by_note)
        return self.report

    # -- the registry file itself

    def _registry(self) -> tuple[dict[str, dict], dict[str, dict]] | None:
        """The registry as reasoner.law.registry's one model reads it, with every problem it finds."""
        from reasoner.law import registry as registries

        where = f"encodings/{self.ordinance}.yaml"
        file = (self.root / "encodings" / f"{self.ordinance}.yaml") if self.root else registry_path(self.ordinance)
        found, problems = registries.read(file, self.ordinance, where)
        for place, what in problems:
            self.problem(place, what)
        if found is None:
            return None
        undone = unfinished_metadata(found.metadata.model_dump())
        if undone:
            self.problem(where, f"the metadata is unfinished ({'; '.join(undone)}): until it is done, "
                                f"{self.ordinance} is not encoded yet and no command evaluates it")
        return ({cid: clause.model_dump() for cid, clause in found.clauses.items()},
                {iid: reading.model_dump() for iid, reading in found.interpretations.items()})

    # -- conclusions in rule heads

    def _heads(self, clauses: dict[str, dict], interpretations: dict[str, dict]) -> None:
        assert self.enc is not None
        own = clingo.Function(self.ordinance)
        for statement in self.enc.statements:
            if statement.predicate not in self.shown:
                continue
            where = self.enc.at(statement.line)
            name = statement.predicate[0]
            spec = SHOWN[statement.predicate]
            first, last = spec.argument(statement.head_atom, "ordinance"), spec.argument(statement.head_atom, "clause")
            if _constant(first) != own:
                self.problem(where, f"{name}/{statement.predicate[1]} is concluded for {first}, not for {self.ordinance}")
            clause = _constant(last)
            if clause is None:
                if last.ast_type != ast.ASTType.Variable:
                    self.problem(where, f"{name}/{statement.predicate[1]} cites {last}, which is not a clause id")
                continue  # a clause bound by a variable is checked on the ground atoms
            if clause.type != clingo.SymbolType.String:  # quoted ids that are not registered: see _clauses
                self.problem(where, f"{name}/{statement.predicate[1]} cites {clause}, not a quoted clause id")
            header = self.enc.header_of(statement.line)
            if clause.type == clingo.SymbolType.String and header and header != clause.string:
                # the block's clause is stated once, in its header; a finer clause comes from a table (a variable)
                self.problem(where, f"{name}/{statement.predicate[1]} cites {clause.string!r} under the `% §` header of "
                                    f"{header!r}: open a block for {clause.string!r}, or take the clause from a table")
            if name == "note":
                written = spec.argument(statement.head_atom, "name")
                note = _constant(written)
                registered = interpretations.get(note.name) if note is not None and note.type == clingo.SymbolType.Function else None
                if registered is None:
                    self.problem(where, f"note {written} is not a registered interpretation")
                elif clause.type == clingo.SymbolType.String and str(registered.get("clause")) != clause.string:
                    self.problem(where, f"note {note.name} cites {clause.string!r}; the registry names {registered.get('clause')!r}")

    # -- numbers

    def _parameters(self, clauses: dict[str, dict]) -> None:
        assert self.enc is not None
        declared: dict[str, int] = {}
        own = clingo.Function(self.ordinance)
        for statement in self.enc.statements:
            where = self.enc.at(statement.line)
            if statement.predicate == ("param", 4):
                if statement.body:
                    self.problem(where, "param/4 is derived by a rule; a parameter is stated as a fact")
                head = statement.head_atom
                owner, label, value, clause = (_constant(PARAM_FACT.argument(head, role)) for role in PARAM_FACT.roles)
                if owner != own:
                    self.problem(where, f"param/4 declared for {PARAM_FACT.argument(head, 'ordinance')}, not for {self.ordinance}")
                if label is None or label.type != clingo.SymbolType.Function:
                    self.problem(where, f"param/4 name {PARAM_FACT.argument(head, 'name')} is not a constant")
                    continue
                if value is None or value.type != clingo.SymbolType.Number:
                    self.problem(where, f"param {label.name} has value {PARAM_FACT.argument(head, 'value')}, not a number")
                if clause is None or clause.type != clingo.SymbolType.String:
                    self.problem(where, f"param {label.name} states no clause id")
                elif clause.string not in clauses:
                    self.problem(where, f"param {label.name} cites clause {clause.string!r}, which is not registered")
                if label.name in declared:
                    self.problem(where, f"param {label.name} is declared twice (first at line {declared[label.name]})")
                else:
                    declared[label.name] = statement.line
                continue
            numbers = {c.number for c in statement.constants if c.type == clingo.SymbolType.Number}
            for number in sorted(numbers):
                # (T+9)/10 rounds tenths up: the 9 belongs to the conversion.
                if number not in UNIT_CONVERSIONS and not (number + 1 in UNIT_CONVERSIONS and number + 1 in numbers):
                    self.problem(where, f"the number {number} is written into a rule; state it once as param/4 with its clause")
        self.report.counts["parameters"] = len(declared)
        read = {str(_constant(PARAM_FACT.argument(t, "name"))) for s in self.enc.statements if s.predicate != (PARAM, 4)
                for t, _ in s.atoms if t.name == PARAM and len(t.arguments) == PARAM_FACT.arity
                and _constant(PARAM_FACT.argument(t, "name"))}
        # A parameter no rule reads is still shown with its clause (e.g. a fact the output reports).
        self.report.counts["parameters_not_read_by_rules"] = len(set(declared) - read)

    # -- clauses: encoded, or a reason

    def _clauses(self, clauses: dict[str, dict]) -> None:
        assert self.enc is not None
        cited = self.enc.cited()
        headers = self.enc.headers()
        for missing in sorted(cited - set(clauses)):
            lines = [s.line for s in self.enc.statements
                     if missing in s.strings()]
            self.problem(self.enc.at(lines[0]), f"cites clause {missing!r}, which is not registered")
        counts = defaultdict(int)
        for cid, item in clauses.items():
            reason = str(item.get("reason") or "").strip()
            if cid in cited or cid in headers:
                counts["encoded"] += 1
            elif item.get("operative", True) is False:
                counts["non_operative"] += 1
            elif reason:
                counts["operative_not_encoded"] += 1
                self.report.not_encoded[cid] = reason
            else:
                self.problem(f"encodings/{self.ordinance}.yaml: clause {cid}",
                             "is neither cited by the encoding nor marked non-operative with a reason")
        self.report.counts.update(clauses=len(clauses), **counts)

    def _interpretations(self, clauses: dict[str, dict], interpretations: dict[str, dict]) -> None:
        assert self.enc is not None
        emitted = set()
        for statement in self.enc.statements:
            if statement.predicate == ("note", OUTPUT["note"].arity):
                note = _constant(OUTPUT["note"].argument(statement.head_atom, "name"))
                if note is not None:
                    emitted.add(str(note))
        for nid, entry in interpretations.items():
            for name in (nid, *(a["id"] for a in entry.get("alternatives") or ())):
                if name not in emitted:
                    what = "interpretation" if name == nid else f"alternative reading of {nid}"
                    self.problem(f"encodings/{self.ordinance}.yaml: {what} {name}", "is never emitted by a note/4 rule")
        self.report.counts["interpretations"] = len(interpretations)

    def _readings(self, interpretations: dict[str, dict]) -> None:
        """Every reading a rule reads is registered, and every registered reading is read by some rule: an
        alternative no rule reads would change nothing when chosen."""
        assert self.enc is not None
        read: set[tuple[str, str]] = set()
        for statement in self.enc.statements:
            for term, _ in statement.atoms:
                if term.name != "reading" or len(term.arguments) != 3:
                    continue
                ordinance, interpretation, reading = (_constant(a) for a in term.arguments)
                where = self.enc.at(statement.line)
                if ordinance != clingo.Function(self.ordinance) or interpretation is None or reading is None:
                    self.problem(where, f"reads {term}: a reading names this ordinance, an interpretation and a reading")
                    continue
                entry = interpretations.get(str(interpretation))
                if entry is None or str(reading) not in (entry.get("reading"), *(a["id"] for a in entry.get("alternatives") or ())):
                    self.problem(where, f"reads {term}, which the registry does not record as a reading of "
                                        f"{interpretation}")
                read.add((str(interpretation), str(reading)))
        choices = 0
        for nid, entry in interpretations.items():
            if not entry.get("reading"):
                continue
            choices += 1
            for name in (a["id"] for a in entry.get("alternatives") or ()):  # the default may need no rule of its own
                if (nid, name) not in read:
                    self.problem(f"encodings/{self.ordinance}.yaml: interpretation {nid}",
                                 f"records the reading {name}, which no rule reads")
        self.report.counts["choices_between_readings"] = choices
        # issue 29's review: each interpretation either chooses between readings or says why it chooses nothing
        unreviewed = [nid for nid, entry in interpretations.items()
                      if not entry.get("reading") and not entry.get("chooses_nothing")]
        for nid in unreviewed:
            self.problem(f"encodings/{self.ordinance}.yaml: interpretation {nid}",
                         "is not reviewed: it neither chooses between readings (`reading:` and `alternatives:`) nor "
                         "says why it chooses nothing (`chooses_nothing:`)")
        self.report.counts["interpretations_not_reviewed"] = len(unreviewed)

    # -- vocabulary names

    def _helpers(self) -> None:
        """A helper predicate (no shared input or output, not one vocabulary.lp leaves to the ordinances)
        carries its ordinance's prefix, so that no two ordinances share a helper in one program."""
        assert self.enc is not None
        shared = self.shown | self.inputs | self.ordinance_supplied() | {("param", 4)}
        for statement in self.enc.statements:
            if statement.predicate is None or statement.predicate in shared or statement.predicate[0].startswith(f"{self.ordinance}_"):
                continue
            self.problem(self.enc.at(statement.line), f"the helper predicate {statement.predicate[0]}/{statement.predicate[1]} "
                                                      f"should be named {self.ordinance}_{statement.predicate[0]}")

    def _names(self) -> None:
        assert self.enc is not None
        known = {section: set(names(section)) | EXTRA_NAMES.get(section, set())
                 for section in set(ENUMERATED_INPUTS.values()) | set(ENUMERATED_OUTPUTS.values())}
        typed: dict[tuple[str, int, int], str] = {}  # helper predicate arguments joined with an enumerated input
        for statement in self.enc.statements:
            where = self.enc.at(statement.line)
            atoms = list(statement.atoms)
            for term, _ in atoms:
                for position, argument in enumerate(term.arguments):
                    section = ENUMERATED_INPUTS.get((term.name, len(term.arguments), position))
                    if section is None:
                        continue
                    value = _constant(argument)
                    if value is not None and str(value) not in known[section]:
                        self.problem(where, f"{term.name}(…,{value},…) can never hold: {value} is not in {section} of vocabulary.yaml")
                    if argument.ast_type == ast.ASTType.Variable:
                        for other, positive in atoms:
                            if not positive or (other.name, len(other.arguments)) in self.inputs:
                                continue
                            for j, other_argument in enumerate(other.arguments):
                                if other_argument.ast_type == ast.ASTType.Variable and other_argument.name == argument.name:
                                    typed[(other.name, len(other.arguments), j)] = section
            if statement.predicate is not None:
                for position, argument in enumerate(statement.head_args):
                    section = ENUMERATED_OUTPUTS.get((*statement.predicate, position))
                    value = _constant(argument)
                    if section and value is not None and str(value) not in known[section]:
                        self.problem(where, f"{statement.predicate[0]} names {value}, which is not in {section} of vocabulary.yaml")
        for statement in self.enc.statements:
            if statement.predicate is None:
                continue
            for position, argument in enumerate(statement.head_args):
                section = typed.get((*statement.predicate, position))
                value = _constant(argument)
                if section and value is not None and value.type == clingo.SymbolType.Function and str(value) not in known[section]:
                    self.problem(self.enc.at(statement.line),
                                 f"{statement.predicate[0]}(…,{value},…) is matched against {section}, but {value} is not in vocabulary.yaml")

    # -- clause headers and explanation sentences

    def _labels(self, clauses: dict[str, dict]) -> None:
        assert self.enc is not None
        rules = 0
        for statement in self.enc.statements:
            where = self.enc.at(statement.line)
            clause = self.enc.header_of(statement.line)
            if statement.body:
                rules += 1
            if clause is None:
                self.problem(where, "stands under no `% §` clause header")
            elif clause not in clauses:
                self.problem(where, f"stands under `% § {clause}`, which is not registered")
            variables = statement.every_variable
            label = self.enc.label_of(statement.line) or ""
            for placeholder in re.findall(r"\{([A-Z][A-Za-z0-9_]*)(?::\w+)?\}", label):
                if placeholder not in variables:
                    self.problem(where, f"the %@ sentence names {{{placeholder}}}, which is not a variable of the rule")
            for number in stated_in_sentence(label) & set(self.stated):
                self.problem(where, f"the %@ sentence writes {number:,}, which param {self.stated[number]} states: "
                                    "name it with a variable of the rule")
        self.report.counts["rules"] = rules
        self.report.counts["facts"] = len(self.enc.statements) - rules
        for header in self.enc.annotations.headers:
            registered = clauses.get(header.clause)
            words = folded(str(registered.get("text", ""))).lower() if registered else None
            for quotation in header.quotations() if words is not None else ():
                if folded(quotation).lower() not in words:
                    self.problem(self.enc.at(header.line), f"quotes {quotation!r}, which is not in the registered words "
                                                           f"of {header.clause}")

    # -- grounding: clingo's own messages, and every derivable conclusion

    def ordinance_supplied(self) -> set[tuple[str, int]]:
        """Predicates vocabulary.lp reads and leaves to the ordinances to define."""
        heads = {s.predicate for s in self.vocabulary.statements if s.predicate}
        used = {(t.name, len(t.arguments)) for s in self.vocabulary.statements for t, _ in s.atoms}
        return used - heads - self.inputs

    def _ground(self, clauses: dict[str, dict], interpretations: dict[str, dict]) -> None:
        from reasoner.program import Program, SolveTimeout

        messages: list[str] = []

        def log(code: clingo.MessageCode, message: str) -> None:
            messages.append(message.strip())

        # An ordinance need not conclude every kind of output (Vermont states no permit count).
        supplied = self.ordinance_supplied() | self.shown
        defined = "".join(f"#defined {name}/{arity}." for name, arity in sorted(supplied))
        program = None
        try:
            program = Program([self.ordinance], options=["--warn=all"], files=[self.vocabulary.file, self.enc.file],
                              logger=log)
            program.add(defined).add_events(list(self.events)).ground()
        except SolveTimeout:
            raise   # --time-limit passed: no verdict, not a defect of the encoding
        except RuntimeError as error:
            messages.append(f"grounding failed: {error}")
        for message in messages:
            where, text = self._where(message)
            self.problem(where, "clingo: " + " ".join(text.split()))
        if program is None or any(m.startswith("grounding failed") for m in messages):
            return
        control = program.control
        if program.first_model() is None:
            self.problem(self.enc.path if self.enc else self.ordinance, "the program has no answer set for the sample facts")
        own = clingo.Function(self.ordinance)
        cited = self.enc.cited()  # a quoted clause id that is not registered is reported where it is written
        foreign = {(s.predicate, str(_constant(SHOWN[s.predicate].argument(s.head_atom, "ordinance"))))
                   for s in self.enc.statements if s.predicate in self.shown}
        derivable = 0
        for name, arity in sorted(self.shown):
            for atom in control.symbolic_atoms.by_signature(name, arity):
                symbol = atom.symbol
                derivable += 1
                where = f"{self.enc.path if self.enc else self.ordinance} (ground: {symbol})"
                spec = SHOWN[(name, arity)]
                owner = spec.argument(symbol, "ordinance")
                if owner != own and ((name, arity), str(owner)) not in foreign:
                    self.problem(where, f"a conclusion for {owner}, not for {self.ordinance}")
                clause = spec.argument(symbol, "clause")
                if clause.type != clingo.SymbolType.String or (clause.string not in clauses and clause.string not in cited):
                    self.problem(where, f"cites {clause}, which is not a registered clause")
                if name == "note":
                    note = OUTPUT["note"].argument(symbol, "name")
                    registered = interpretations.get(str(note))
                    if registered is None:
                        self.problem(where, f"note {note} is not a registered interpretation")
                    elif clause.type == clingo.SymbolType.String and str(registered.get("clause")) != clause.string:
                        self.problem(where, f"note cites {clause.string!r}; the registry names {registered.get('clause')!r}")
        self.report.counts["derivable_conclusions_sampled"] = derivable

    def _where(self, message: str) -> tuple[str, str]:
        """(file:line, message without the file's full path) for one of clingo's messages."""
        match = re.match(r"(\S+?\.lp):(\d+)(?::[\d-]+)?:\s*(.*)", message, flags=re.S)
        if not match:
            return (self.enc.path if self.enc else self.ordinance), message
        name = match.group(1).rsplit("/", 1)[-1]
        return f"encodings/{name}:{match.group(2)}", match.group(3)


def check(ordinances: Sequence[str] | None = None, root: Path | None = None) -> list[Report]:
    """Lint the chosen (default: every encoded) ordinance's encoding and registry; `root` stands in for the
    checkout (holding encodings/) when the check itself is tested."""
    chosen = tuple(ordinances) if ordinances else encoded_ordinances()
    from reasoner.events.samples import sample_events  # the event model is built only when a check runs

    vocabulary_encoding = read_encoding("vocabulary", root)
    events = sample_events()
    inputs = _input_signatures(events)
    return [_Checker(name, vocabulary_encoding, events, inputs, root).run() for name in chosen]
