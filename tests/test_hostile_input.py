"""Hostile input and faults (issue 33): each attack is refused in the documented shape, and the service that met
it goes on answering valid requests."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reasoner.cli import main

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "facts" / "events" / "gem-letha-livestock-auction.yaml"


def cli(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# ---------------------------------------------------------------- deep nesting (item 1)

DEEP_BODIES = {
    "an event 900 lists deep": '{"event": ' + nested(900) + "}",
    "an event 1,200 lists deep": '{"event": ' + nested(1200) + "}",
    "an event 100,000 lists deep": '{"event": ' + nested(100_000) + "}",
    "a field of an event 900 deep": '{"event": {"id": "x", "kinds": ' + nested(900) + "}}",
    "an option 900 deep": '{"ordinances": ' + nested(900) + ', "source": "id: x"}',
    "a JSON source 5,000 deep": json.dumps({"source": nested(5000), "filename": "x.json"}),
    "a YAML source 5,000 deep": json.dumps({"source": "a: " + nested(5000)}),
}


def _post(url: str, path: str, raw: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(url + path, data=raw, method="POST", headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_after_each_deeply_nested_body_the_one_worker_still_answers():
    pytest.importorskip("fastapi")
    from web_server import running_server

    valid = json.dumps({"source": SMALL.read_text(encoding="utf-8"), "filename": SMALL.name}).encode()
    with running_server(workers=1, time_limit=15) as url:
        for name, body in DEEP_BODIES.items():
            status, answer = _post(url, "/evaluate", body.encode())
            assert status == 422, (name, answer[:300])
            refusal = json.loads(answer)
            assert "nested" in refusal["message"] and refusal["problems"], name
            status, answer = _post(url, "/evaluate", valid)
            assert status == 200, (name, answer[:300])


def test_a_worker_goes_back_to_service_when_its_request_cannot_be_passed_to_it():
    from reasoner.web.workers import Pool

    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    pool = Pool(1, time_limit=15)
    try:
        with pytest.raises(RuntimeError):
            pool.call("evaluate", {"event": deep})
        answer = json.loads(pool.call("evaluate", {"source": SMALL.read_text(encoding="utf-8"), "filename": SMALL.name}))
        assert answer and answer[0]["event"]
    finally:
        pool.close()


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".yaml"])
@pytest.mark.parametrize("depth", [20, 900, 5000])
def test_the_cli_refuses_deep_nesting_with_exit_2_naming_the_file(tmp_path, suffix, depth):
    path = tmp_path / f"deep{suffix}"
    if suffix == ".yaml":
        path.write_text("id: x\nkinds: " + nested(depth) + "\n")
    else:
        path.write_text('{"id": "x", "kinds": ' + nested(depth) + "}\n")
    code, output = cli("evaluate", str(path))
    assert code == 2 and str(path) in output and "nested" in output, output[-400:]


def test_coverage_refuses_a_deeply_nested_scenario_file_with_exit_2(tmp_path):
    (tmp_path / "deep.yaml").write_text("ordinance: gem\ncases:\n- name: x\n  event: " + "{a: " * 5000 + "1"
                                        + "}" * 5000 + "\n")
    code, output = cli("coverage", str(tmp_path), "-o", "gem")
    assert code == 2 and "deep.yaml" in output and "nested" in output, output[-400:]


# ---------------------------------------------------------------- a time limit that passes while grounding (item 7)

@pytest.mark.parametrize("seconds", ["0.5", "1", "1.5"])
def test_a_time_limit_passing_while_grounding_exits_3_not_139(tmp_path, seconds):
    import subprocess
    import sys

    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps({"id": f"e{n}", "kinds": ["festival"], "attendance": {"expected_max": 1000 + n},
                                        "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-18T23:00"}}) + "\n"
                            for n in range(4000)))
    done = subprocess.run([sys.executable, "-m", "reasoner.cli", "evaluate", str(path), "--time-limit", seconds,
                           "--format", "json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 3, (done.returncode, done.stderr[-300:])
    assert done.stderr.strip().splitlines() == [
        f"error: no answer within the time limit of {seconds} s (stopped while grounding); no conclusion is given"]
    assert done.stdout == ""


# ---------------------------------------------------------------- ids printed literally (item 9)

@pytest.mark.parametrize("event_id", ["[/]x[/", "[link=https://example.invalid]click[/link]", ":smile: [bold]b"])
def test_compare_prints_an_event_id_literally_never_as_markup(tmp_path, event_id):
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"id": event_id, "kinds": ["festival"], "attendance": {"expected_max": 3000},
                                "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-18T23:00"}}))
    result = CliRunner().invoke(main, ["compare", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output[-400:]
    assert result.output.startswith(f"{event_id}: "), result.output[:200]
    assert "\x1b]8;" not in result.output


# ---------------------------------------------------------------- what YAML would read silently (items 4, 5, 6)

DAILY = "id: x\nkinds: [festival]\nattendance: {expected_max: 3000}\nschedule: {daily: {first_day: 2027-07-16, " \
        "last_day: 2027-07-17, %s}}\n"

REFUSED = [
    # a day written twice: the last one would win (Wyoming permits 3 or 2 by the order)
    (DAILY % 'open: "10:00", close: "22:00", expected_max: {2027-07-16: 3, 2027-07-16: 2}',
     "the key '2027-07-16' is written twice"),
    (DAILY % 'open: "10:00", close: "22:00", expected_max: {2027-07-16: 3, "2027-07-16": 2}',
     "the key '2027-07-16' is written twice"),
    # seconds would be dropped: 10:00:30 to 22:00 would count as 12 hours
    (DAILY % 'open: "10:00:30", close: "22:00"', "schedule.daily.open: give the time to the minute, without seconds"),
    (DAILY % 'open: 10:00:30, close: "22:00"', "schedule.daily.open: give the time to the minute, without seconds"),
    (DAILY % 'open: "10:00", close: {min: "21:00:01", max: "23:00"}', "without seconds"),
    ("id: x\nattendance: {expected_max: 3000}\nschedule: {start: 2027-07-16T10:00:30, end: 2027-07-16T22:00}\n",
     "schedule.start: give the time to the minute, without seconds"),
    # YAML 1.1 reads 58:20 as the base-60 number 3,500
    ("id: x\nattendance: {expected_max: 58:20}\nschedule: {start: 2027-07-16T10:00, end: 2027-07-16T22:00}\n",
     "attendance.expected_max: must be a whole number"),
    (DAILY.replace("3000", "1:00:00") % 'open: "10:00", close: "22:00"', "attendance.expected_max: must be a whole number"),
]


@pytest.mark.parametrize("text, words", REFUSED, ids=[f"case{n}" for n in range(len(REFUSED))])
def test_what_yaml_would_read_silently_is_refused_with_exit_2(tmp_path, text, words):
    path = tmp_path / "event.yaml"
    path.write_text(text)
    code, output = cli("evaluate", str(path), "-o", "wyoming", "--format", "json")
    assert code == 2 and words in output, output[-500:]


def test_an_unquoted_clock_time_is_a_clock_time_not_a_base_60_number(tmp_path):
    unquoted, quoted = tmp_path / "unquoted.yaml", tmp_path / "quoted.yaml"
    unquoted.write_text(DAILY % "open: 10:00, close: 22:00")
    quoted.write_text(DAILY % 'open: "10:00", close: "22:00"')
    first, second = cli("evaluate", str(unquoted), "--format", "json"), cli("evaluate", str(quoted), "--format", "json")
    assert first == second and first[0] == 0


@pytest.mark.parametrize("name", ["note", "no", "show"])
def test_whatif_flips_only_what_reasoner_conclusions_lists(name):
    code, output = cli("whatif", str(SMALL), "-o", "gem", "--flip", name)
    assert code == 2 and f"--flip '{name}'" in output and "reasoner conclusions gem" in output, output[-400:]


# ---------------------------------------------------------------- web hardening (item 2)

@pytest.fixture(scope="module")
def quick_server():
    pytest.importorskip("fastapi")
    from web_server import running_server

    with running_server(workers=1, time_limit=15, header_seconds=1.0, body_seconds=1.5) as url:
        yield url


def _get(url: str, path: str):
    request = urllib.request.Request(url + path)
    try:
        response = urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        response = error
    with response:
        return response.status, response.headers, response.read()


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/ordinances", "/docs", "/nowhere"])
def test_every_answer_says_nosniff_no_framing_and_a_policy_that_loads_nothing_from_elsewhere(quick_server, path):
    status, headers, _ = _get(quick_server, path)
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY", (status, headers)
    policy = headers["content-security-policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert "http" not in policy and "*" not in policy
    if path == "/":
        assert "unsafe-inline" not in policy


def _connect(url: str):
    import socket

    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=20)
    return connection


def _answer_within(connection, seconds: float) -> tuple[float, bytes]:
    import time

    began, data = time.monotonic(), b""
    while True:
        part = connection.recv(4096)
        if not part:
            break
        data += part
    return time.monotonic() - began, data


def test_a_connection_stalling_its_headers_is_closed_after_the_header_time(quick_server):
    connection = _connect(quick_server)
    connection.sendall(b"POST /evaluate HTTP/1.1\r\nHost: x\r\n")
    waited, data = _answer_within(connection, 10)
    assert waited < 5 and data.startswith(b"HTTP/1.1 408"), (waited, data[:80])


def test_a_connection_trickling_its_headers_is_closed_after_the_header_time(quick_server):
    import time

    connection = _connect(quick_server)
    began = time.monotonic()
    with pytest.raises(OSError):
        for byte in b"GET /ordinances HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 400:
            connection.sendall(bytes([byte]))
            time.sleep(0.02)
    assert time.monotonic() - began < 5


def test_a_body_that_stalls_is_a_408_in_the_documented_shape(quick_server):
    connection = _connect(quick_server)
    connection.sendall(b"POST /evaluate HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100"
                       b"\r\n\r\n{")
    waited, data = _answer_within(connection, 10)
    head, _, body = data.partition(b"\r\n\r\n")
    assert waited < 5 and head.startswith(b"HTTP/1.1 408"), data[:200]
    assert json.loads(body)["message"] == "the request body did not arrive within 1.5 s"


def test_a_client_gone_mid_body_leaves_no_traceback_in_the_log(tmp_path):
    """As `reasoner serve` runs: its own process, its log on stderr."""
    pytest.importorskip("fastapi")
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "serve.log"
    with log.open("wb") as sink:
        server = subprocess.Popen([sys.executable, "-m", "reasoner.cli", "serve", "--port", str(port), "--workers", "1"],
                                  stdout=sink, stderr=subprocess.STDOUT, cwd=tmp_path)
        try:
            url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
            while True:
                try:
                    assert _get(url, "/ordinances")[0] == 200
                    break
                except (OSError, urllib.error.URLError):
                    assert time.monotonic() < deadline and server.poll() is None, log.read_text()
                    time.sleep(0.2)
            for body in (b'{"event"', b'{"source": "' + b"a" * 500_000):
                connection = _connect(url)
                connection.sendall(b"POST /evaluate HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                                   b"content-length: 1000000\r\n\r\n" + body)
                time.sleep(0.3)
                connection.close()
            time.sleep(1)
            assert _get(url, "/ordinances")[0] == 200
        finally:
            server.terminate()
            server.wait(30)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "ERROR" not in text, text[-2000:]


def test_the_markdown_report_shows_an_id_literally(tmp_path):
    path, out = tmp_path / "event.json", tmp_path / "report.md"
    event_id = "<script>alert(1)</script> *x* [a](b)"
    path.write_text(json.dumps({"id": event_id, "kinds": ["festival"], "attendance": {"expected_max": 3000},
                                "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-18T23:00"}}))
    code, output = cli("report", str(path), "-o", "gem", "--out", str(out))
    text = out.read_text(encoding="utf-8")
    assert code == 0, output
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; \\*x\\* \\[a\\](b)" in text


# ---------------------------------------------------------------- one exit policy (item 8)

UNKNOWN = ROOT / "facts" / "events" / "unknown-festival.yaml"
COMMANDS = {
    "evaluate": ["evaluate", str(SMALL)], "evaluate json": ["evaluate", str(SMALL), "--format", "json"],
    "explain": ["explain", str(SMALL), "-o", "gem"], "compare": ["compare", str(SMALL)],
    "questions": ["questions", str(UNKNOWN), "-o", "gem"], "whatif": ["whatif", str(SMALL), "-o", "gem", "--flip", "toilets"],
    "clauses": ["clauses", "gem"], "conclusions": ["conclusions", "gem"], "ordinances": ["ordinances"],
    "schema": ["schema"], "thresholds": ["thresholds"], "check": ["check", "-o", "gem"],
    "sweep": ["sweep", str(SMALL), "--vary", "attendance=300..400", "-o", "gem"],
}


def reasoner(*args: str, stdout: Any = None, stdin: Any = None, stderr: Any = None, **options: Any):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "reasoner.cli", *args], stdout=stdout or subprocess.PIPE,
                          stdin=stdin if stdin is not None else subprocess.DEVNULL, stderr=stderr or subprocess.PIPE,
                          timeout=300, **options)


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_a_full_disk_on_standard_output_is_exit_4_with_one_line(command):
    with open("/dev/full", "w") as full:
        done = reasoner(*COMMANDS[command], stdout=full)
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 4 and lines[-1] == "error: cannot write the output: No space left on device", \
        (done.returncode, done.stderr[-500:])
    assert "Traceback" not in done.stderr.decode()


@pytest.mark.parametrize("command", ["evaluate json", "clauses", "schema"])
def test_a_closed_pipe_is_exit_4(command):
    import subprocess
    import sys

    reader = subprocess.Popen([sys.executable, "-c", "import os; os.close(0)"], stdin=subprocess.PIPE)
    reader.wait(60)
    done = reasoner(*COMMANDS[command], stdout=reader.stdin)
    reader.stdin.close()
    assert done.returncode == 4 and done.stderr.decode().strip() == "error: cannot write the output: Broken pipe", \
        (done.returncode, done.stderr[-500:])


def test_standard_output_closed_is_exit_4_not_a_silent_0():
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "reasoner.cli", "schema"], stderr=subprocess.PIPE, timeout=120,
                          preexec_fn=lambda: os.close(1))  # noqa: PLW1509 - started with standard output closed
    assert done.returncode == 4 and b"standard output is closed" in done.stderr, done.stderr[-500:]


@pytest.mark.parametrize("command", ["evaluate", "explain", "compare", "questions"])
def test_standard_input_closed_is_bad_input_exit_2(command):
    import os
    import subprocess
    import sys

    arguments = [*COMMANDS[command]]
    arguments[1] = "-"
    done = subprocess.run([sys.executable, "-m", "reasoner.cli", *arguments], capture_output=True, timeout=120,
                          preexec_fn=lambda: os.close(0))  # noqa: PLW1509 - started with standard input closed
    assert done.returncode == 2 and done.stderr.decode().strip() == \
        "error: -: cannot read standard input: it is closed", done.stderr[-500:]


def test_bad_input_stays_exit_2_when_standard_error_is_full():
    with open("/dev/full", "w") as full:
        done = reasoner("evaluate", "/nonexistent/event.yaml", stderr=full)
    assert done.returncode == 2


def test_an_interrupt_is_exit_130_with_one_line(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps({"id": f"e{n}", "attendance": {"expected_max": 1000 + n},
                                        "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-18T23:00"}}) + "\n"
                            for n in range(4000)))
    process = subprocess.Popen([sys.executable, "-m", "reasoner.cli", "evaluate", str(path), "--format", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and err.decode().strip() == "interrupted", (process.returncode, err[-500:])
    assert out == b""


@pytest.mark.parametrize("command", ["report", "sweep"])
def test_a_file_that_cannot_be_written_whole_is_not_left_behind(tmp_path, monkeypatch, command):
    import errno
    import os
    import pathlib

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    def written_empty(self: pathlib.Path, *args: Any, **kwargs: Any) -> None:
        self.open("w").close()
        full()

    monkeypatch.setattr(os, "replace", full)
    monkeypatch.setattr(pathlib.Path, "write_text", written_empty)
    target = tmp_path / ("report.md" if command == "report" else "samples.csv")
    arguments = ["report", str(SMALL), "-o", "gem", "--out", str(target)] if command == "report" else \
        [*COMMANDS["sweep"], "--samples", str(target)]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 4, (result.exit_code, result.output[-500:])
    assert "No space left on device" in result.output
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- amounts kept in parts, explained in their unit (item 3)

def test_an_explanation_states_the_solid_waste_amounts_in_pounds(tmp_path):
    path = tmp_path / "event.yaml"
    path.write_text("id: big\nkinds: [festival]\nattendance: {expected_max: 2501}\n"
                    "schedule: {start: 2027-07-16T10:00, end: 2027-07-18T23:00}\n"
                    "provisions: {solid_waste_lbs_per_day: 6000}\n")
    code, output = cli("explain", str(path), "solid_waste_lbs_per_day", "-o", "gem")
    text = " ".join(output.replace("│", " ").split())
    assert code == 0, output[-400:]
    for words in ("solid waste lbs per day: 6,252.5 lbs per day", "(6,252.5 required, 6,000 provided)",
                  "The organizer provides 6,000 against 6,252.5 required.",
                  "the organizer provides 6,000 of solid waste lbs per day"):
        assert words in text, words


# ---------------------------------------------------------------- special files and sizes outside the batch (item 14)

def _special(tmp_path: Path, kind: str) -> Path:
    """A path that is no regular file to read whole: a FIFO no one writes to, a device that never ends, or a
    sparse file past the 16 MiB limit."""
    import os

    path = tmp_path / f"special-{kind}.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        with open(path, "wb") as handle:
            handle.truncate(17 * 2**20)
    return path


def _bounded(*args: str):
    """The command run with 1 GiB of address space at most and 60 s: the old reads blocked, or grew without end."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30 * 3, 2**30 * 3))

    return subprocess.run([sys.executable, "-m", "reasoner.cli", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60, preexec_fn=limit)


def _refused(done: Any, path: Path, words: str) -> None:
    error = done.stderr.decode()
    assert done.returncode == 2, (done.returncode, error[-500:])
    assert "Traceback" not in error and len(error.strip().splitlines()) == 1, error[-500:]
    assert path.name in error and words in error, error


SPECIAL_WORDS = {"fifo": "a FIFO (named pipe)", "zero": "a device", "large": "larger than 16 MiB"}
EVENT_COMMANDS = {
    "evaluate": ["evaluate", "{}"], "explain": ["explain", "{}", "-o", "gem"], "readings": ["readings", "{}", "-o", "gem"],
    "questions": ["questions", "{}", "-o", "gem"], "whatif": ["whatif", "{}", "-o", "gem", "--flip", "toilets"],
    "compare": ["compare", "{}"], "report": ["report", "{}", "--out", "report-out.html"],
    "sweep": ["sweep", "{}", "--vary", "attendance=300..400", "-o", "gem"],
}


@pytest.mark.parametrize("kind", SPECIAL_WORDS)
@pytest.mark.parametrize("command", EVENT_COMMANDS, ids=list(EVENT_COMMANDS))
def test_an_event_file_that_is_a_special_file_is_refused_at_once(tmp_path, command, kind):
    path = _special(tmp_path, kind)
    done = _bounded(*(str(path) if arg == "{}" else arg for arg in EVENT_COMMANDS[command]))
    _refused(done, path, SPECIAL_WORDS[kind])


@pytest.mark.parametrize("kind", SPECIAL_WORDS)
def test_new_refuses_a_text_that_is_a_special_file(tmp_path, kind):
    path = _special(tmp_path, kind)
    done = _bounded("new", "hostile", "--text", str(path), "--root", str(tmp_path / "checkout"))
    _refused(done, path, SPECIAL_WORDS[kind])
    assert not (tmp_path / "checkout" / "encodings" / "hostile.yaml").exists()


@pytest.mark.parametrize("kind", SPECIAL_WORDS)
def test_coverage_refuses_a_scenario_file_that_is_a_special_file(tmp_path, kind):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    path = _special(folder, kind)
    done = _bounded("coverage", str(folder), "-o", "gem")
    _refused(done, path, SPECIAL_WORDS[kind])
