"""Load test of `reasoner serve` on loopback: requests per second for POST /evaluate with 1 and 8 concurrent
clients, and the 50th/99th percentile latency. Bounded: it starts its own server on 127.0.0.1, sends at most
--requests requests per run or stops after --seconds, whichever comes first, then stops the server.

    python benchmarks/bench_web.py --requests 400 --seconds 60 --clients 1,8 [--publish]

--publish writes the figures into docs/performance.md's block `web`.
"""
from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from timing import publish, table  # noqa: E402
from web_server import running_server  # noqa: E402


def run(host: str, port: int, body: bytes, clients: int, requests: int, seconds: float) -> dict:
    latencies: list[float] = []
    failures = 0
    lock = threading.Lock()
    counter = iter(range(requests))
    stop_at = time.perf_counter() + seconds

    def client() -> None:
        nonlocal failures
        connection = http.client.HTTPConnection(host, port, timeout=60)  # one keep-alive connection per client
        while time.perf_counter() < stop_at:
            with lock:
                if next(counter, None) is None:
                    break
            start = time.perf_counter()
            connection.request("POST", "/evaluate", body, {"content-type": "application/json"})
            response = connection.getresponse()
            response.read()
            elapsed = time.perf_counter() - start
            with lock:
                latencies.append(elapsed)
                failures += response.status != 200
        connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    ordered = sorted(latencies)
    return {"clients": clients, "requests": len(ordered), "failed": failures, "seconds": round(wall, 2),
            "requests_per_second": round(len(ordered) / wall, 1),
            "p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--event", default=str(ROOT / "facts" / "events" / "harvest-music-festival.yaml"))
    parser.add_argument("--clients", default="1,8", help="Concurrent clients, one run each (comma-separated).")
    parser.add_argument("--requests", type=int, default=400, help="At most this many requests per run.")
    parser.add_argument("--seconds", type=float, default=60.0, help="At most this long per run.")
    parser.add_argument("--workers", type=int, default=None, help="The server's solving processes (default: one per CPU).")
    parser.add_argument("--publish", action="store_true", help="Write the figures into docs/performance.md.")
    args = parser.parse_args()
    body = json.dumps({"source": Path(args.event).read_text(encoding="utf-8")}).encode()
    with running_server(workers=args.workers) as url:
        host, port = url.removeprefix("http://").split(":")
        run(host, int(port), body, 2, 20, 30.0)  # warm-up: workers load the encodings
        results = []
        for clients in (int(c) for c in args.clients.split(",")):
            results.append(run(host, int(port), body, clients, args.requests, args.seconds))
            print(json.dumps(results[-1]), flush=True)
    if args.publish:
        rows = [(r["clients"], f'{r["requests_per_second"]:,.1f}', f'{r["p50_ms"]:,.0f} ms', f'{r["p99_ms"]:,.0f} ms')
                for r in results]
        publish("web", table(("clients", "requests/s", "p50", "p99"), rows, "rrrr"),
                f"python benchmarks/bench_web.py --requests {args.requests} --seconds {args.seconds:g} --clients {args.clients}")


if __name__ == "__main__":
    main()
