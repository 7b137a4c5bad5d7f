"""The DATC corpus (`tests/data/datc/datc.json`, format in its README) and reading its orders:
shared by the engine adapter's test and the DATC cases played by mail."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DEFAULT_DATC_JSON = Path(__file__).parents[1] / "data" / "datc" / "datc.json"
DATC_JSON = Path(os.environ.get("GMSERVER_DATC_JSON") or DEFAULT_DATC_JSON)
EXPECTED_CASES = 173

# The one case where the engine takes the other DATC option (README; docs/architecture.md, "The engine").
ENGINE_DIFFERENCES = {
    "6.B.9": (
        "coast_support_mismatch: DATC 4.B.4 prefers that a support naming another coast than the "
        "supported fleet's move fails (Italian F WES reaches SPA/SC); the engine rewrites the "
        "support's coast from the supported fleet's own order, so the support holds and the "
        "Italian fleet bounces. The house-rule layer decides this option before the engine."
    ),
}


def load_cases() -> list[dict[str, Any]] | None:
    try:
        return json.loads(DATC_JSON.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


CASES = load_cases()
MISSING = (
    f"DATC corpus not found at {DATC_JSON}: the engine adapter cannot be checked against the DATC. "
    f"Put datc.json there (default {DEFAULT_DATC_JSON}) or set GMSERVER_DATC_JSON to its path."
)


def board_of(units: Mapping[str, Any]) -> dict[str, list[str]]:
    return {power: sorted(us) for power, us in units.items() if us}


def unit_named(order: str) -> str:
    return " ".join(order.split()[:2])


def move_target(order: str) -> str | None:
    words = [w for w in order.split() if w != "VIA"]
    if len(words) >= 4 and words[2] in ("-", "R"):
        return words[3]
    return None
