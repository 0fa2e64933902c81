"""`reasoner serve`'s JSON API answers what the CLI's --format json prints, byte for byte, for every bundled
example; bad input gets the CLI's messages as a 422, a large body a 413, a slow solve a 503."""
from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install -e '.[test]'")

from reasoner.cli import main  # noqa: E402
from reasoner.events.loading import load_events  # noqa: E402
from reasoner.views.render import printable  # noqa: E402
from reasoner.law.locator import encoded_ordinances  # noqa: E402
from web_server import running_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "facts" / "events").glob("*.yaml"))
BAD = sorted((Path(__file__).parent / "bad_events").iterdir())


@pytest.fixture(scope="module")
def server():
    with running_server(workers=2, time_limit=120) as url:
        yield url


def call(url: str, method: str, path: str, body: object = None, raw: bytes | None = None) -> tuple[int, bytes]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"content-type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def source(path: Path) -> dict:
    return {"source": path.read_text(encoding="utf-8"), "filename": str(path)}


# The CLI's options in its messages, and the request fields that stand for them in the API's.
OPTIONS = {"--event ID": "event_id", "--filed:": "filed:", "--kinds:": "kinds:"}


def same_message(api: str, output: str) -> bool:
    """The CLI's words; it shows control characters as escapes, where JSON carries them escaped."""
    api = printable(api)
    for option, field in OPTIONS.items():
        output = output.replace(option, field)
    return " ".join(api.split()) in " ".join(output.split())


def agree(server: str, endpoint: str, body: dict, *args: str) -> None:
    """The API and the CLI give the same bytes, or both refuse with the same message."""
    code, output = cli(*args, "--format", "json")
    status, answer = call(server, "POST", endpoint, body)
    if code == 0:
        assert status == 200, answer
        assert answer.decode("utf-8") == output
    else:
        assert (code, status) == (2, 422), (output, answer)
        assert same_message(json.loads(answer)["message"], output)


def single(path: Path) -> bool:
    return len(load_events(path)) == 1


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_every_bundled_example_answers_as_the_cli_does(server, example):
    agree(server, "/evaluate", source(example), "evaluate", str(example))
    agree(server, "/evaluate", {**source(example), "ordinances": ["trempealeau", "gem"], "filed": "2027-05-01"},
          "evaluate", str(example), "-o", "trempealeau", "-o", "gem", "--filed", "2027-05-01")
    agree(server, "/compare", source(example), "compare", str(example))
    agree(server, "/explain", {**source(example), "conclusion": "permit_required"},
          "explain", str(example), "permit_required")
    agree(server, "/explain", {**source(example), "conclusion": "toilets", "ordinances": ["trempealeau"]},
          "explain", str(example), "toilets", "-o", "trempealeau")
    agree(server, "/questions", source(example), "questions", str(example))
    first = load_events(example)[0].id
    agree(server, "/explain", {**source(example), "conclusion": "toilets", "event_id": first},
          "explain", str(example), "toilets", "--event", first)
    if single(example):  # unknown facts too: whatif changes the known ones
        agree(server, "/whatif", {**source(example), "ordinance": "trempealeau", "flip": "permit_required"},
              "whatif", str(example), "-o", "trempealeau", "--flip", "permit_required")


def test_full_in_a_request_answers_as_explain_full_does(server):
    example = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
    body = {**source(example), "conclusion": "toilets", "ordinances": ["trempealeau"]}
    agree(server, "/explain", {**body, "full": True}, "explain", str(example), "toilets", "-o", "trempealeau", "--full")
    status, folded = call(server, "POST", "/explain", body)
    status_full, full = call(server, "POST", "/explain", {**body, "full": True})
    assert (status, status_full) == (200, 200) and b'"folded"' in folded and b'"folded"' not in full


