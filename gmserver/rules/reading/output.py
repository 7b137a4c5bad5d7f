"""A reading as JSON (for `gmserver orders read`); the player's confirmation is a template
(templates/player/confirmation.txt.j2, built by gmserver.reports.replies)."""

from __future__ import annotations

from typing import Any

from gmserver.rules.reading.model import Reading


def reading_to_json(reading: Reading) -> dict[str, Any]:
    return {
        "power": reading.power,
        "phase": reading.phase,
        "orders": [str(o) for o in reading.orders],
        "set_orders": [str(o) for o in reading.set_orders],
        "unsupportable": [str(u) for u in reading.unsupportable],
        "set_status": reading.set_status,
        "version": reading.version,
        "is_change": reading.is_change,
        "notes": list(reading.notes),
        "contingent": list(reading.contingent),
        "lines": [
            {"line": r.line, "text": r.text, "status": r.status, "order": None if r.order is None else str(r.order),
             "rule": r.rule, "message": r.message}
            for r in reading.lines
        ],
    }

