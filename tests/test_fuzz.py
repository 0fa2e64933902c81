"""Bad and hostile input never crashes and never lies (hypothesis, and a table of nasty files).

Every command that reads an event file is run through click's CliRunner with catch_exceptions=False,
so a traceback fails the test: it answers (exit 0, and JSON output parses and covers every event),
or exits 2 with a message naming the file (and, for a bad field, the field). Event files come in
three sorts: valid, valid but for one field, and garbage (bytes, text, or any JSON-like value).
"""
from __future__ import annotations

import json
import tempfile
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from reasoner.cli import main
from reasoner.evaluate import evaluate
from reasoner.events.model import Event
from reasoner.events.loading import EventFileError, load_events, parse_events
from reasoner.events.loading import MAX_EVENTS, MAX_FILE_BYTES
from reasoner.law.locator import encoded_ordinances
from test_properties import event_files, event_records, examples

ORDINANCES = encoded_ordinances()

# How each command that reads an event file is called; a new such command with required options
# needs a line here (test_every_command_that_reads_an_event_file_is_fuzzed says so).
COMMANDS = {
    "evaluate": ["--format", "json"],
    "explain": ["toilets", "-o", "trempealeau", "--format", "json"],
    "questions": ["-o", "trempealeau", "--format", "json"],
    "whatif": ["-o", "trempealeau", "--flip", "permit_required", "--format", "json"],
    "compare": ["-o", "trempealeau", "-o", "gem", "--format", "json"],
    "sweep": ["--vary", "attendance=100..3000", "-o", "trempealeau", "--format", "json"],
    "report": ["-o", "trempealeau", "--out", str(Path(tempfile.gettempdir()) / "reasoner-fuzz-report.html")],
}


def file_commands() -> list[str]:
    return [name for name, command in main.commands.items()
            if any(isinstance(p, click.Argument) and p.name == "event_file" for p in command.params)]


def test_every_command_that_reads_an_event_file_is_fuzzed():
    for name in file_commands():
        required = [p.name for p in main.commands[name].params if p.required and p.name != "event_file"]
        assert name in COMMANDS or not required, f"add how to call `reasoner {name}` to COMMANDS"


def arguments(name: str, path: str) -> list[str]:
    return [name, path, *COMMANDS.get(name, [])]


def run(name: str, path: str):
    return CliRunner().invoke(main, arguments(name, path), catch_exceptions=False)


@contextmanager
def written(content: bytes, suffix: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"events{suffix}"
        path.write_bytes(content)
        yield str(path)


def assert_answers_or_refuses(name: str, path: str, result, fields: tuple[str, ...] = ()) -> None:
    """Exit 0 with a complete answer, or exit 2 naming the file (and one of `fields`, when given)."""
    assert result.exit_code in (0, 2), (name, result.exit_code, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert path in result.stderr or "Usage:" in result.stderr, result.output
        assert result.stdout == "", "a refusal prints no partial result"
        if fields:
            assert any(field in result.stderr for field in fields), (fields, result.stderr)
    elif "--format" in COMMANDS.get(name, []) and name != "sweep":
        assert json.loads(result.stdout) is not None


# ---------------------------------------------------------------- generated garbage

def _field_paths(model, prefix=""):
    import pydantic

    for name, field in model.model_fields.items():
        path = f"{prefix}{name}"
        yield path
        for candidate in (field.annotation, *getattr(field.annotation, "__args__", ())):
            if isinstance(candidate, type) and issubclass(candidate, pydantic.BaseModel) and candidate is not model:
                yield from _field_paths(candidate, f"{path}.")


FIELDS = sorted(set(_field_paths(Event)))
HOSTILE = ['"', "').", ":-", "#include \"/etc/passwd\".", "#script (python) import os #end.", "\n", "%", "[/]",
           "[bold]", "\x00", "\u202e", "\\", "{", "}", "*a", "&a", "!!python/object/apply:os.system", "---", "\ufeff"]
text = st.one_of(st.text(max_size=30), st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=6).map("".join))
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(10**30), 10**30), st.sampled_from([10**12, -1, 2**31, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True), text,
    st.sampled_from(["0001-01-01T00:00", "9999-12-31T23:59", "2027-02-30T10:00", "unknown", "2027-07-16"]),
    st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)),
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.one_of(text, st.integers()), inner, max_size=4)),
                      max_leaves=12)


def serialize(data, fmt: str) -> bytes:
    if fmt == "json":
        return json.dumps(data, default=str).encode("utf-8")
    return yaml.safe_dump(data, allow_unicode=True).encode("utf-8", errors="surrogatepass")


