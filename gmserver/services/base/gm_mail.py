"""The mail the GM controls send: the start mail of a player, the announcement of a GM
action to the players, and the GM's copies of reports and refusals. Each is queued through the
outbox with a dedupe key, in the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.commands.player_command import permitted
from gmserver.db.models import Game, Player
from gmserver.db.queries.games import ruleset_of
from gmserver.db.queries.phases import current_record
from gmserver.mail.compose import plain_text
from gmserver.reports.anonymity import Seat, players_listed
from gmserver.reports.extras import deadline_calendar, paused_calendar
from gmserver.reports.players import HOW_TO_REPLY, CommandLine, command_lines
from gmserver.reports.requests import build_position
from gmserver.reports.words import format_time
from gmserver.rules.authenticity import reply_address, reply_token
from gmserver.rules.briefing import example_orders, key_points
from gmserver.rules.position import describe_phase
from gmserver.rules.subject import format_subject
from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue
from gmserver.services.base.page_tokens import own_link
from gmserver.services.base.reply_tokens import token_of
from gmserver.services.base.roster import in_play, roster_visible


def start_mail(services: Services, game: Game, player: Player, state: dict, now: datetime, *,
               replacing: bool = False) -> EmailMessage:
    """A player's start mail: their power, the other players (primary addresses only: a
    fallback is never published, `registered_with_fallback`; in an anonymous game their powers
    only), the first deadline, the
    exact subject line, a worked example and the house rules' key points."""
    ruleset = ruleset_of(game)
    position = engine.position_from_state(state)
    subject_line = format_subject(template=ruleset.subject_template, game_name=game.name, power=player.power,
                                  phase=game.phase, purpose="orders")
    context = {
        "game_name": game.name, "power_name": player.power.title(), "rules_title": ruleset.title,
        "replacing": replacing, "phase_name": describe_phase(game.phase),
        # a paused game's deadline is not kept: the mail says so, as the pause mail does (QA walkthrough)
        "deadline": format_time(game.deadline, game.timezone, player.zone) if game.deadline and not game.paused else None,
        "paused": game.paused,
        "address": player.address, "fallback": player.fallback_address,
        # who plays the other powers, where the game shows them (services/base/roster.py): in an
        # anonymous game their powers only
        "others": players_listed([Seat(other.power, other.address) for other in in_play(game.players)],
                                 player.power, anonymous=not roster_visible(game)),
        "order_address": (reply_address(services.composer.gm_address, token)
                          if (token := token_of(player, game.phase)) else services.composer.gm_address),
        "expected_subject": subject_line,
        "example": example_orders(position, player.power, engine.legal_orders(state)),
        "password": player.secret if game.sender_check == "verified" else None,
        "key_points": key_points(ruleset),
        "page_link": own_link(services.web_base_url, player, now),
        # a replacement takes over a position in play: its units, centres and what is due now
        "position": build_position(game_name=game.name, position=position, geography=services.geography,
                                   first=player.power).sections if replacing else (),
        # the players' commands this profile permits (the registry's, passed in the services)
        "commands": command_lines([CommandLine(command.example, command.summary)
                                   for command in permitted(services.player_commands, ruleset)]),
        "how_to_reply": HOW_TO_REPLY,
    }
    return outgoing.message(services, to=player.address, subject=f"{game.name}: you play {player.power.title()}",
                            body=services.composer.render("player/start.txt.j2", context), now=now, secret=token)


def seats_of(game: Game) -> list[Seat]:
    """The game's players as reports.anonymity takes them."""
    return [Seat(player.power, player.address) for player in game.players]


def queue_start_mails(session: Session, services: Services, game: Game, now: datetime,
                      powers: Sequence[str] | None = None, *, replacing: bool = False, occasion: str = "") -> int:
    """Queue the start mail of every player (or of `powers`); how many were queued. `occasion`
    makes it a new mail where one went to the same address in this turn already (an address
    change undone: the old address gets the new password)."""
    state = current_record(session, game).state
    queued = 0
    for player in game.players:
        if powers is not None and player.power not in powers:
            continue
        message = start_mail(services, game, player, state, now, replacing=replacing)
        # the address is in the key: a replacement player gets their own start mail
        queued += queue(session, message, kind="start", now=now, game_id=game.id,
                        dedupe_key=f"start:{game.id}:{player.power}:{player.address}:{game.phase}{occasion}")
    return queued


