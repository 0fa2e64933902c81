"""Turn answer-set atoms into the stable result shape (documented in docs/commands.md, "JSON output").

Per event and ordinance: status, permit_required, and a sorted list of conclusions, each with
kind, name, value, unit, modality and clauses (plus min/max for penalties, required/provided for
shortfalls, alternative for obligations that another provision can meet, text for interpretations).
"""
from __future__ import annotations

import json
import operator
import re
import threading
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import date
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

import clingo

from reasoner.law.reasons import reason_text
from reasoner.law.schema import KIND_ORDER, OUTPUT
from reasoner.law.ordinances import record_heading
from reasoner.law.vocabulary import vocabulary

if TYPE_CHECKING:  # the models are built only when a file needs them (reasoner/events/plan.py)
    from reasoner.events.model import Event



def _json_text() -> Any:
    """json.dumps(value, ensure_ascii=False), byte for byte, with its encoder made once: json.dumps makes a new
    one on every call, and a batch renders tens of conclusions an event (no cycles to guard against here)."""
    from json.encoder import JSONEncoder, c_make_encoder, encode_basestring

    plain = JSONEncoder(ensure_ascii=False)
    if c_make_encoder is None:  # pragma: no cover - a Python without json's C accelerator
        return plain.encode
    try:
        chunks = c_make_encoder(None, plain.default, encode_basestring, None, plain.key_separator,
                                plain.item_separator, False, False, True)
    except TypeError:  # pragma: no cover - another signature in another Python version
        return plain.encode
    return lambda value: "".join(chunks(value, 0))


json_text = _json_text()


def utf8(text: str) -> bytes:
    """Text as a batch writes it: UTF-8, a character no UTF-8 can hold (a lone surrogate) as its escape."""
    return text.encode("utf-8", "backslashreplace")


def _value(symbol: clingo.Symbol) -> Any:
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    return str(symbol)


def unit_of(name: str, solver_unit: str | None = None) -> str | None:
    declared = vocabulary()["obligations"].get(name, {}).get("unit")
    unit = declared or solver_unit
    return None if unit in (None, "none") else unit


def _date(day: int) -> str:
    return date.fromordinal(day).isoformat()


def _conclusion(kind: str, name: str, clause: str, value: Any = None, unit: str | None = None,
                modality: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "name": name, "value": value, "unit": unit, "modality": modality, "clauses": [clause], **extra}


def read_atom(symbol: clingo.Symbol) -> tuple[str, int, dict[str, Any]] | None:
    """(ordinance, event number, conclusion) for one shown atom; None for atoms that are not conclusions."""
    if symbol.type != clingo.SymbolType.Function or not symbol.positive:  # -exempt(...) is no exemption
        return None
    return _read_values(symbol.name, [_value(a) for a in symbol.arguments])


# One argument of a shown atom as clingo prints it: a string without escapes, an integer or a constant.
_ARGUMENT = re.compile(r'("[^"\\]*"|-?[0-9]+|[a-z_][A-Za-z0-9_\']*)(?:,|\)$)')


def _values_of_text(text: str) -> tuple[str, list[Any]] | None:
    """The name and argument values of an atom from its text, as _value reads them from the symbol;
    None for anything else (nested terms, escaped strings), which the caller reads from the symbol."""
    name, bracket, inner = text.partition("(")
    if not bracket:
        return None
    values: list[Any] = []
    position, end = len(name) + 1, len(text)
    while position < end:
        found = _ARGUMENT.match(text, position)
        if found is None:
            return None
        token = found.group(1)
        values.append(token[1:-1] if token[0] == '"' else int(token) if token[0] in "-0123456789" else token)
        position = found.end()
    return name, values


def read_text(text: str, symbol: Callable[[], clingo.Symbol]) -> tuple[str, int, dict[str, Any]] | None:
    """read_atom, from the atom's text where it reads plainly (one call into clingo, not one per argument);
    `symbol()` gives the symbol itself for anything else (nested terms, escaped strings)."""
    plain = _values_of_text(text)
    return _read_values(*plain) if plain is not None else read_atom(symbol())


