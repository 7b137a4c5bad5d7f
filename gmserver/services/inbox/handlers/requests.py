"""A player's request: the status of the game, its history, a map, the house rules, their own
orders on file, a delay, an address change. One handler per request word (ANSWERS), as
HANDLERS is one per kind of mail.

A delay request is decided as the house rules say (services/features/delays.py: granted at once, passed
on to the GM, or refused; 000 VII(5), 001 IV(5), 003 [10]) and an address change is made
(`address_change`). Status, history, map, rules and orders are answered from the
game's records (handlers/request_answers.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from gmserver.commands.registry import PLAYER_BY_NAME, PLAYER_COMMANDS
from gmserver.db.models import Game
from gmserver.reports.requests import build_which_game
from gmserver.reports.words import format_time
from gmserver.rules.envelope import Envelope
from gmserver.rules.intake import GameView, expected_subject, names_game
from gmserver.services.base.gm_mail import deadline_event
from gmserver.services.commands import address_changes
from gmserver.services.features import delays
from gmserver.services.features.corrections import extension_on_delay_request
from gmserver.services.features.proxies import player_proxy
from gmserver.services.inbox.handlers import notice, players, request_answers
from gmserver.services.inbox.handlers.mail import Mail

DELAY_TEMPLATE = "player/delay.txt.j2"


def handle(mail: Mail) -> str:
    """Run the answer of the request word (a player command of the registry, or a
    mailkind.KEYWORDS topic); the inbound row's outcome."""
    if mail.kind.topic in PLAYER_BY_NAME:
        return players.handle(mail)
    return ANSWERS[mail.kind.topic or "status"](mail)


def games_to_name(envelope: Envelope, games: list[GameView]) -> list[GameView]:
    """The sender's games when the request names none of the games it could be about and the
    sender plays in more than one (else []: intake decides as for any request)."""
    if envelope.automated or not envelope.sender or any(names_game(envelope.subject, g) for g in games):
        return []
    mine = [game for game in games if game.powers_of(envelope.sender) and game.status == "active"]
    return mine if len(mine) > 1 else []


def which_game(mail: Mail, games: list[GameView]) -> str:
    """Tell the player the subject line of each of their games (rules/subject_templates.py via
    the game's own template), in a reply to them only; nothing is carried out."""
    subjects = {game.name: expected_subject(game, game.powers_of(mail.envelope.sender)[0]) for game in games}
    answer = build_which_game(subjects)
    notice.answer(mail, request_answers.TEMPLATE, {"title": answer.title, "sections": answer.sections})
    return "request-which-game"


def _delay_request(mail: Mail) -> str:
    if (granted := _after_correction(mail)) is not None:
        notice.answer(mail, GRANTED_TEMPLATE, {"granted": granted, "deadline": None},  # the new one is said
                      _moved_event(mail))
        return "delay-granted"
    return _delay(mail)  # any other delay request: delay_policy


def _moved_event(mail: Mail) -> tuple[tuple[str, bytes], ...]:
    """The deadline.ics that moves the report's event to the deadline a granted delay set, as the
    other players' notice carries it (QA walkthrough: the asker's answer had none)."""
    assert mail.decision is not None, "a request comes from a power"
    game = mail.session.get(Game, mail.decision.game.id)
    calendar = deadline_event(mail.services, game, mail.now) if game is not None else None
    return (("deadline.ics", calendar),) if calendar is not None else ()


def _delay(mail: Mail) -> str:
    """`delay_policy`: the answer says what became of the request, and the deadline
    as it now is."""
    assert mail.decision is not None, "a request comes from a power"
    decision = delays.request_delay(mail.session, mail.services, mail.decision.game.id, mail.decision.power,
                                    mail.kind.argument, by=mail.envelope.sender, inbound_id=mail.row.id, now=mail.now)
    context = {"said": decision.said}
    if decision.new_deadline is not None:
        context["deadline"] = format_time(decision.new_deadline, mail.decision.game.timezone)
    notice.answer(mail, DELAY_TEMPLATE, context, _moved_event(mail) if decision.outcome == "granted" else ())
    return delays.OUTCOMES[decision.outcome]


def _address(mail: Mail) -> str:
    """`address_change`: `from_known_address` (003 [4]) changes the player's address
    (and fallback) once the new address confirms it, unless the old one cancels it first
    (services.commands.address_changes); `gm_only` refers them to the GM."""
    assert mail.decision is not None, "a request comes from a power"
    said, outcome = address_changes.request(mail.session, mail.services, mail.decision.game.id, mail.decision.power,
                                            mail.kind.argument, now=mail.now)
    notice.answer(mail, ADDRESS_TEMPLATE, {"said": said})
    return outcome


ADDRESS_TEMPLATE = "player/address_change.txt.j2"
PROXY_TEMPLATE = "player/proxy.txt.j2"


def _proxy(mail: Mail) -> str:
    """proxy_policy: "PROXY England" or "PROXY anna@example.org [turn]" names a proxy
    (000 II(3): waits for the GM; 003 [19]: in force at once, the GM and the holder told),
    "PROXY cancel" ends it (003 [19]: the holder is not told unless proxy_cancel_notifies_holder)."""
    assert mail.decision is not None, "a request comes from a power"
    said, outcome = player_proxy(mail.session, mail.services, mail.decision.game.id, mail.decision.power,
                                 mail.kind.argument, by=mail.envelope.sender, now=mail.now)
    notice.answer(mail, PROXY_TEMPLATE, {"said": said})
    return outcome


GRANTED_TEMPLATE = "player/delay_granted.txt.j2"


def _after_correction(mail: Mail) -> str | None:
    """002 GM ERRORS 3 (extension_after_correction = on_single_request): a delay asked for after
    a correction is granted at once (services.features.corrections); None: the GM decides, as on any."""
    assert mail.decision is not None, "a request comes from a power"
    return extension_on_delay_request(mail.session, mail.services, mail.decision.game.id, mail.decision.power,
                                      by=mail.envelope.sender, now=mail.now)


# The requests answered from the game's records alone: a player of a finished game may still ask
# them ("HISTORY after the game has ended"); a delay or an address change may not.
READ_ONLY = frozenset({"status", "history", "map", "orders",
                       *(command.name for command in PLAYER_COMMANDS if command.read_only)})

# topic -> its answer, for the requests not yet player commands of the registry (a new request is
# a player command: gmserver/commands/players/, one line in gmserver.commands.registry.PLAYER_COMMANDS).
ANSWERS: Mapping[str, Callable[[Mail], str]] = MappingProxyType({
    "status": request_answers.status,
    "history": request_answers.history,
    "map": request_answers.position,
    "orders": request_answers.own_orders,
    "delay": _delay_request,
    "address": _address,
    "proxy": _proxy,
})
