"""The out-of-office offer: a player's auto-reply that names its dates ("I am out of the office from
20 December until 28 December") is answered once per absence with an offer to register it; the
player's reply YES to that one mail (its one-time Reply-To, the offer's secret) registers it
(services/features/absences.py). The auto-reply itself never changes orders; an auto-reply that
names no dates is not answered, nor is an auto-reply to the offer (RFC 3834)."""

from __future__ import annotations

from collections.abc import Collection

from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.reports.players import absence_days
from gmserver.reports.requests import Answer, Section
from gmserver.rules.absence import effect_words
from gmserver.rules.absence_dates import AbsenceDates, autoreply_dates
from gmserver.rules.automated import is_out_of_office
from gmserver.services.features import absences
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail

YES_WORDS = frozenset({"yes", "y", "ja", "oui", "si", "sí", "yes,", "ok", "okay"})


def offer(mail: Mail) -> str | None:
    """Offer the absence an out-of-office reply from a player names; None where it is no such
    reply or names no dates (the message is then ignored as any automated mail)."""
    assert mail.decision is not None
    if not is_out_of_office(mail.envelope.message, envelope_from=mail.row.envelope_from):
        return None
    game = mail.session.get(Game, mail.decision.game.id)
    if game is None or game.status != "active":
        return None
    player = next(p for p in game.players if p.power == mail.decision.power)
    dates = autoreply_dates(mail.order_text, absences.today_of(game, player, mail.now))
    if dates is None:
        return None
    mail.row.game_id, mail.row.power, mail.row.kind = game.id, player.power, "request"
    offered = absences.offer(mail.session, game, player.power, dates, now=mail.now)
    if offered is None:
        return "absence-offered-before"  # one offer per absence: the auto-reply repeats itself
    answer = _offer_answer(game, dates)
    notice.answer(mail, answer.template, {"title": answer.title, "sections": answer.sections},
                  token=offered.offer_secret)
    return "absence-offered"


def answer(mail: Mail, tokens: Collection[str]) -> str | None:
    """A reply to an offer's one-time address: YES registers the absence; anything else leaves it
    unregistered and says how to register it. None where no offer has these tokens, or the reply
    is automated (never answered) or comes from another address than the offer's."""
    if mail.envelope.automated:
        return None
    offers = [row for row in queries.absences.offers_of_secret(mail.session, [token.lower() for token in tokens])
              if row.address.lower() == (mail.envelope.sender or "").lower()]
    if not offers:
        return None
    row = offers[0]
    game = mail.session.get(Game, row.game_id)
    assert game is not None
    player = next((p for p in game.players if p.power == row.power and p.address == row.address), None)
    mail.row.kind, mail.row.game_id, mail.row.power = "request", game.id, row.power
    dates = AbsenceDates(row.first_day, row.last_day)
    if player is None or game.status != "active":
        reply, outcome = Answer(f"Nothing was registered: you no longer play {row.power.title()} in {game.name}, "
                                "or the game has ended."), "absence-offer-void"
    elif row.registered_at is not None and row.cancelled_at is None:
        reply, outcome = Answer(f"That absence is registered already in {game.name}: "
                                f"{absence_days(row.first_day, row.last_day)}."), "absence-registered"
    elif not _says_yes(mail.order_text):
        reply, outcome = _offer_answer(game, dates, again=True), "absence-offer-not-taken"
    else:
        try:
            done = absences.register(mail.session, mail.services, game.id, row.power, dates, by=row.address,
                                     now=mail.now, offer=row)
        except ValueError as problem:
            reply, outcome = Answer(f"Your absence could not be registered: {problem}"), "absence-refused"
        else:
            reply, outcome = absences.answer_for(game, player, done), "absence-registered"
    notice.answer(mail, reply.template, {"title": reply.title, "sections": reply.sections}, token=row.offer_secret)
    return outcome


def _says_yes(text: str) -> bool:
    lines = [line.strip().lower() for line in text.splitlines() if line.strip()]
    return bool(lines) and lines[0].split()[0].strip(".!:,") in YES_WORDS


def _offer_answer(game: Game, dates: AbsenceDates, *, again: bool = False) -> Answer:
    days = absence_days(dates.first, dates.last)
    title = (f"Your reply did not say YES, so nothing was registered in {game.name}." if again else
             f"Your automatic reply says you are away: {days}. Shall gmserver register that absence in {game.name}?")
    return Answer(title, (
        Section("The absence", (days,)),
        Section("What an absence does", (effect_words(queries.games.ruleset_of(game)),)),
        Section("To register it", (
            "Reply YES to this mail: nothing else is needed. If you do not want it, do nothing. Your automatic "
            "reply changed nothing, and your orders on file stand.",)),
    ))
