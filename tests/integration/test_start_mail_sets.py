"""What the start mail and the RULES answer say a later order set does, in the words of each
profile's own rule for combining sets (000 III(4), 001 II(7), 002 ORDERS 2, 003 [10])."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.briefing import key_points
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.base.outbox import message_bytes
from tests.support.world import new_game, player_address, services_for

pytestmark = pytest.mark.integration

REPLACED = "replaces the orders on file"
MERGED = "changes only the units it gives orders to"


def _start_mail(database_url, clock, profile: str) -> str:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="setgame", ruleset=profile)
    with transaction(services.sessions) as session:
        queue_start_mails(session, services, session.get(Game, game_id), clock(), powers=["FRANCE"])
        [row] = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "start",
                                                            OutboxMessage.recipient == player_address("FRANCE")))
        return " ".join(message_bytes(row).decode().split())


@pytest.mark.parametrize("profile, said, not_said", [
    # 000 III(4): "the most recently received order for each unit" stands: sets merge unit by unit
    ("mhr", [MERGED, "unit by unit (000 III(4))"], [REPLACED, "last order set on file is the one used"]),
    # 001 II(7) ¶2: a later set replaces the earlier one; ¶1: by its version number
    ("danivon", [REPLACED, "(001 II(7))", "version number"], [MERGED]),
    # 002 ORDERS 2: a new set replaces the old one unless it says it changes it
    ("email_rules", [REPLACED, "unless it says it is a change", "(002 ORDERS 2)"], []),
    ("scorpion", [REPLACED, "(003 [10])"], [MERGED]),
    ("standard", [REPLACED], [MERGED]),
])
def test_the_start_mail_says_how_a_later_set_combines_000_III_4(database_url, clock, profile, said, not_said) -> None:
    """000 III(4): an mhr player was told that a later message replaces the orders on file, while
    mhr (and the server) merges the sets unit by unit. Each profile's words come from its
    set_combination value; the start mail and the RULES answer share them (key_points)."""
    text = _start_mail(database_url, clock, profile)
    points = " ".join(key_points(load_ruleset(profile)))
    for words in said:
        assert words in text and words in points
    for words in not_said:
        assert words not in text and words not in points


def test_the_words_follow_the_value_not_the_profile_000_III_4() -> None:
    """The same profile with another set_combination says that value's rule (no clause then:
    the GM changed the document's value)."""
    merged = " ".join(key_points(load_ruleset("standard").with_overrides({"set_combination": "merge_per_unit"})))
    assert MERGED in merged and REPLACED not in merged
    replaced = " ".join(key_points(load_ruleset("mhr").with_overrides({"set_combination": "replace"})))
    assert REPLACED in replaced and MERGED not in replaced and "000 III(4)" not in replaced
