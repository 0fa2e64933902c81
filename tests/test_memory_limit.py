"""Bounded memory for every command (issue 33, item 13): past --memory-limit an answer is given up with exit 4 and
one line (a what-if over hundreds of sessions once took 22 GB and the OOM killer), the limit is put back after, and
a web worker that ran out answers 503 and is replaced, so the next request answers."""
from __future__ import annotations

import json
import resource
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml

from reasoner import service

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "facts" / "events" / "gem-letha-livestock-auction.yaml"


def many_sessions(count: int) -> dict:
    """Sessions of two hours every three, 6,000 people: a what-if search that grows with the sessions."""
    start = datetime(2027, 7, 16, 12, 0)
    return {"id": f"sessions-{count}", "kinds": ["festival"], "attendance": {"expected_max": 6000},
            "schedule": {"sessions": [{"start": (start + timedelta(hours=3 * i)).isoformat(timespec="minutes"),
                                       "end": (start + timedelta(hours=3 * i + 2)).isoformat(timespec="minutes")}
                                      for i in range(count)]},
            "site": {"kind": "open_land", "locations": 1}, "organizer": {"kind": "corporation", "sponsor": "private"},
            "flags": ["open_to_public"]}


def reasoner(*arguments: str) -> subprocess.CompletedProcess:
    # Its own process: the limit is the process's address space, which pytest's own would already exceed.
    return subprocess.run([sys.executable, "-m", "reasoner.cli", *arguments], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def test_a_whatif_past_the_memory_limit_exits_4_with_one_line_and_prints_nothing(tmp_path):
    path = tmp_path / "sessions.yaml"
    path.write_text(yaml.safe_dump(many_sessions(50)))
    done = reasoner("--memory-limit", "300", "whatif", str(path), "-o", "trempealeau", "--flip", "permit_required",
                    "--proposals", "1")
    assert done.returncode == 4, done.stderr[-800:]
    assert done.stdout == ""
    assert done.stderr.splitlines() == ["error: the answer needs more than the memory limit of 300 MB; no conclusion "
                                        "is given (a what-if searches less with some facts kept)"]


def test_within_the_memory_limit_the_answer_is_the_same(tmp_path):
    plain = reasoner("evaluate", str(SMALL), "--format", "json")
    limited = reasoner("--memory-limit", "1000", "evaluate", str(SMALL), "--format", "json")
    assert plain.returncode == limited.returncode == 0, limited.stderr
    assert limited.stdout == plain.stdout and json.loads(limited.stdout)


def test_a_memory_limit_below_the_least_a_command_needs_is_refused_with_exit_2():
    done = reasoner("--memory-limit", "100", "evaluate", str(SMALL))
    assert done.returncode == 2 and "--memory-limit" in done.stderr and "256" in done.stderr, done.stderr


def test_the_default_limit_is_half_the_machine_and_shown_in_the_help():
    import os

    assert service.default_memory_limit() == os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2 // (1 << 20)
    done = reasoner("--help")
    assert "--memory-limit" in done.stdout and "half the" in done.stdout


def test_bounded_turns_running_out_into_out_of_memory_and_puts_the_limit_back():
    before = resource.getrlimit(resource.RLIMIT_AS)

    def too_much() -> None:
        raise MemoryError("bad_alloc")

    with pytest.raises(service.OutOfMemory, match="memory limit of 64,000 MB"):
        service.bounded(64_000, too_much)
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    assert service.bounded(64_000, lambda: 42) == 42
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_limit_never_raises_one_already_set():
    before = resource.getrlimit(resource.RLIMIT_AS)
    with service.memory_limit(64_000):
        assert resource.getrlimit(resource.RLIMIT_AS)[0] == 64_000 << 20
        with service.memory_limit(1 << 30):  # a petabyte: the limit in force stays
            assert resource.getrlimit(resource.RLIMIT_AS)[0] == 64_000 << 20
        assert resource.getrlimit(resource.RLIMIT_AS)[0] == 64_000 << 20
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_web_worker_that_runs_out_of_memory_answers_and_is_replaced():
    from reasoner.web.workers import Pool

    pool = Pool(1, time_limit=300, memory_limit=300)
    try:
        with pytest.raises(service.OutOfMemory, match="memory limit of 300 MB"):
            pool.call("whatif", {"event": many_sessions(50), "ordinance": "trempealeau", "flip": "permit_required",
                                 "proposals": 1})
        answer = json.loads(pool.call("evaluate", {"source": SMALL.read_text(encoding="utf-8"), "filename": SMALL.name}))
        assert answer and answer[0]["event"]
    finally:
        pool.close()
