"""The turn report: its contexts for each phase reported (with the press published and the votes
tallied with the turn), stored once at the deadline with each player's subject and Message-ID
(services/base/report_copies.py writes each copy when the outbox sends it), and the text of it
a preview or the GM's copy shows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from sqlalchemy.orm import Session, object_session

from gmserver.db import queries
from gmserver.db.models import Game, Player
from gmserver.db.queries.games import ruleset_of
from gmserver.mail.compose import new_message_id
from gmserver.reports.ending import history_lines, solo_words
from gmserver.reports.turn import TurnReport, build_turn_report, with_orders_subject
from gmserver.rules.game_end import conquered
from gmserver.rules.position import PhaseOutcome, describe_phase
from gmserver.rules.press import cite
from gmserver.rules.schedule import report_reminders
from gmserver.rules.subject import format_subject
from gmserver.services.base import outgoing, report_copies
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import ReportCopy
from gmserver.services.base.roster import in_play
from gmserver.services.features.press import press_for_report
from gmserver.services.features.votes import VoteResults


def report_contexts(services: Services, game: Game, outcome: PhaseOutcome, deadline: datetime | None,
                     then: Sequence[PhaseOutcome], corrected: bool,
                     votes: VoteResults | None = None, press: bool = True,
                     centre_points: Sequence[tuple[str, Mapping[str, int]]] = ()) -> list[TurnReport]:
    """Each phase's report context; `press` False: the game has no press waiting for a report
    (the deadline knows it: queries.phases.Besides), so none is looked for. The last report of a
    finished game says how it ended and, from `centre_points`, each power's centres year by year."""
    phases = [outcome, *then]
    contexts = []
    for number, phase in enumerate(phases):
        last = number == len(phases) - 1
        context = build_turn_report(phase, geography=services.geography, game_name=game.name,
                                            next_deadline=deadline if last else None, timezone=game.timezone,
                                            processed_at_once=not last,
                                            # the powers in civil disorder now (services/features/nmr.py keeps it)
                                            civil_disorder=[p.power for p in game.players if p.civil_disorder]
                                            if last else (),
                                            # each player's copy shows the subject line of their own orders
                                            subject_template=ruleset_of(game).subject_template if last else None)
        fields: dict[str, Any] = {}  # the report's other fields, set in one copy of it
        if last and held_for_press(game, phase):  # report_empty_retreat_season (002 PRESS 7)
            fields["held_for_press"] = cite(ruleset_of(game), "report_empty_retreat_season")
        if last and report_reminders(ruleset_of(game)):  # reminders with_report (003 [11])
            fields["send_now"] = True
        if corrected and number == 0:
            fields["corrected"] = True
        session = object_session(game)
        published = (press_for_report(session, game, phase.phase, phase, services.geography)
                     if session is not None and press else [])
        if published:  # the press published with the turn (003 [9])
            fields["press"] = tuple(published)
        if last and votes is not None:  # vote_publication: the results with the report
            fields.update(votes=votes.announcements, vote_end=votes.ended)
        if last and context.game_over:
            fields.update(ending=ending_words(services, game, phase), centre_lines=history_lines(centre_points))
        if fields:
            context = dataclasses.replace(context, **fields)
        contexts.append(context)
    return contexts


def ending_words(services: Services, game: Game, outcome: PhaseOutcome) -> str:
    """How a game won outright ended, in words: the winner's centres after the last turn and the
    count the rules ask (with the centres its units occupy after a Spring solo, 003 [23]); "" for
    any other end, which its own words tell (a vote, the GM's)."""
    if len(outcome.winners) != 1:
        return ""
    winner = outcome.winners[0]
    ruleset = ruleset_of(game)
    owned = len(outcome.after.centers.get(winner, ()))
    occupied = len(conquered(outcome.after, winner, services.geography.supply_centres())) - owned
    spring = occupied > 0 and outcome.phase[:1] == "S"
    return solo_words(winner, phase_name=describe_phase(outcome.phase), owned=owned, occupied=occupied if spring else 0,
                      solo_centres=ruleset.solo_centres,
                      clause=ruleset.cites("solo_check_after_spring" if spring else "solo_centres"))


