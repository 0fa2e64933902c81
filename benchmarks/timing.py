"""The one timing helper the benchmark scripts share."""
from __future__ import annotations

import statistics
import time


def median_ms(action, repeat: int) -> float:
    """Median wall time of `repeat` calls of `action`, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
