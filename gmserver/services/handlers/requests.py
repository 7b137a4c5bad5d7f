"""A player's request: the status of the game, its history, a map, the house rules, a delay.

A delay request is decided as the house rules say (services/delays.py: granted at once, passed
on to the GM, or refused; 000 VII(5), 001 IV(5), 003 [10]) and an address change is made
(MATRIX 2.2 `address_change`). The others are not carried out by mail yet: the answer says so
plainly, with what the player can be told at once (the turn and the deadline).
"""

from __future__ import annotations

from types import MappingProxyType

from gmserver.reports.words import format_time
from gmserver.services import delays
from gmserver.services.gm_controls import player_changes_address
from gmserver.services.handlers import notice
from gmserver.services.handlers.mail import Mail

TEMPLATE = "player/request.txt.j2"
OUTCOME = "request-held"

# topic -> the first sentence of the answer
NOT_YET = MappingProxyType({
    "status": "Status requests are not answered by mail yet.",
    "history": "The game's history is not sent by mail yet.",
    "map": "Maps are not sent by mail yet.",
    "rules": "The house rules are not sent by mail yet.",
})
DELAY_TEMPLATE = "player/delay.txt.j2"


def handle(mail: Mail) -> str:
    topic = mail.kind.topic or "status"
    if topic == "address":
        return _address(mail)
    if topic == "delay" and (granted := _after_correction(mail)) is not None:
        notice.answer(mail, GRANTED_TEMPLATE, {"granted": granted, "deadline": None})  # the new one is said
        return "delay-granted"
    if topic == "delay":  # any other delay request: MATRIX 2.8 delay_policy
        return _delay(mail)
    notice.answer(mail, TEMPLATE, {"not_yet": NOT_YET[topic], "topic": topic, "argument": mail.kind.argument})
    return OUTCOME


def _delay(mail: Mail) -> str:
    """MATRIX 2.8 `delay_policy`: the answer says what became of the request, and the deadline
    as it now is."""
    assert mail.decision is not None, "a request comes from a power"
    decision = delays.request_delay(mail.session, mail.services, mail.decision.game.id, mail.decision.power,
                                    mail.kind.argument, by=mail.envelope.sender, inbound_id=mail.row.id, now=mail.now)
    context = {"said": decision.said}
    if decision.new_deadline is not None:
        context["deadline"] = format_time(decision.new_deadline)
    notice.answer(mail, DELAY_TEMPLATE, context)
    return delays.OUTCOMES[decision.outcome]


def _address(mail: Mail) -> str:
    """MATRIX 2.2 `address_change`: `from_known_address` (003 [4]) changes the player's address
    (and fallback) from a message sent by the registered address; `gm_only` refers them to the
    GM. Both addresses are told, so that a change the player did not ask for is noticed."""
    assert mail.decision is not None, "a request comes from a power"
    said, outcome = player_changes_address(mail.session, mail.services, mail.decision.game.id, mail.decision.power,
                                           mail.kind.argument, by=mail.envelope.sender, now=mail.now)
    notice.answer(mail, ADDRESS_TEMPLATE, {"said": said})
    return outcome


ADDRESS_TEMPLATE = "player/address_change.txt.j2"


GRANTED_TEMPLATE = "player/delay_granted.txt.j2"


def _after_correction(mail: Mail) -> str | None:
    """002 GM ERRORS 3 (extension_after_correction = on_single_request): a delay asked for after
    a correction is granted at once (services.corrections); None: the GM decides, as on any."""
    assert mail.decision is not None, "a request comes from a power"
    from gmserver.services.corrections import extension_on_delay_request  # noqa: PLC0415  (import cycle)

    return extension_on_delay_request(mail.session, mail.services, mail.decision.game.id, mail.decision.power,
                                      by=mail.envelope.sender, now=mail.now)