def test_whatif_s_proposals_and_flip_late_answer_as_the_cli_does(server):
    example = ROOT / "facts" / "events" / "vermont-fun-run.yaml"
    agree(server, "/whatif", {**source(example), "ordinance": "vermont", "flip": "late", "proposals": 2},
          "whatif", str(example), "-o", "vermont", "--flip", "late", "--proposals", "2")
    status, answer = call(server, "POST", "/whatif", {**source(example), "ordinance": "vermont", "flip": "late", "proposals": 2})
    report = json.loads(answer)
    assert status == 200 and report["changes"][0]["fact"] == "application.filed" and len(report["alternatives"]) == 1


def test_an_event_given_as_json_answers_as_its_file_does(server):
    example = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
    event = json.loads(json.dumps(load_events(example)[0].model_dump(mode="json", exclude_none=True)))
    _, output = cli("evaluate", str(example), "-o", "trempealeau", "--format", "json")
    status, answer = call(server, "POST", "/evaluate", {"event": event, "ordinances": ["trempealeau"]})
    assert status == 200 and answer.decode() == output


@pytest.mark.parametrize("bad", BAD, ids=lambda p: p.name)
def test_a_bad_event_file_is_a_422_with_the_cli_s_field_level_messages(server, bad):
    code, output = cli("evaluate", str(bad))
    status, answer = call(server, "POST", "/evaluate", {"source": bad.read_text(encoding="utf-8"), "filename": str(bad)})
    refusal = json.loads(answer)
    assert (code, status) == (2, 422)
    assert same_message(refusal["message"], output)
    for problem in refusal["problems"]:
        assert problem["message"] in refusal["message"]


def test_bad_options_are_422s_naming_the_field(server):
    example = source(ROOT / "facts" / "events" / "harvest-music-festival.yaml")
    status, answer = call(server, "POST", "/evaluate", {**example, "ordinances": ["atlantis"]})
    assert status == 422 and "unknown ordinance 'atlantis'" in json.loads(answer)["message"]
    status, answer = call(server, "POST", "/whatif", {**example, "ordinance": "trempealeau"})
    assert status == 422 and json.loads(answer)["problems"] == [{"field": "flip", "message": "Field required"}]
    status, answer = call(server, "POST", "/evaluate", raw=b'{"event": {"id": "a", "id": "b"}}')
    assert status == 422 and "the key 'id' is written twice" in json.loads(answer)["message"]



@pytest.mark.parametrize("raw, words", [(b'{"event": ' + b"9" * 5000 + b"}", "more digits"),
                                        (b'{"source": "id: \xff\xfe"}', "not UTF-8")])
def test_a_body_json_cannot_read_is_the_documented_422_not_a_bare_400(server, raw, words):
    status, answer = call(server, "POST", "/evaluate", raw=raw)
    assert status == 422, answer
    refusal = json.loads(answer)
    assert words in refusal["message"] and "detail" not in refusal

def test_the_law_endpoints_answer_as_the_cli_does(server):
    for path, args in [("/ordinances/trempealeau/clauses", ("clauses", "trempealeau")),
                       ("/ordinances/gem/clauses/5.health-2", ("clauses", "gem", "5.health-2"))]:
        status, answer = call(server, "GET", path)
        assert status == 200 and answer.decode() == cli(*args, "--format", "json")[1]
    status, answer = call(server, "GET", "/schema")
    assert status == 200 and answer.decode() == cli("schema")[1]
    status, answer = call(server, "GET", "/ordinances")
    assert [o["name"] for o in json.loads(answer)] == list(encoded_ordinances())
    status, answer = call(server, "GET", "/ordinances/trempealeau/clauses/9.99")
    assert status == 404 and "has no clause '9.99'" in json.loads(answer)["message"]


