"""`reasoner evaluate` on a file of many events answers a chunk of events at a time (issue 33, item 12: 10,000
small events took 6.5 GB solved at once): the records come in the events' order, byte for byte the answer of
solving them all at once, and a time limit that expires part-way prints nothing."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from reasoner import evaluate as evaluating
from reasoner import service
from reasoner.cli import main
from reasoner.evaluate import EVALUATE_CHUNK
from reasoner.program import SolveTimeout

COUNT = 2 * EVALUATE_CHUNK + 3


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """COUNT small events, one with a name outside ASCII (written as it is in the JSON)."""
    path = tmp_path_factory.mktemp("many") / "many.jsonl"
    events = [{"id": f"picnic-{i:04d}", "name": "Pique-nique d'été" if i == 7 else "picnic", "kinds": ["picnic"],
               "attendance": {"expected_max": 1000 + 500 * i},
               "schedule": {"start": "2027-07-10T11:00", "end": "2027-07-10T23:30"}} for i in range(COUNT)]
    path.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    return str(path)


def test_the_events_are_solved_a_chunk_at_a_time_in_their_order(many):
    chunks = list(service.evaluation(service.Events(path=many), ["trempealeau"]).chunks())
    assert [len(chunk) for chunk in chunks] == [EVALUATE_CHUNK, EVALUATE_CHUNK, 3]
    ids = [record["event"] for chunk in chunks for record in chunk]
    assert ids == sorted(ids) and len(set(ids)) == COUNT


def test_the_json_is_byte_for_byte_that_of_solving_them_all_at_once(many, monkeypatch):
    chunked = CliRunner().invoke(main, ["evaluate", many, "-o", "trempealeau", "-o", "wyoming", "--format", "json"])
    assert chunked.exit_code == 0, chunked.output
    monkeypatch.setattr(evaluating, "EVALUATE_CHUNK", COUNT)
    at_once = service.evaluate(service.Events(path=many), ["trempealeau", "wyoming"])
    assert chunked.output == json.dumps(at_once, indent=2, ensure_ascii=False) + "\n"
    statuses = {record["status"] for record in at_once}
    assert len(statuses) > 1, statuses  # the thresholds are crossed inside the file, so chunks differ in answer


def test_the_text_under_a_time_limit_is_that_without_one(many):
    free = CliRunner().invoke(main, ["evaluate", many, "-o", "village"])
    limited = CliRunner().invoke(main, ["evaluate", many, "-o", "village", "--time-limit", "600"])
    assert free.exit_code == limited.exit_code == 0
    assert limited.output == free.output and free.output.count("picnic-") >= COUNT


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_a_time_limit_expiring_after_the_first_chunk_prints_no_answer(many, monkeypatch, output_format):
    solved = []
    original = evaluating.evaluate_any

    def second_one_late(events, ordinances):
        solved.append(len(events))
        if len(solved) == 2:
            raise SolveTimeout(5, "solving")
        return original(events, ordinances)

    monkeypatch.setattr(evaluating, "evaluate_any", second_one_late)
    done = CliRunner().invoke(main, ["evaluate", many, "-o", "trempealeau", "--time-limit", "5",
                                     "--format", output_format])
    assert solved == [EVALUATE_CHUNK, EVALUATE_CHUNK]
    assert done.exit_code == 3
    assert "picnic" not in done.stdout and "time limit of 5 s" in done.output


def test_the_web_answers_a_body_of_many_events_from_a_file_it_then_removes(many):
    """A worker writes a large answer to a file of its pool's folder, a chunk of events at a time, and the server
    sends that file and removes it: the body is the CLI's JSON to the byte."""
    pytest.importorskip("fastapi")
    import glob
    import time
    import urllib.request

    from web_server import running_server

    from reasoner.web import workers

    names = ["trempealeau", "wyoming", "gem", "connecticut"]
    cli = CliRunner().invoke(main, ["evaluate", many, "--format", "json"] + [f"-o{name}" for name in names])
    assert len(cli.output) > workers.IN_MEMORY  # large enough to go through a file
    body = json.dumps({"source": open(many, encoding="utf-8").read(), "filename": "many.jsonl",
                       "ordinances": names}).encode()
    before = set(glob.glob("/tmp/reasoner-web-*/*"))
    with running_server(workers=1, time_limit=300) as url:
        request = urllib.request.Request(url + "/evaluate", data=body, headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=300) as response:
            answer = response.read().decode("utf-8")
        deadline = time.monotonic() + 10  # the file goes once the last byte is sent: soon after it is read
        while (left := set(glob.glob("/tmp/reasoner-web-*/*")) - before) and time.monotonic() < deadline:
            time.sleep(0.1)
    assert answer == cli.output
    assert not left
