"""A reading as JSON (for `gmserver orders read`) and as the confirmation text for the player."""

from __future__ import annotations

from typing import Any

from gmserver.rules.position import describe_phase
from gmserver.rules.reading.model import Reading


def reading_to_json(reading: Reading) -> dict[str, Any]:
    return {
        "power": reading.power,
        "phase": reading.phase,
        "orders": list(reading.orders),
        "set_orders": list(reading.set_orders),
        "unsupportable": list(reading.unsupportable),
        "set_status": reading.set_status,
        "version": reading.version,
        "is_change": reading.is_change,
        "notes": list(reading.notes),
        "contingent": list(reading.contingent),
        "lines": [
            {"line": r.line, "text": r.text, "status": r.status, "order": r.order, "rule": r.rule,
             "message": r.message}
            for r in reading.lines
        ],
    }


_HEADINGS = (("accepted", "Read as written"), ("corrected", "Read with corrections"),
             ("rejected", "Not accepted"), ("ignored", "Ignored"))


def confirmation_text(reading: Reading) -> str:
    """The reply body: each line as read, grouped like Mailman's Results / Unprocessed / Ignored,
    then the full order set now on file."""
    out = [f"Orders for {reading.power.title()}, {describe_phase(reading.phase)}"
           f" ({reading.set_status}{', version ' + reading.version if reading.version else ''})", ""]
    for status, heading in _HEADINGS:
        rows = [r for r in reading.lines if r.status == status]
        if not rows:
            continue
        out.append(f"{heading}:")
        for r in rows:
            read = f" -> {r.order}" if r.order else ""
            out.append(f"  line {r.line}: {r.text.strip()}{read}")
            if r.message:
                out.append(f"      {r.message}" + (f" [{r.rule}]" if r.rule else ""))
        out.append("")
    out.extend(reading.notes)
    if reading.contingent:
        # contingent_minor_orders (000 II(5), 001 II(6))
        out.append("Kept for the retreat or adjustment turn after these moves (used only if you send no set then):")
        out.extend(f"  {line}" for line in reading.contingent)
        out.append("")
    out.append("Orders now on file:")
    out.extend(f"  {order}" for order in reading.orders) if reading.orders else out.append("  (none)")
    if reading.unsupportable:
        out.append("")
        out.append("Ordered to move (cannot receive support to hold): " + ", ".join(reading.unsupportable))
    return "\n".join(out) + "\n"