def set_path(record: dict, path: str, value) -> dict:
    data = json.loads(json.dumps(record))
    *parents, last = path.split(".")
    here = data
    for part in parents:
        if not isinstance(here.get(part), dict):
            here[part] = {}
        here = here[part]
    here[last] = value
    return data


def mentioned(path: str) -> tuple[str, ...]:
    """What a message about a bad `path` may name: the field or one of the fields holding it."""
    parts = path.split(".")
    return tuple(".".join(parts[:i]) for i in range(1, len(parts) + 1))


@examples(150)
@given(event_records(), st.sampled_from(FIELDS), values, st.sampled_from(["json", "yaml"]))
def test_a_bad_field_is_named_or_the_file_loads(record, field, value, fmt):
    data = set_path(record, field, value)
    with written(serialize(data, fmt), f".{fmt}") as path:
        try:
            events = load_events(path)
        except EventFileError as error:
            message = str(error)
            assert message.startswith(path)
            assert any(name in message for name in mentioned(field)) or ": the file" in message \
                or "malformed" in message, (field, message)
            return
    assert len(events) == 1 and events[0].id == data["id"]


@examples(60)
@given(event_records(), st.lists(text.filter(lambda t: t.strip() and "." not in t), min_size=1, max_size=3), values,
       st.sampled_from(["", "attendance.", "schedule.", "site.", "organizer.", "application."]))
def test_an_unknown_field_is_named(record, names, value, where):
    field = where + "_".join(names)
    if where == "application.":
        record = {**record, "application": record.get("application", {})}
    data = set_path(record, field, value)
    with written(serialize(data, "json"), ".json") as path:
        with pytest.raises(EventFileError) as caught:
            load_events(path)
    assert "no such field" in str(caught.value) or "must be" in str(caught.value)


@examples(100)
@given(st.one_of(st.binary(max_size=300), text.map(lambda t: t.encode("utf-8", "surrogatepass")),
                 values.map(lambda v: json.dumps(v, default=str).encode())), st.sampled_from([".json", ".yaml", ".yml"]))
def test_garbage_bytes_load_or_give_an_event_file_error(content, suffix):
    with written(content, suffix) as path:
        try:
            events = load_events(path)
        except EventFileError as error:
            assert str(error).startswith(path)
        else:
            assert events and all(isinstance(e, Event) for e in events)


@examples(40)
@given(st.data())
def test_every_command_answers_or_refuses_a_generated_file(data):
    name = data.draw(st.sampled_from(file_commands()))
    kind = data.draw(st.sampled_from(["valid", "one bad field", "garbage"]))
    fields: tuple[str, ...] = ()
    if kind == "valid":
        content = serialize(data.draw(event_records()), "json")
    elif kind == "one bad field":
        field = data.draw(st.sampled_from(FIELDS))
        content = serialize(set_path(data.draw(event_records()), field, data.draw(values)), "json")
        fields = mentioned(field) + ("the file", "malformed")
    else:
        content = data.draw(st.one_of(st.binary(max_size=200), values.map(lambda v: serialize(v, "yaml"))))
    suffix = ".json" if kind != "garbage" else data.draw(st.sampled_from([".json", ".yaml"]))
    with written(content, suffix) as path:
        result = run(name, path)
        assert_answers_or_refuses(name, path, result, fields if result.exit_code == 2 and kind != "valid" else ())
    if kind == "valid" and name in ("evaluate", "compare", "explain"):
        assert result.exit_code == 0, result.output


@examples(25)
@given(event_files(most=3))
def test_evaluate_answers_every_event_under_every_ordinance(records):
    with written(serialize(records, "yaml"), ".yaml") as path:
        result = run("evaluate", path)
    assert result.exit_code == 0, result.output
    answered = [(r["event"], r["ordinance"]) for r in json.loads(result.stdout)]
    assert answered == [(r["id"], o) for r in records for o in ORDINANCES]


# ---------------------------------------------------------------- no string can change the program

def _control(c: str) -> bool:
    return ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"


# Ids and names with control characters are refused (test_event_file); every other text is an id.
printable = text.map(lambda t: "".join(c for c in t if not _control(c)))


@examples(30)
@given(st.lists(printable.filter(lambda t: t.strip()), min_size=1, max_size=3, unique=True), event_records())
def test_no_id_or_name_can_change_the_conclusions(ids, record):
    plain = evaluate(parse_events({**record, "id": "plain"}, "t"), ORDINANCES)
    hostile = evaluate(parse_events([{**record, "id": i, "name": i[:500]} for i in ids], "t"), ORDINANCES)
    for index, event_id in enumerate(ids):
        for number, expected in enumerate(plain):
            got = hostile[index * len(ORDINANCES) + number]
            assert got["event"] == event_id and got["conclusions"] == expected["conclusions"]


