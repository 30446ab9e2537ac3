"""Dispatcher: ``python -m bench <name>`` runs ``main()`` of the module ``bench.bench_<name>``.

A new benchmark needs no registration here: add ``bench/bench_<name>.py`` with a ``main()``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def _available() -> list[str]:
    folder = str(Path(__file__).parent)
    return sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules([folder])
        if m.name.startswith("bench_")
    )


def main(argv: list[str]) -> int:
    """Run the named benchmark; list the available ones when the name is missing or unknown.

    Arguments after the name are the benchmark's own (it reads them from ``sys.argv[2:]``)."""
    names = _available()
    if not argv or argv[0] not in names:
        print(f"usage: python -m bench <name>   (available: {', '.join(names)})", file=sys.stderr)
        return 2
    module = importlib.import_module(f"bench.bench_{argv[0]}")
    module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