def test_the_openapi_schema_and_the_docs_are_served_from_here(server):
    status, answer = call(server, "GET", "/openapi.json")
    paths = json.loads(answer)["paths"]
    assert {"/evaluate", "/explain", "/questions", "/whatif", "/compare", "/ordinances",
            "/ordinances/{name}/clauses", "/ordinances/{name}/clauses/{clause_id}", "/schema"} <= set(paths)
    status, page = call(server, "GET", "/docs")
    assert status == 200 and b"/docs-static/swagger-ui-bundle.js" in page and b"https://" not in page
    assert call(server, "GET", "/docs-static/swagger-ui-bundle.js")[0] == 200


def test_the_page_and_its_files_load_nothing_from_elsewhere(server):
    for path in ("/", "/static/app.js", "/static/app.css"):
        status, text = call(server, "GET", path)
        assert status == 200 and b"http://" not in text and b"https://" not in text


def test_a_body_past_the_limit_is_a_413_before_it_is_read(server):
    host, port = server.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.putrequest("POST", "/evaluate")
    connection.putheader("content-type", "application/json")
    connection.putheader("content-length", str(3 * 1024 * 1024))
    connection.endheaders(b"{")   # the server answers without waiting for the rest
    response = connection.getresponse()
    assert response.status == 413 and "larger than 2,048 KiB" in json.loads(response.read())["message"]
    connection.close()


def test_a_solve_past_the_time_limit_is_a_503_and_the_server_goes_on():
    example = source(ROOT / "facts" / "events" / "unknown-festival.yaml")
    with running_server(workers=1, time_limit=0.05) as url:
        status, answer = call(url, "POST", "/questions", example)
        assert status == 503
        assert json.loads(answer)["message"].startswith("no answer within the time limit of 0.05 s")
        status, _ = call(url, "GET", "/ordinances")
        assert status == 200


WEDDING = {"id": "farm-wedding", "kinds": ["wedding"], "attendance": {"expected_max": 800},
           "schedule": {"start": "2027-07-10T14:00", "end": "2027-07-10T23:00"},
           "site": {"kind": "open_land"}, "organizer": {"kind": "individual"}}


def test_readings_in_a_request_answer_as_the_reading_flag_does(server, tmp_path):
    path = tmp_path / "wedding.json"
    path.write_text(json.dumps(WEDDING), encoding="utf-8")
    body = {"source": path.read_text(), "filename": str(path), "ordinances": ["fulton"]}
    chosen = {"fulton.weddings_exempt_anywhere": "listed_venues_only"}
    agree(server, "/evaluate", {**body, "readings": chosen}, "evaluate", str(path), "-o", "fulton",
          "--reading", "fulton.weddings_exempt_anywhere=listed_venues_only")
    agree(server, "/explain", {**body, "readings": chosen, "conclusion": "permit_required"}, "explain", str(path),
          "permit_required", "-o", "fulton", "--reading", "fulton.weddings_exempt_anywhere=listed_venues_only")
    _, plain = call(server, "POST", "/evaluate", body)
    _, other = call(server, "POST", "/evaluate", {**body, "readings": chosen})
    assert json.loads(plain)[0]["status"] == "exempt" and json.loads(other)[0]["status"] == "permit_required"


def test_depends_on_readings_in_a_request_answers_as_the_readings_flag_does(server):
    example = ROOT / "facts" / "events" / "farm-wedding.yaml"
    body = {**source(example), "depends_on_readings": True}
    agree(server, "/evaluate", body, "evaluate", str(example), "--readings")
    agree(server, "/compare", {**body, "ordinances": ["fulton", "vermont"]}, "compare", str(example), "-o", "fulton",
          "-o", "vermont", "--readings")
    agree(server, "/compare", {**body, "ordinances": ["fulton"]}, "compare", str(example), "-o", "fulton", "--readings")
    chosen = {"readings": {"fulton.weddings_exempt_anywhere": "listed_venues_only"}, "ordinances": ["fulton"]}
    agree(server, "/evaluate", {**body, **chosen}, "evaluate", str(example), "-o", "fulton", "--readings",
          "--reading", "fulton.weddings_exempt_anywhere=listed_venues_only")
    status, answer = call(server, "POST", "/compare", {**body, "ordinances": ["fulton", "vermont"]})
    verdicts = {row["name"]: row["readings"]["verdict"] for row in json.loads(answer)[0]["rows"] if "readings" in row}
    assert status == 200 and verdicts["wedding"] == "differ_because_of_a_reading"
    status, answer = call(server, "POST", "/compare", {**body, "ordinances": ["fulton"],
                                                       "versions": ["2027-01-01", "2027-06-01"]})
    assert status == 422 and "versions and depends_on_readings each give the columns" in json.loads(answer)["message"]


