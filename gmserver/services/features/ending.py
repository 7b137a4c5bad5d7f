"""The end of a game, however it ends: a solo or the last phase at the deadline
(services/turn/turns.py), a passed draw or concession (services/features/vote_tally.py), or the
GM's `game end` (services/commands/gm_controls.py). Each of them records and announces the end
in its own words; what follows an end is the same for all, and is here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import centrechart, engine, mapimage
from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.reports.ending import history_lines
from gmserver.reports.extras import centre_history
from gmserver.rules.position import Position
from gmserver.services.base.context import Services
from gmserver.services.features import held
from gmserver.services.features.press import disclose_authors

log = logging.getLogger(__name__)


def finish_game(session: Session, services: Services, game: Game, now: datetime, *, by: str, reason: str) -> int:
    """`game` is over: finished, with no deadline, not paused; the GM learns who wrote the press
    that did not name its author; every message held for it is refused with `reason` (`by` whom),
    since held mail must not outlive its game. How many held messages were refused."""
    game.status, game.deadline, game.paused = "finished", None, False
    disclose_authors(session, services, game, now)  # 000 X(2): to the GM only, however the game ended
    return held.refuse_all_of_game(session, services, game, now, by=by, reason=reason)


def centre_points(session: Session, game: Game, centres_now: Mapping[str, Sequence[str]], now_phase: str
                  ) -> list[tuple[str, dict[str, int]]]:
    """(phase, power -> centres) at the start of every game year so far and at `now_phase`
    (`centres_now`): the centre chart's points and the centre history's."""
    points = [(phase, {p: len(c) for p, c in centres.items() if c})  # as position_from_state counts them
              for phase, centres in queries.phases.spring_centres(session, game.id)]
    if not points or points[-1][0] != now_phase:
        points.append((now_phase, {p: len(c) for p, c in centres_now.items()}))
    return points


@dataclass(frozen=True)
class FinalRecord:
    """What the last mail of a game ended without a turn report (by vote, by the GM) carries, as
    a final report does: each power's centres year by year, the final map and the centre chart."""

    paragraph: str
    table: tuple[str, ...]
    images: tuple[tuple[str, bytes], ...]


def final_record(session: Session, game: Game) -> FinalRecord:
    """The game's record where it stands now (its last position)."""
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    points = centre_points(session, game, position.centers, "COMPLETED")  # "end" in the history
    images = tuple(image for image in (_final_map(game.name, position), _chart(game.name, points)) if image)
    attached = (" The final map and the centre chart are attached." if len(images) == 2
                else " The final map is attached." if images else "")
    return FinalRecord("Supply centres, game year by game year:" + attached, history_lines(points), images)


def _final_map(game_name: str, position: Position) -> tuple[str, bytes] | None:
    """A map that cannot be drawn costs the picture, never the mail."""
    try:
        return f"{game_name}-final-map.png", mapimage.position_png(position)
    except Exception:
        log.exception("%s: the final map could not be drawn", game_name)
        return None


def _chart(game_name: str, points: Sequence[tuple[str, Mapping[str, int]]]) -> tuple[str, bytes] | None:
    years, series = centre_history(points)
    if len(years) < 2:
        return None
    try:
        return f"{game_name}-centres.png", centrechart.centre_chart(years, series)
    except Exception:
        log.exception("%s: the centre chart could not be drawn", game_name)
        return None
