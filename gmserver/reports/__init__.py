"""What players receive by mail, as plain values: the context of the templates in `templates/player`.

Pure: no I/O, no clock. Each `build_*` function turns engine outcomes, order readings and times
into a frozen dataclass whose fields are exactly what its template prints; `Composer.render`
(gmserver.mail.compose) turns one into a mail body. Orders keep the engine's notation beside
the province names ("A Paris -> Burgundy (A PAR - BUR)") so a player can copy either.
"""

from gmserver.reports.reminders import Reminder, build_reminder
from gmserver.reports.replies import Confirmation, ReadLine, Rejection, build_confirmation, build_rejection
from gmserver.reports.turn import (
    Adjustment,
    CentreCount,
    DislodgedUnit,
    OrderLine,
    PowerOrders,
    PowerUnits,
    TurnReport,
    build_turn_report,
)
from gmserver.reports.words import (
    DEFAULT_REASONS,
    RESULT_WORDS,
    NamedOrder,
    When,
    describe_order,
    describe_unit,
    format_duration,
    format_length,
    format_time,
    name_order,
    place,
    place_with_code,
    power_name,
    result_in_words,
    unit_with_code,
)

__all__ = [
    "DEFAULT_REASONS", "RESULT_WORDS", "Adjustment", "CentreCount", "Confirmation", "DislodgedUnit", "NamedOrder",
    "OrderLine", "PowerOrders", "PowerUnits", "ReadLine", "Rejection", "Reminder", "TurnReport", "When",
    "build_confirmation", "build_rejection", "build_reminder", "build_turn_report", "describe_order",
    "describe_unit", "format_duration", "format_length", "format_time", "name_order", "place", "place_with_code",
    "power_name", "result_in_words", "unit_with_code",
]