@examples(30)
@given(st.sampled_from(["clauses", "explain"]), text, text)
def test_free_text_arguments_answer_or_refuse(command, first, second):
    example = str(Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml")
    if command == "clauses":
        args = ["clauses", first, second]
    else:
        args = ["explain", example, first, "-o", "trempealeau", "--event", second]
    if any(a.startswith("-") for a in args[1:] if a not in ("-o", "--event")):
        args.insert(2 if command == "clauses" else 3, "--")
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code in (0, 2), result.output


# ---------------------------------------------------------------- a table of nasty files

def _events_json(count: int) -> bytes:
    one = '{{"id": "e{0}", "attendance": {{"expected_max": 3500}}, "schedule": {{"start": "2027-07-16T12:00", "end": "2027-07-18T02:00"}}}}'
    return ("[" + ",".join(one.format(i) for i in range(count)) + "]").encode()


BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8))
VALID = "id: ok\nattendance: {expected_max: 3500}\nschedule: {start: 2027-07-16T12:00, end: 2027-07-18T02:00}\n"
NASTY = [
    ("empty", b"", ".yaml", "the file is empty"),
    ("only whitespace", b"  \n\n", ".yaml", "the file is empty"),
    ("a tab where YAML allows none", b"  \n\t\n", ".yaml", "malformed YAML"),
    ("only a byte order mark", b"\xef\xbb\xbf", ".json", "malformed JSON"),
    ("not UTF-8", b"id: caf\xe9\n", ".yaml", "not UTF-8"),
    ("a NUL byte", VALID.encode() + b"\x00", ".yaml", "malformed YAML"),
    ("a lone surrogate", b'{"id": "\\ud800"}', ".json", "lone UTF-16 surrogate"),
    ("an alias bomb", BOMB.encode(), ".yaml", "expands to more than"),
    ("a recursive alias", b"a: &a [*a]\n", ".yaml", "refers to itself"),
    ("deeply nested JSON", b"[" * 100_000 + b"]" * 100_000, ".json", "nested too deeply"),
    ("deeply nested YAML", "".join(" " * i + "k:\n" for i in range(2000)).encode(), ".yaml", "nested"),
    ("deeply nested flow YAML", b"[" * 5000 + b"]" * 5000, ".yaml", "nested"),
    ("an integer of 5,000 digits", b'{"id": ' + b"9" * 5000 + b"}", ".json", "cannot be read"),
    ("attendance of 10^12", VALID.replace("3500", "1000000000000").encode(), ".yaml", "attendance.expected_max"),
    ("a negative count", VALID.replace("3500", "-5").encode(), ".yaml", "attendance.expected_max"),
    ("a float count", VALID.replace("3500", "3.5e3").encode(), ".yaml", "attendance.expected_max"),
    ("year 1", VALID.replace("2027-07-16", "0001-01-01").encode(), ".yaml", "schedule.start"),
    ("year 9999", VALID.replace("2027-07-18", "9999-12-31").encode(), ".yaml", "schedule.end"),
    ("end before start", VALID.replace("2027-07-18", "2027-07-01").encode(), ".yaml", "must be after start"),
    ("an unknown field", (VALID + "colour: red\n").encode(), ".yaml", "colour"),
    ("a Python tag", (VALID + "x: !!python/object/apply:os.system [ls]\n").encode(), ".yaml", "malformed YAML"),
    ("two documents", (VALID + "---\n" + VALID).encode(), ".yaml", "malformed YAML"),
    ("a scalar", b"42\n", ".yaml", "must be a mapping"),
    ("no events", b"events: []\n", ".yaml", "holds no event"),
    ("duplicate ids", ("- " + VALID.replace("\n", "\n  ") + "\n- " + VALID.replace("\n", "\n  ")).encode(), ".yaml",
     "duplicate event id"),
    ("an unbounded insurance amount", (VALID + "application: {insurance: {general_liability_aggregate_usd: "
                                       "100000000000000000000}}\n").encode(), ".yaml",
     "application.insurance.general_liability_aggregate_usd"),
    ("a provision past clingo's integers", (VALID + "provisions: {toilets: 3000000000}\n").encode(), ".yaml",
     "provisions"),
    ("markup in a value", VALID.replace("3500", "'[/bold]'").encode(), ".yaml", "[/bold]"),
]


