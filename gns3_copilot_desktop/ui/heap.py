"""Keep Python's cyclic garbage collector from stalling the UI thread.

A full collection scans every tracked object. Once the agent's libraries are imported the app
holds ~170,000 of them, and a full pass took ~100 ms in the UI benchmark: a visible freeze in
the middle of a streaming answer. Nearly all of them (modules, classes, functions) live as long
as the process, so the app moves them out of the collector's scans once, after its start-up
imports; later passes only scan what the app made since.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Collect once, then exempt every object alive now from later scans; how many were frozen.

    Call it once the heavy imports are done (the app's warm-up). Objects frozen here are never
    collected as cyclic garbage, which is why this is for start-up, not after each turn.
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


__all__ = ["freeze_startup_heap"]
