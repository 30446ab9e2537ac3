"""Where a test run's time went, from the files GNS3_COPILOT_TEST_TIMELINE=<dir> makes.

    python tests/tools/timeline.py <dir> [top]

Prints, per worker, when it started and finished and how long it was busy; then the costliest
groups (the scheduler's units: a file, or the tests sharing a costly fixture) with their worker.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path


def main(folder: str, top: int = 25) -> None:
    rows = []
    for path in sorted(Path(folder).glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            start, end, group, nodeid = line.split("\t", 3)
            rows.append((float(start), float(end), path.stem, group, nodeid))
    if not rows:
        raise SystemExit(f"no timeline files in {folder}")
    t0 = min(r[0] for r in rows)
    workers: dict[str, list[float]] = defaultdict(lambda: [1e18, 0.0, 0.0])
    groups: dict[tuple[str, str], list[float]] = defaultdict(lambda: [1e18, 0.0, 0.0])
    for start, end, worker, group, _ in rows:
        for acc in (workers[worker], groups[(group, worker)]):
            acc[0] = min(acc[0], start - t0)
            acc[1] = max(acc[1], end - t0)
            acc[2] += end - start
    print("worker   first    last    busy")
    for worker, (first, last, busy) in sorted(workers.items()):
        print(f"{worker:6} {first:7.0f} {last:7.0f} {busy:7.0f}")
    print(f"\n{'group':60} worker  start    end   busy")
    for (group, worker), (first, last, busy) in sorted(groups.items(), key=lambda g: -g[1][2])[
        :top
    ]:
        print(f"{group[-60:]:60} {worker:6} {first:6.0f} {last:6.0f} {busy:6.0f}")


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:3]))