def _read_values(name: str, args: list[Any]) -> tuple[str, int, dict[str, Any]] | None:
    """read_atom, from the atom's name and argument values, by the roles the schema gives its arguments."""
    output = OUTPUT.get(name)
    if output is None or len(args) != output.arity:
        return None
    got = dict(zip(output.signature, args))
    ordinance, event = got.pop("ordinance"), got.pop("event")
    if not isinstance(event, int):
        return None
    got.update(output.fixed)
    clause = got["clause"]
    item_name = got.get("name", output.kind)
    extra: dict[str, Any] = {}
    if "date" in got:
        value: Any = _date(got["date"])
    elif "required" in got:
        value = abs(got["required"] - got["provided"])
        extra = {"required": got["required"], "provided": got["provided"]}
    elif "holds" in got:  # a reason: the condition, whether it holds, and the numbers it compares
        value = None
        extra = {"holds": got["holds"] == "yes",
                 "actual": None if got["actual"] == "none" else got["actual"],
                 "stated": None if got["stated"] == "none" else got["stated"]}
        extra["text"] = reason_text({"name": item_name, **extra})
    elif "max" in got:  # a penalty: 0 where the text sets no amount
        value = got["max"] or None
        extra = {"min": got["min"] or None, "max": got["max"] or None}
    else:
        value = got.get("value", None if output.named and output.kind != "exemption" else True)
    if output.unit:
        unit = output.unit
    elif output.predicate == "penalty":
        unit = None if got["unit"] == "none" else got["unit"]
    else:
        unit = unit_of(got["other"] if "other" in got else item_name, got.get("unit"))
    kind = output.predicate if output.folds_into else output.kind
    if "other" in got:
        extra = {"other": got["other"]}
    elif output.kind == "interpretation":
        extra = {"text": record_heading(ordinance)["interpretations"].get(item_name)}
    parts = _parts(item_name) if output.kind in ("obligation", "shortfall") else 1
    if parts != 1:  # the encodings state this amount in parts of its unit (vocabulary.yaml `parts`)
        value = _amount(value, parts) if isinstance(value, int) and not isinstance(value, bool) else value
        extra = {key: _amount(v, parts) if key in ("required", "provided") else v for key, v in extra.items()}
    item = _conclusion(kind, item_name, clause, value, unit if output.kind in _UNITS else None,
                       got.get("modality"), **extra)
    return ordinance, event, item


def _parts(name: str) -> int:
    return vocabulary()["obligations"].get(name, {}).get("parts", 1)


def _amount(value: int, parts: int) -> int | float:
    """An amount stated in 1/parts of its unit, as a whole number when it is one, else its exact decimal (parts
    divides a power of ten)."""
    whole, rest = divmod(value, parts)
    return whole if not rest else float(Fraction(value, parts))


# Kinds whose conclusions carry a unit.
_UNITS = frozenset({"permits", "obligation", "deadline", "late", "on_time", "penalty", "shortfall"})
_RANK = {kind: index for index, kind in enumerate(KIND_ORDER)}
_FOLDED = ("quantity", "alternative")


def _merged(items: list[dict[str, Any]]) -> list[tuple[tuple, dict[str, Any]]]:
    """merge_items, each conclusion with its sort key (unique within one record)."""
    obligations: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    folded = []
    for item in items:
        kind = item["kind"]
        if kind == "obligation":
            obligations[(item["name"], item["clauses"][0])].append(item)
        elif kind in _FOLDED:
            folded.append(item)
    if folded:
        folded.sort(key=repr)  # should an obligation get two amounts under one clause, the same one wins every time
        for item in folded:
            for owner in obligations.get((item["name"], item["clauses"][0]), ()):
                if item["kind"] == "quantity":
                    owner["value"], owner["unit"] = item["value"], item["unit"]
                else:
                    owner["alternative"] = {"name": item["other"], "value": item["value"], "unit": item["unit"]}
    merged: dict[str, dict[str, Any]] = {}
    for item in items:
        if item["kind"] in _FOLDED:
            continue
        key = repr([(k, v) for k, v in item.items() if k != "clauses"])
        if key in merged:
            merged[key]["clauses"] = sorted(set(merged[key]["clauses"]) | set(item["clauses"]))
        else:
            merged[key] = item
    return sorted(((_RANK[i["kind"]], i["name"], repr(i["value"]), i["clauses"], key), i) for key, i in merged.items())