@pytest.mark.parametrize("name", list(COMMANDS))
@pytest.mark.parametrize("label, content, suffix, words", NASTY, ids=[n[0] for n in NASTY])
def test_a_nasty_file_is_refused_by_every_command(name, label, content, suffix, words):
    with written(content, suffix) as path:
        result = run(name, path)
        assert result.exit_code == 2, (label, result.output)
        assert path in result.stderr and words in result.stderr, result.stderr
        assert "Traceback" not in result.output and result.stdout == ""


def test_markup_in_an_id_is_printed_as_text():
    with written(VALID.replace("id: ok", "id: '[/]'").encode(), ".yaml") as path:
        result = CliRunner().invoke(main, ["evaluate", path, "-o", "trempealeau"], catch_exceptions=False)
    assert result.exit_code == 0 and "[/] — Trempealeau County" in result.stdout


def test_a_missing_file_a_folder_and_a_device_are_refused(tmp_path):
    for path in (tmp_path / "missing.yaml", Path("/dev/zero")):
        result = CliRunner().invoke(main, ["evaluate", str(path)], catch_exceptions=False)
        assert result.exit_code == 2 and str(path) in result.stderr
    assert CliRunner().invoke(main, ["evaluate", str(tmp_path)], catch_exceptions=False).exit_code == 2


# ---------------------------------------------------------------- large and slow input

def test_a_file_of_100000_events_is_refused_quickly(tmp_path):
    import time

    line = "- {{id: e{0}, attendance: {{expected_max: 3500}}, schedule: {{start: 2027-07-16T12:00, end: 2027-07-18T02:00}}}}\n"
    for suffix, content in ((".json", _events_json(100_000)),
                            (".yaml", "".join(line.format(i) for i in range(100_000)).encode())):
        path = tmp_path / f"many{suffix}"
        path.write_bytes(content)
        started = time.perf_counter()
        result = CliRunner().invoke(main, ["evaluate", str(path)], catch_exceptions=False)
        assert result.exit_code == 2 and f"at most {MAX_EVENTS:,}" in result.stderr and result.stdout == ""
        assert time.perf_counter() - started < 20


def test_a_file_past_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    result = CliRunner().invoke(main, ["evaluate", str(path)], catch_exceptions=False)
    assert result.exit_code == 2 and "larger than" in result.stderr


def test_the_largest_attendance_allowed_gives_sound_quantities(tmp_path):
    """At the upper bound every computed quantity stays a positive 32-bit number (no overflow in clingo)."""
    record = json.loads(_events_json(1))[0]
    record["attendance"]["expected_max"] = 10_000_000
    record["site"] = {"locations": 1000}
    record["schedule"]["end"] = "2028-07-16T12:00"
    for result in evaluate(parse_events(record, "t"), ORDINANCES):
        for conclusion in result["conclusions"]:
            for key in ("value", "required", "min", "max"):
                if isinstance(conclusion.get(key), int):
                    assert 0 <= conclusion[key] < 2**31, (result["ordinance"], conclusion)


def test_an_expired_time_limit_is_reported_not_answered(tmp_path):
    path = tmp_path / "many.json"
    path.write_bytes(_events_json(2000))
    result = CliRunner().invoke(main, ["evaluate", str(path), "--time-limit", "0.05", "--format", "json"],
                                catch_exceptions=False)
    assert result.exit_code == 3 and result.stdout == ""
    assert "no answer within the time limit of 0.05 s" in result.stderr


def test_a_time_limit_that_is_met_gives_the_same_answer():
    example = str(Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml")
    plain = CliRunner().invoke(main, ["evaluate", example, "--format", "json"], catch_exceptions=False)
    limited = CliRunner().invoke(main, ["evaluate", example, "--format", "json", "--time-limit", "60"],
                                 catch_exceptions=False)
    assert limited.exit_code == 0 and limited.stdout_bytes == plain.stdout_bytes


def test_a_filing_date_out_of_range_is_refused():
    example = str(Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml")
    result = CliRunner().invoke(main, ["evaluate", example, "--filed", "9999-12-31"], catch_exceptions=False)
    assert result.exit_code == 2 and "--filed" in result.stderr


# ---------------------------------------------------------------- names given on the command line

@pytest.mark.parametrize("conclusion", ["a b", "x,_,_). _goal. %", 'x"', "Nurses"])
def test_a_conclusion_name_cannot_change_the_whatif_program(conclusion):
    example = str(Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml")
    result = CliRunner().invoke(main, ["whatif", example, "-o", "trempealeau", "--flip", conclusion, "--format", "json"],
                                catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 2)
    if result.exit_code == 0:
        report = json.loads(result.stdout)
        assert not report["found"] or report["holds_after"], "a change was found for a conclusion that never holds"
