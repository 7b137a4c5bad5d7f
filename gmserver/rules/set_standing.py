"""What a confirmation says of the set itself, beside how its lines were read: whether it is
preliminary or final where the house rules tell them apart (000 II(1)), and that the orders of a
power in civil disorder are filed but not used (000 VII(6) ¶2). Pure: words with the game's
own clauses, never an option key.
"""

from __future__ import annotations

from gmserver.rules.briefing import cited_clause
from gmserver.rules.ruleset import Ruleset


def tells_sets_apart(ruleset: Ruleset) -> bool:
    """Whether preliminary and final sets mean something different in the game: sets are
    preliminary unless marked (default_set_status = preliminary, 000 II(1)), or a minor turn may
    end early on final sets (early_processing, 000 VII(2))."""
    return ruleset.default_set_status == "preliminary" or ruleset.early_processing != "never"


def status_note(ruleset: Ruleset, status: str) -> str | None:
    """000 II(1): "This set is preliminary" or "final", and how to mark a set final; None where
    the house rules do not tell them apart."""
    if not tells_sets_apart(ruleset):
        return None
    clause = cited_clause(ruleset, "default_set_status")
    if status == "final":
        return f"This set is final{clause}."
    return (f"This set is preliminary{clause}. To make your orders final, reply to this mail with them and the "
            "word \"Final\" on a line of its own.")


def civil_disorder_note(ruleset: Ruleset, power: str) -> str:
    """000 VII(6) ¶2 ("from that point forward" the country's units hold): the set is filed, but
    a power in civil disorder is given the defaults at the deadline, whatever it has on file."""
    return (f"{power.title()} is in civil disorder{cited_clause(ruleset, 'nmr_limit_to_cd')}: these orders will "
            "not be used. Until the GM takes the power out of civil disorder or gives it to a new player, its "
            "units hold and dislodged units are disbanded.")