def merge_items(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fold quantities and alternatives into their obligations; join identical conclusions' clauses; sort.

    The result does not depend on the order of `items`: a batch reads an event's atoms in another order
    than a single evaluation, and both must give the same record. Only conclusions of one name fold
    or join, which is what lets Reader merge a record name by name.
    """
    return [item for _, item in _merged(items)]


def _status(conclusions: list[dict[str, Any]]) -> str:
    kinds = {c["kind"] for c in conclusions}
    return _status_of(kinds)


def _status_of(kinds: set[str] | frozenset[str]) -> str:
    if "permit_required" in kinds:
        return "permit_required"
    if "exemption" in kinds:
        return "exempt"
    return "not_regulated"


class Body:
    """A record without its event id: status, conclusions (shared: read, never change them) and their JSON.
    `extra` holds what a consumer derives from the record once (a batch keeps its CSV cells there)."""

    __slots__ = ("ordinance", "status", "conclusions", "tail", "extra")

    def __init__(self, ordinance: str, status: str, conclusions: list[dict[str, Any]], fragments: list[str]):
        self.ordinance = ordinance
        self.status = status
        self.conclusions = conclusions
        # Kept encoded: a batch writes bytes, and one ordinance's words (a section sign, curly quotes) would make
        # the joined text of a whole chunk take two bytes a character, every row then copied and encoded at that width.
        self.tail = utf8(f"{_heads(ordinance, status)}[{', '.join(fragments)}]}}\n")
        self.extra: Any = None

    def line(self, event_id: str) -> bytes:
        """The record of event `event_id` as one line of JSON, UTF-8: json.dumps(record) + newline, byte for byte
        (a character no UTF-8 can hold, a lone surrogate, written as its JSON escape)."""
        return b'{"event": ' + utf8(json_text(event_id)) + self.tail


@cache
def _heads(ordinance: str, status: str) -> str:
    heading = record_heading(ordinance)
    head = {"event": None, "ordinance": ordinance, "jurisdiction": heading["jurisdiction"], "title": heading["title"],
            "status": status, "permit_required": status == "permit_required", "conclusions": None}
    return json.dumps(head, ensure_ascii=False)[len('{"event": null'):-len("null}")]


# A symbol's handle: clingo interns symbols and never frees them (potassco/clingo#203), so equal
# handles are equal symbols for the life of the process. clingo's Python API keeps a model's symbols
# as a C array of handles; unpacking it in one call saves making a Symbol object per atom (a fifth of
# the reading time). Should a clingo version lay things out otherwise, the Symbols themselves serve.
try:
    from clingo._internal import _ffi, _lib
    _RAW = hasattr(clingo.Number(0), "_rep") and hasattr(_lib, "clingo_symbol_to_string")
except ImportError:  # pragma: no cover - other clingo versions
    _ffi, _lib, _RAW = None, None, False


class _Native:
    """Atoms read through clingo's C functions with reused buffers: no Symbol object, no allocation."""

    def __init__(self) -> None:
        self.size = _ffi.new("size_t*")
        self.buffer = _ffi.new("char[]", 1024)
        self.arguments_at = _ffi.new("clingo_symbol_t**")
        self.name_at = _ffi.new("char**")
        self.positive = _ffi.new("bool*")

    def text(self, handle: int) -> str:
        if not _lib.clingo_symbol_to_string_size(handle, self.size):
            return str(clingo.Symbol(handle))
        size = self.size[0]
        if size > len(self.buffer):
            self.buffer = _ffi.new("char[]", 2 * size)
        if not _lib.clingo_symbol_to_string(handle, self.buffer, size):
            return str(clingo.Symbol(handle))
        return _ffi.unpack(self.buffer, size - 1).decode()

    def parts(self, handle: int) -> tuple[Any, list[int]] | None:
        """The name (a pointer clingo interns: equal names, equal pointers) and argument handles of a positive
        function of arguments; None for anything else (a negated atom, a constant, a number), read as text."""
        if not _lib.clingo_symbol_is_positive(handle, self.positive) or not self.positive[0]:
            return None
        if not _lib.clingo_symbol_arguments(handle, self.arguments_at, self.size) or not self.size[0]:
            return None
        arguments = _ffi.unpack(self.arguments_at[0], self.size[0])
        if not _lib.clingo_symbol_name(handle, self.name_at):
            return None
        return self.name_at[0], arguments


def _handles(symbols: Sequence[clingo.Symbol]) -> list[Any]:
    raw = getattr(symbols, "_p_symbols", None)
    if _RAW and raw is not None:
        return _ffi.unpack(raw, len(raw))
    return [symbol._rep for symbol in symbols] if _RAW else list(symbols)


def _symbol(handle: Any) -> clingo.Symbol:
    return clingo.Symbol(handle) if _RAW else handle


_SHIFT = 24
_MASK = (1 << _SHIFT) - 1


class Reader:
    """Reads answer sets into records fast enough for batches: each distinct thing is worked out once.

    Event numbers restart at 1 in every solver call, so the very same atom, say
    obligation(gem,3,toilets,shall,"5.health-2"), recurs call after call, and its handle is a key
    that costs nothing to compute: a known atom is an (event, conclusion) pair at once. A new one is
    rendered once; its text without the event number names its conclusion, which read_atom (the one
    definition of what an atom means) reads once. Conclusions fold and join only with conclusions of
    the same name (merge_items), so a record is merged name by name, each distinct group once, and each
    distinct record once. Past their limits the caches keep only what the last answer set used (the
    atoms of a clerk's batch recur from one chunk to the next, though each chunk also brings dates and
    quantities never seen before), so memory stays flat. A conclusion id is never given twice: an entry
    left pointing at a dropped conclusion can only go unused, never be read as another one.
    """

    # Limits, with what they hold at most (a batch worker holds about 150 MB of caches in all).
    ATOM_LIMIT = 600_000          # atoms known: 60 MB; a batch's solver call shows about 120,000
    ITEM_LIMIT = 60_000           # conclusions and merged groups: 60 MB
    BODY_BYTES = 24 * 2**20       # records of many conclusions (their JSON and keys): 24 MB
    SMALL = 24                    # records of at most this many atoms recur most: kept apart, by count
    SMALL_LIMIT = 10_000          # 10 MB

    def __init__(self, ordinances: Sequence[str]):
        self.ordinances = tuple(ordinances)
        self._index = {name: index for index, name in enumerate(self.ordinances)}
        self._native = _Native() if _RAW else None
        # Handles of the ordinance names and of event numbers (grown as chunks grow), for _decode.
        self._ordinal = {clingo.Function(name)._rep: index for index, name in enumerate(self.ordinances)} if _RAW else {}
        self._numbers: dict[int, int] = {}
        self._clear()

    def _clear(self) -> None:
        self._last: Sequence[Any] = ()             # the handles the last answer set showed
        self._dropped = 0                          # conclusion ids dropped (their _items entry is None)
        self._atoms: dict[Any, int] = {}           # atom -> record slot << _SHIFT | conclusion id; -1: none
        self._keys: dict[str, int] = {}            # atom text without its event number -> conclusion id
        self._handle_keys: dict[tuple, int] = {}   # the same, as name and argument handles
        self._items: list[dict[str, Any] | None] = []   # conclusion id -> conclusion (None: not one)
        self._names: list[str] = []                # conclusion id -> its name (what it may merge with)
        self._groups: dict[Any, list[tuple[str, str, dict[str, Any]]]] = {}   # ids of one name -> merged
        self._bodies: dict[tuple[int, tuple[int, ...]], Body] = {}   # (ordinance, conclusion ids) -> Body
        self._body_bytes = 0
        self._small: dict[tuple[int, tuple[int, ...]], Body] = {}    # the same, for records of few conclusions

    def _keep_last(self) -> None:
        """Drop every cached thing the last answer set did not use; its atoms, conclusions and records stay."""
        atoms = self._atoms
        self._atoms = kept = {handle: atoms[handle] for handle in self._last}
        live = {found & _MASK for found in kept.values() if found >= 0}
        items, names = self._items, self._names
        for index, item in enumerate(items):
            if item is not None and index not in live:
                items[index], names[index] = None, ""
                self._dropped += 1
        self._keys = {key: found for key, found in self._keys.items() if found in live}
        self._handle_keys = {key: found for key, found in self._handle_keys.items() if found in live}
        self._groups = {key: group for key, group in self._groups.items()
                        if (key in live if key.__class__ is int else key <= live)}
        self._small = {key: body for key, body in self._small.items() if live.issuperset(key[1])}
        self._bodies = {key: body for key, body in self._bodies.items() if live.issuperset(key[1])}
        self._body_bytes = sum(len(body.tail) + 40 * len(key[1]) for key, body in self._bodies.items())

    def _decode(self, handle: Any) -> int:
        """record slot << _SHIFT | conclusion id of a shown atom, -1 for one that is not a conclusion. A known
        conclusion under a new event number is found by its other arguments' handles; only a new one is
        rendered as text."""
        native = self._native
        parts = native.parts(handle) if native else None
        if parts is None or len(parts[1]) < 3:
            return self._decode_text(handle)
        name, arguments = parts
        # The batch's fast reader: an output's (Ordinance, Event) lead its arguments (reasoner/law/schema.py), read
        # here by position from clingo's handles (and by _decode_text from its text), not by role: every shown atom of
        # every event passes here.
        ordinance, event = self._ordinal.get(arguments[0]), self._numbers.get(arguments[1])
        if ordinance is None or event is None:
            return self._decode_text(handle)
        key = (name, arguments[0], *arguments[2:])
        found = self._handle_keys.get(key)
        if found is None:
            slot_found = self._decode_text(handle)
            if slot_found < 0:
                return -1
            found = self._handle_keys[key] = slot_found & _MASK
        if self._items[found] is None:
            return -1
        return ((event - 1) * len(self.ordinances) + ordinance) << _SHIFT | found

    def _decode_text(self, handle: Any) -> int:
        text = self._native.text(handle) if self._native else str(handle)
        name, _, arguments = text.partition("(")
        parts = arguments.split(",", 2)
        if len(parts) < 3 or parts[0] not in self._index or not parts[1].isdigit() or int(parts[1]) < 1:
            return -1
        key = f"{name}({parts[0]},{parts[2]}"
        found = self._keys.get(key)
        if found is None:
            read = read_text(text, lambda: _symbol(handle))
            found = self._keys[key] = len(self._items)
            self._items.append(read[2] if read else None)
            self._names.append(read[2]["name"] if read else "")
        if self._items[found] is None:
            return -1
        return ((int(parts[1]) - 1) * len(self.ordinances) + self._index[parts[0]]) << _SHIFT | found

    def _group(self, ids: Sequence[int]) -> list[tuple[str, str, dict[str, Any]]]:
        return [(_key_text(key), json_text(item), item)
                for key, item in _merged([dict(self._items[i]) for i in ids])]

    def _parts(self, ids: Sequence[int]) -> list[tuple[str, str, dict[str, Any]]]:
        """The merged conclusions of one record, each with its sort key and JSON, in no particular order."""
        groups = self._groups
        by_name: dict[str, Any] = {}   # name -> its one id, or a list of its ids
        for i, name in zip(ids, map(self._names.__getitem__, ids)):
            found = by_name.get(name)
            if found is None:
                by_name[name] = i
            elif found.__class__ is int:
                by_name[name] = [found, i]
            else:
                found.append(i)
        parts: list[tuple[str, str, dict[str, Any]]] = []
        for group in by_name.values():
            key = group if group.__class__ is int else frozenset(group)
            found = groups.get(key)
            if found is None:
                found = groups[key] = self._group((group,) if group.__class__ is int else group)
            parts += found
        return parts

    def _body(self, ordinance: int, ids: tuple[int, ...]) -> Body:
        parts = self._parts(ids)
        parts.sort(key=_by_sort_key)
        status = _status_of({item["kind"] for _, _, item in parts})
        return Body(self.ordinances[ordinance], status, [p[2] for p in parts], [p[1] for p in parts])

    def read(self, symbols: Sequence[clingo.Symbol], count: int) -> list[Body]:
        """A Body per (event, ordinance) of the events numbered 1..count: event by event, ordinance by ordinance."""
        if len(self._items) > _MASK // 2:  # ids are never reused, and must fit below _SHIFT bits
            self._clear()
        elif (max(len(self._items) - self._dropped, len(self._groups)) > self.ITEM_LIMIT
              or len(self._atoms) > self.ATOM_LIMIT):
            self._keep_last()
        if self._body_bytes > self.BODY_BYTES:
            self._bodies.clear()
            self._body_bytes = 0
        if len(self._small) > self.SMALL_LIMIT:
            self._small.clear()
        width = len(self.ordinances)
        if _RAW and len(self._numbers) < count:
            self._numbers.update((clingo.Number(n)._rep, n) for n in range(len(self._numbers) + 1, count + 1))
        atoms = self._atoms
        handles = self._last = _handles(symbols)
        known = list(map(atoms.get, handles))
        if None in known:
            index = known.index(None)
            while True:
                known[index] = atoms[handles[index]] = self._decode(handles[index])
                try:
                    index = known.index(None, index + 1)
                except ValueError:
                    break
        # Sorted, the numbers run record by record (slot in the high bits), each record's conclusion ids
        # ascending: a record is a slice, and its ids (the low bits) are the key of its Body.
        known.sort()
        body, small = self._body, self.SMALL
        result = []
        start = bisect_left(known, 0)
        for slot in range(count * width):
            end = bisect_left(known, (slot + 1) << _SHIFT, start)
            key = (slot % width, tuple(map(_MASK.__and__, known[start:end])))
            start = end
            bodies = self._small if len(key[1]) <= small else self._bodies
            found_body = bodies.get(key)
            if found_body is None:
                found_body = bodies[key] = body(*key)
                if len(key[1]) > small:
                    self._body_bytes += len(found_body.tail) + 40 * len(key[1])
            result.append(found_body)
        return result


_by_sort_key = operator.itemgetter(0)


def _key_text(key: tuple) -> str:
    """A _merged sort key as one string that sorts the same way (strings compare faster than tuples):
    each part ends with a character lower than any it holds, so a part that is a prefix sorts first."""
    rank, name, value, clauses, unique = key
    return f"{rank:02d}\x00{name}\x00{value}\x00{chr(1).join(clauses)}\x00{unique}"


_local = threading.local()


def reader(ordinances: Sequence[str]) -> Reader:
    """This thread's Reader for these ordinances (its caches pay off across solver calls)."""
    readers = getattr(_local, "readers", None)
    if readers is None:
        readers = _local.readers = {}
    key = tuple(ordinances)
    if key not in readers:
        readers[key] = Reader(key)
    return readers[key]


def results_from_symbols(symbols: Sequence[clingo.Symbol], events: Sequence[Event],
                         ordinances: Sequence[str]) -> list[dict[str, Any]]:
    bodies = reader(ordinances).read(symbols, len(events))
    width = len(ordinances)
    return [json.loads(body.line(events[index // width].id)) for index, body in enumerate(bodies)]


# What modes.lp's part `versions` shows beside the conclusions.
IN_FORCE, MAY_HAVE_STARTED = "in_force", "version_may_have_started"


def versions_from_symbols(symbols: Sequence[clingo.Symbol], count: int,
                          ordinances: Sequence[str]) -> list[dict[str, Any]]:
    """Per (event, ordinance) of the events numbered 1..count, in the order of Reader.read: the version the solver
    has in force on the event's law date (`version`; None before every version the registry knows) and those that
    may already have taken effect then (`may_be`, in the registry's order), as modes.lp's part `versions` shows them."""
    from reasoner.law.ordinances import ordinance_versions

    index = {name: position for position, name in enumerate(ordinances)}
    found: list[dict[str, Any]] = [{"version": None, "may_be": []} for _ in range(count * len(ordinances))]
    for symbol in _versions_shown(symbols):
        ordinance, event, version = symbol.arguments
        slot = found[(event.number - 1) * len(ordinances) + index[ordinance.name]]
        if symbol.name == IN_FORCE:
            slot["version"] = version.name
        else:
            slot["may_be"].append(version.name)
    known = ordinance_versions()
    for position, slot in enumerate(found):
        if len(slot["may_be"]) > 1:
            order = [v for v, _, _ in known.get(ordinances[position % len(ordinances)], ())]
            slot["may_be"].sort(key=order.index)
    return found


def _versions_shown(symbols: Sequence[clingo.Symbol]) -> list[clingo.Symbol]:
    """The in_force and version_may_have_started atoms among `symbols`: found by the handle of their name (clingo
    interns names), since asking each Symbol its name costs a hundred times more, for a few atoms an event."""
    if not _RAW:
        return [s for s in symbols if s.match(IN_FORCE, 3) or s.match(MAY_HAVE_STARTED, 3)]
    native = _Native()
    names = []
    for name in (IN_FORCE, MAY_HAVE_STARTED):
        parts = native.parts(clingo.Function(name, [clingo.Number(1)] * 3)._rep)
        names.append(parts[0] if parts else None)
    name_at, arguments_at, size = native.name_at, native.arguments_at, native.size
    found = []
    for handle in _handles(symbols):
        if (_lib.clingo_symbol_name(handle, name_at) and name_at[0] in names
                and _lib.clingo_symbol_arguments(handle, arguments_at, size) and size[0] == 3):
            found.append(clingo.Symbol(handle))
    return found
