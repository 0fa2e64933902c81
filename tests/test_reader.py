"""The Reader (conclusions.py), which every command reads answer sets through, against the plain reading it
speeds up: each atom read by read_atom from its Symbol, each record merged by merge_items. Its shortcuts (handles
unpacked from the model's C array, known conclusions found by argument handles, atom text parsed without
the Symbol, records as sorted slices, caches that are cleared) must change nothing."""
from __future__ import annotations

import json
from collections import defaultdict

import clingo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_batch import scenario_events

from reasoner.conclusions import Reader, _key_text, merge_items, read_atom, _status, _value, _values_of_text, json_text
from reasoner.events.loading import parse_events
from reasoner.law.registry import registry
from reasoner.program import solve
from reasoner.law.locator import encoded_ordinances

ORDINANCES = encoded_ordinances()


def plain_records(symbols, events, ordinances) -> list[dict]:
    """The records of the events, read the slow and obvious way."""
    found: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for symbol in symbols:
        read = read_atom(symbol)
        if read is not None:
            found[(read[0], read[1])].append(read[2])
    records = []
    for number, event in enumerate(events, start=1):
        for ordinance in ordinances:
            conclusions = merge_items(found[(ordinance, number)])
            status = _status(conclusions)
            reg = registry(ordinance)
            records.append({"event": event.id, "ordinance": ordinance, "jurisdiction": reg.jurisdiction,
                            "title": reg.title, "status": status, "permit_required": status == "permit_required",
                            "conclusions": conclusions})
    return records


def reader_records(reader, symbols, events) -> list[dict]:
    width = len(reader.ordinances)
    return [json.loads(body.line(events[index // width].id))
            for index, body in enumerate(reader.read(symbols, len(events)))]


@pytest.fixture(scope="module")
def chunks():
    """Scenario events of every ordinance in three chunks, each solved on its own (numbers restart)."""
    events = [event for record in scenario_events(2) for event in parse_events(record, "scenario")]
    third = len(events) // 3
    parts = [events[:third], events[third:2 * third], events[2 * third:]]
    return [(part, solve(part, ORDINANCES)) for part in parts]


def test_the_reader_reads_as_the_plain_reading_chunk_after_chunk(chunks):
    reader = Reader(ORDINANCES)
    compared = 0
    for events, symbols in chunks + chunks:  # the second round reads every atom from the caches
        expected = plain_records(symbols, events, ORDINANCES)
        assert reader_records(reader, symbols, events) == expected
        compared += len(expected)
    assert compared > 300


def test_the_reader_reads_the_same_after_its_caches_are_cleared(chunks):
    reader = Reader(ORDINANCES)
    reader.ATOM_LIMIT, reader.ITEM_LIMIT, reader.BODY_BYTES, reader.SMALL_LIMIT = 10, 10, 100, 1
    for events, symbols in chunks + chunks[::-1]:  # what the last chunk used is kept, and read again
        assert reader_records(reader, symbols, events) == plain_records(symbols, events, ORDINANCES)
    # what is held: the atoms of the last two answer sets read, and at most the conclusions they show
    assert len(reader._atoms) <= len(chunks[0][1]) + len(chunks[1][1]) < sum(len(symbols) for _, symbols in chunks)
    assert len(reader._items) - reader._dropped <= len(chunks[0][1]) + len(chunks[1][1])


def test_the_reader_takes_a_plain_list_of_symbols_as_well_as_a_model(chunks):
    events, symbols = chunks[0]
    assert reader_records(Reader(ORDINANCES), list(symbols), events) == plain_records(symbols, events, ORDINANCES)


def test_a_subset_of_ordinances_reads_only_its_own_atoms(chunks):
    events, symbols = chunks[1]
    chosen = ("gem", "trempealeau")
    mine = plain_records(symbols, events, chosen)
    assert reader_records(Reader(chosen), symbols, events) == mine
    assert {record["ordinance"] for record in mine} == set(chosen)


@pytest.mark.parametrize("text", [
    'obligation(gem,3,toilets,shall,"5.health-2")',
    'late(vermont,12,application,-3,"6.04(a), (b)")',
    'penalty(fulton,1,fine,may,0,1000,usd,"177-9")',
    'note(village,7,x,"a \\"quoted\\" clause")',   # an escape: read from the symbol
    'quantity(gem,2,toilets,f(1,2),count,"5")',     # a nested term: read from the symbol
    'param(gem,attendance_threshold,350,"2.definitions")',
    'regulated(gem,2,"4.license-required")',
])
def test_atom_text_is_read_as_the_symbol_is(text):
    symbol = clingo.parse_term(text)
    assert str(symbol) == text
    plain = _values_of_text(text)
    if plain is None:
        assert "\\" in text or "(1," in text
    else:
        assert plain == (symbol.name, [_value(argument) for argument in symbol.arguments])


_TEXT = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x2FF), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 17), _TEXT, _TEXT, st.lists(_TEXT, min_size=1, max_size=3), _TEXT),
                min_size=2, max_size=8, unique_by=repr))
def test_record_sort_keys_as_text_sort_as_the_tuples_do(keys):
    """Conclusions are sorted by one string per key; it must order them as the (rank, name, value,
    clauses, rest) tuples do, prefixes included ("a" before "ab", ["a"] before ["a", "b"])."""
    assert sorted(keys, key=_key_text) == sorted(keys)


def test_atoms_without_arguments_and_negated_atoms_are_read_as_the_plain_reading_reads_them():
    """`#show flag/0.` must not break reading, and `-exempt(...)` is no exemption, whatever the caches saw before."""
    control = clingo.Control(["--warn=none"])
    control.add("base", [], 'flag. exempt(gem,1,a,"4"). -exempt(gem,2,a,"4"). #show flag/0. #show exempt/4. #show -exempt/4.')
    control.ground([("base", [])])
    with control.solve(yield_=True) as handle:
        symbols = next(iter(handle)).symbols(shown=True)
    events = [parse_events({"id": f"e{n}", "attendance": {"expected_max": 1},
                            "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-16T11:00"}}, "t")[0] for n in (1, 2)]
    reader = Reader(("gem",))
    for _ in range(2):  # the second time from the caches
        assert reader_records(reader, symbols, events) == plain_records(symbols, events, ("gem",))
    assert [r["status"] for r in reader_records(reader, symbols, events)] == ["exempt", "not_regulated"]


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_json_text_is_json_dumps_byte_for_byte(value):
    assert json_text(value) == json.dumps(value, ensure_ascii=False)