def held_for_press(game: Game, outcome: PhaseOutcome) -> bool:
    """The turn after `outcome` is a retreat turn with nothing to retreat (services.turn.turns holds it)."""
    after = outcome.after
    return (ruleset_of(game).report_empty_retreat_season and after.phase_type == "R"
            and not any(after.dislodged.values()))


def report_body(services: Services, game: Game, outcome: PhaseOutcome, deadline: datetime | None,
                then: Sequence[PhaseOutcome] = (), *, corrected: bool = False,
                votes: VoteResults | None = None) -> str:
    """The results report of `outcome`, followed by those of the phases processed at once after
    it (`then`, 003 [5]); only the last one gives the next deadline. `corrected`: the phase was
    adjudicated again after a rollback, and the first report says its results replace the earlier ones.
    The `::` lines at the top say game, phase and deadline for mail filters (as njudge's)."""
    contexts = report_contexts(services, game, outcome, deadline, then, corrected, votes)
    return with_orders_subject(report_copies.text_body(services.composer, contexts, deadline), contexts[-1], None)


@dataclass(frozen=True)
class PlayerCopy:
    """What one player's copy of a stored report differs in (services/base/report_copies.py)."""

    player: Player
    subject: str
    message_id: str


def turn_report(services: Services, game: Game, outcome: PhaseOutcome, deadline: datetime | None,
                now: datetime, key: str, then: Sequence[PhaseOutcome] = (), *, corrected: bool = False,
                votes: VoteResults | None = None, centre_points: Sequence[tuple[str, Mapping[str, int]]] = (),
                press: bool = True) -> tuple[report_copies.ReportParts, list[PlayerCopy]]:
    """The turn's report, once (the multipart mail is written from it when each copy is
    sent), and each player's copy: subject and Message-ID, fixed now. `then`: the phases
    processed at once after `outcome` (003 [5], the UK two-season game), reported in the same
    mail. `centre_points`: (phase, power -> centres) over the game so far, for the chart. Nothing
    in it is private: every player gets the very same parts. `press` False: the game has no press
    waiting for a report (none is looked for)."""
    contexts = report_contexts(services, game, outcome, deadline, then, corrected, votes, press, centre_points)
    parts = report_copies.parts_for(services.composer, key=key, game_name=game.name, contexts=contexts,
                                  outcome=outcome, centre_points=centre_points, deadline=deadline, now=now,
                                  alarm_seconds=game.reminder_seconds)  # the .ics alarms at the reminder lead
    template = ruleset_of(game).subject_template
    copies = [PlayerCopy(player, format_subject(template=template, game_name=game.name, power=player.power,
                                                phase=outcome.phase, purpose="report"),
                         new_message_id(services.composer.domain))
              for player in in_play(game.players)]
    return parts, copies


def observer_copies(session: Session, services: Services, game: Game, phase: str, key: str) -> list[ReportCopy]:
    """The report's copies for the game's observers (open sign-up's OBSERVE): the same public
    report as the players', with no power's subject line and no reply address (they give no orders)."""
    subject = format_subject(template=ruleset_of(game).subject_template, game_name=game.name, power=None,
                             phase=phase, purpose="report")
    return [ReportCopy(address, subject, None, new_message_id(services.composer.domain), f"{key}observe:{address}",
                       None)
            for address in (row.address for row in queries.signups.signups(session, game.name, "observe",
                                                                           ("confirmed",)))]


def report_text_copy(services: Services, parts: report_copies.ReportParts, copy: PlayerCopy) -> EmailMessage:
    """A player's copy as text alone, with the player's own subject line (the GM's copy quotes the
    text part)."""
    text = report_copies.text_body(services.composer, parts.contexts, parts.deadline)
    return outgoing.message(services, to=copy.player.address, subject=copy.subject,
                            body=with_orders_subject(text, parts.contexts[-1], copy.player.power), now=parts.now,
                            message_id=copy.message_id)