def deadline_event(services: Services, game: Game, now: datetime) -> bytes | None:
    """The `deadline.ics` that updates the event the last report put in the players' calendars
    (reports/extras.py: the same UID, game and phase, and a higher SEQUENCE): at the game's
    deadline now, or withdrawn while the game is paused. None when there is no deadline to show
    (the game is over, or waits without one)."""
    if game.status != "active" or game.deadline is None:
        return None
    if game.paused:
        return paused_calendar(game_name=game.name, phase=game.phase, phase_name=describe_phase(game.phase),
                               deadline=game.deadline, now=now, domain=services.composer.domain)
    return deadline_calendar(game_name=game.name, phase=game.phase, phase_name=describe_phase(game.phase),
                             deadline=game.deadline, now=now, domain=services.composer.domain,
                             subject_hint="Send your orders to the GM by mail before then.",
                             alarm_before=timedelta(seconds=game.reminder_seconds) if game.reminder_seconds else None)


def announce(session: Session, services: Services, game: Game, action_id: int, headline: str,
             paragraphs: Sequence[str], now: datetime, *, to: Sequence[Any] | None = None,
             calendar: bytes | None = None, table: Sequence[str] = (),
             images: Sequence[tuple[str, bytes]] = ()) -> int:
    """Tell the players (all of them unless `to`: players or anything with power, address and
    secret, the password, None for an address that is no player's any more) what the GM did:
    `correction_broadcast = all_players` in every profile. `calendar`: a `deadline.ics` attached
    (deadline_event); `table`: lines printed as they are after the paragraphs (a game's centre
    history); `images`: (file name, PNG) attached (the final map and centre chart). How many mails
    were queued; each is stored composed, attachments included."""
    active = game.deadline is not None and game.status == "active"
    body = services.composer.render("player/gm_action.txt.j2", {
        "game_name": game.name, "headline": headline, "paragraphs": list(paragraphs), "table": list(table),
        "phase_name": describe_phase(game.phase),
        # a paused game's deadline is not kept: the mail says so, not the time (QA walkthrough)
        "deadline": format_time(game.deadline, game.timezone) if active and not game.paused else None,
        "paused": game.paused and game.status == "active",
    })
    queued = 0
    for player in (in_play(game.players) if to is None else to):
        message = outgoing.message(services, to=player.address, subject=f"{game.name}: {headline}", body=body, now=now,
                                   secret=reply_token(player.secret, game.phase) if player.secret else None)
        if calendar is not None:
            message.add_attachment(calendar, maintype="text", subtype="calendar", filename="deadline.ics")
        for filename, png in images:
            message.add_attachment(png, maintype="image", subtype="png", filename=filename)
        queued += queue(session, message, kind="gm-action", now=now, game_id=game.id,
                        dedupe_key=f"gm-action:{action_id}:{player.power}:{player.address}")
    return queued


def copies_address(services: Services) -> str:
    """Where the GM's copies go: `[gm] alert_address` when set, else the GM's address."""
    return services.alerts_to or services.composer.gm_address


def copy_to_gm(session: Session, services: Services, game_id: int, message: EmailMessage, what: str,
               dedupe_key: str, now: datetime) -> bool:
    """Queue the GM's copy of `message` (a report or a refusal) when the game's `gm_copies` is on."""
    game = session.get(Game, game_id)
    if game is None or not game.gm_copies:
        return False
    body = services.composer.render("gm/copy.txt.j2", {
        "what": what, "recipient": str(message["To"]), "subject": str(message["Subject"]),
        "body": plain_text(message),  # a report is multipart: its text part
    })
    copy = outgoing.message(services, to=copies_address(services), subject=f"[copy] {message['Subject']}", body=body,
                            now=now)
    return queue(session, copy, kind="gm-copy", dedupe_key=f"copy:{dedupe_key}", now=now, game_id=game_id)