@pytest.mark.parametrize("readings, said", [
    ({"fulton.weddings_exempt_anywhere": "listed_venue_only"}, "did you mean listed_venues_only?"),
    ({"fulton.wedding_exempt_anywhere": "listed_venues_only"}, "did you mean weddings_exempt_anywhere?"),
    ({"weddings_exempt_anywhere": "anywhere"}, "ORDINANCE.INTERPRETATION=READING"),
])
def test_an_unknown_reading_in_a_request_is_a_422_with_a_suggestion(server, readings, said):
    status, answer = call(server, "POST", "/evaluate", {"event": WEDDING, "ordinances": ["fulton"],
                                                         "readings": readings})
    assert status == 422, answer
    message = json.loads(answer)["message"]
    assert message.startswith("readings: ") and said in message


def test_the_readings_endpoint_lists_every_choice_with_its_default_and_alternatives(server):
    from reasoner.law.ordinances import ordinance_readings

    status, answer = call(server, "GET", "/readings")
    assert status == 200
    listed = {(c["ordinance"], c["interpretation"]): (c["default"], *(a["reading"] for a in c["alternatives"]))
              for c in json.loads(answer)}
    known = {(o, i): tuple(r) for o, choices in ordinance_readings().items() for i, r in choices.items()}
    assert listed == known
    assert all(c["clause"] and c["default_because"] for c in json.loads(answer))


def test_the_page_gets_the_labels_from_the_one_table(server):
    from reasoner.law.labels import as_json

    status, body = call(server, "GET", "/labels")
    assert status == 200
    assert json.loads(body) == as_json()


@pytest.mark.parametrize("fmt, suffix", [("html", "html"), ("markdown", "md")])
def test_the_report_is_a_download_of_the_page_the_cli_writes(server, tmp_path, fmt, suffix):
    example = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
    written = tmp_path / f"report.{suffix}"
    code, output = cli("report", str(example), "-o", "trempealeau", "-o", "gem", "--out", str(written))
    assert code == 0, output
    request = urllib.request.Request(server + "/report", method="POST", headers={"content-type": "application/json"},
                                     data=json.dumps({**source(example), "ordinances": ["trempealeau", "gem"],
                                                      "format": fmt}).encode())
    with urllib.request.urlopen(request, timeout=120) as response:
        assert response.status == 200
        assert response.headers["content-type"].startswith("text/html" if fmt == "html" else "text/markdown")
        assert response.headers["content-disposition"] == \
            f'attachment; filename="harvest-music-festival-2027-report.{suffix}"'
        assert response.read() == written.read_bytes()


def test_a_report_of_a_bad_event_is_the_cli_s_422(server):
    status, answer = call(server, "POST", "/report", {"source": "id: broken\nattendance: [\n", "filename": "x.yaml"})
    assert status == 422 and "malformed YAML" in json.loads(answer)["message"]


def test_a_report_with_depends_on_readings_is_the_page_report_readings_writes(server, tmp_path):
    example = ROOT / "facts" / "events" / "farm-wedding.yaml"
    written = tmp_path / "report.html"
    code, output = cli("report", str(example), "-o", "fulton", "--readings", "--out", str(written))
    assert code == 0, output
    status, answer = call(server, "POST", "/report", {**source(example), "ordinances": ["fulton"],
                                                      "depends_on_readings": True})
    assert status == 200 and answer == written.read_bytes() and b"turns on" in answer
