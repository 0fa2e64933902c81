"""Every conclusion an ordinance can produce, read off its encoding: the output atoms its rules can derive
when grounded with the sample events `reasoner check` uses (each input predicate and vocabulary name stated),
named as `evaluate` names them, with their kind, unit and clauses (reasoner/law/schema.py). Grounding the samples
takes about a second for all the ordinances, so the answer is kept between runs (reasoner/law/datacache.py) while
the law's files and the package's code are unchanged: the batch's workers read their CSV columns from it."""
from __future__ import annotations

from functools import cache
from typing import Any

import clingo

from reasoner.law.schema import KIND_ORDER, OUTPUTS


@cache
def catalog(ordinance: str) -> tuple[dict[str, Any], ...]:
    """[{name, kind, unit, clauses}] in the order a record lists kinds, then by name."""
    from pathlib import Path

    from reasoner.law.datacache import cached
    from reasoner.law.locator import encodings_folder

    package = Path(__file__).parent.parent
    sources = sorted(p for p in encodings_folder().iterdir() if p.is_file()) + sorted(package.rglob("*.py")) \
        + sorted(package.glob("*.lp"))
    return cached(f"catalog-{ordinance}", sources, __name__, lambda: _catalog(ordinance), version=clingo.__version__)


def _catalog(ordinance: str) -> tuple[dict[str, Any], ...]:
    from reasoner.events.samples import sample_events
    from reasoner.conclusions import read_atom, unit_of
    from reasoner.law.vocabulary import names
    from reasoner.program import Program

    events = sample_events()
    # and each filed late with nothing in it and every condition imposed, which no sample is: lateness, missing
    # items and the duties an authority imposes
    for index, sample in enumerate(list(events)):
        if sample.application is not None:
            application = sample.application.model_copy(update={"filed": sample.schedule.start.date(), "contents": []})
            events.append(sample.model_copy(update={"id": f"sample-late-{index}", "application": application,
                                                    "imposed_conditions": list(names("obligations"))}))
    program = Program([ordinance]).add_events(events).ground()
    own = clingo.Function(ordinance)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for output in OUTPUTS:
        for atom in program.control.symbolic_atoms.by_signature(output.predicate, output.arity):
            if output.argument(atom.symbol, "ordinance") != own:
                continue
            read = read_atom(atom.symbol)
            if read is None:
                continue
            item = read[2]
            entry = found.setdefault((output.kind, item["name"]), {"name": item["name"], "kind": output.kind,
                                                                   "units": set(), "clauses": set()})
            if item["unit"]:
                entry["units"].add(item["unit"])
            entry["clauses"].update(item["clauses"])
    # and every head that names its conclusion and clause as constants, derivable from the samples or not
    from clingo import ast

    from reasoner.law.rules import encoding

    outputs = {(o.predicate, o.arity): o for o in OUTPUTS}
    for rule in encoding(ordinance).rules():
        output = outputs.get(rule.predicate)
        if output is None:
            continue
        head = rule.head_atom
        written = [output.argument(head, role) for role in (("name", "clause") if output.named else ("clause",))]
        if not all(a.ast_type == ast.ASTType.SymbolicTerm for a in written):
            continue
        name = str(written[0].symbol) if output.named else output.predicate
        entry = found.setdefault((output.kind, name), {"name": name, "kind": output.kind, "units": set(), "clauses": set()})
        unit = output.unit or (unit_of(name) if output.kind == "obligation" else None)
        if unit:
            entry["units"].add(unit)
        entry["clauses"].add(written[-1].symbol.string)
    # The shared vocabulary's rules derive these from any conclusion of the other kind (vocabulary.lp):
    # a required item may be missing, a deadline met or missed, a duty stated to be unmet, and what an ordinance
    # regulates needs a permit when no exemption applies (whether or not a sample event is regulated).
    if ("regulated", "regulated") in found:
        copy = found.setdefault(("permit_required", "permit_required"),
                                {"name": "permit_required", "kind": "permit_required", "units": set(), "clauses": set()})
        copy["clauses"] |= found[("regulated", "regulated")]["clauses"]
    for (kind, name), entry in list(found.items()):
        for derived in {"application_requirement": ("application_missing",), "deadline": ("late", "on_time"),
                        "obligation": ("shortfall",)}.get(kind, ()):
            only = _names_derived(derived)
            if only is not None and name not in only:
                continue
            unit = "days" if derived in ("late", "on_time") else (entry["units"] and min(entry["units"])) or None
            copy = found.setdefault((derived, name), {"name": name, "kind": derived, "units": set(), "clauses": set()})
            copy["clauses"] |= entry["clauses"]
            if unit:
                copy["units"].add(unit)
    order = {kind: index for index, kind in enumerate(KIND_ORDER)}
    return tuple({"name": e["name"], "kind": e["kind"], "unit": ", ".join(sorted(e["units"])) or None,
                  "clauses": sorted(e["clauses"])}
                 for e in sorted(found.values(), key=lambda e: (order[e["kind"]], e["name"])))


@cache
def _names_derived(kind: str) -> frozenset[str] | None:
    """The names the shared vocabulary's rules derive a conclusion of `kind` for, when each of its rules fixes
    the name by a comparison (`Name = application_filing`: a filing is late, not a processing deadline); None
    when some rule derives it for any name."""
    from clingo import ast

    from reasoner.law.rules import encoding

    output = next(o for o in OUTPUTS if o.kind == kind)
    rules = [r for r in encoding("vocabulary").rules() if r.predicate == (output.predicate, output.arity)]
    if "name" not in output.roles or not rules:
        return None
    found: set[str] = set()
    for rule in rules:
        name = output.argument(rule.head_atom, "name")
        if name.ast_type != ast.ASTType.Variable:
            return None
        fixed = {guard.term.symbol.name for literal in rule.body
                 if literal.node.ast_type == ast.ASTType.Literal and literal.node.sign == ast.Sign.NoSign
                 and literal.node.atom.ast_type == ast.ASTType.Comparison
                 and literal.node.atom.term.ast_type == ast.ASTType.Variable and literal.node.atom.term.name == name.name
                 and len(literal.node.atom.guards) == 1
                 for guard in literal.node.atom.guards
                 if guard.comparison == ast.ComparisonOperator.Equal and guard.term.ast_type == ast.ASTType.SymbolicTerm
                 and guard.term.symbol.type == clingo.SymbolType.Function}
        if not fixed:
            return None
        found |= fixed
    return frozenset(found)
