"""The GM's hand on press (press_moderation): the game's press listed with its
authors, an item not yet published approved or dropped (003 [9]: press the GM holds back is
not published), and its spelling and punctuation edited (002 PRESS 1, 3).

Filing, delivering and publishing press, and telling the GM its authors at the end of a game,
are services/features/press.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db.models import Game, InboundMessage, Press
from gmserver.db.queries.games import ruleset_of
from gmserver.db.queries.gm_actions import record_action
from gmserver.db.queries.press import press_of_game
from gmserver.db.session import transaction
from gmserver.rules.envelope import glance_envelope
from gmserver.rules.press import NON_PLAYER, PressItem, edit_refusal
from gmserver.rules.safetext import safe_text
from gmserver.services.base.context import Services
from gmserver.services.game.games import GameError, find_game
from gmserver.services.game.games import game_view
from gmserver.services.features.press import deliver


@dataclass(frozen=True)
class PressView:
    """One press item as the GM sees it: the author is shown, to the GM only."""

    id: int
    phase: str
    author: str
    kind: str
    recipients: tuple[str, ...]
    status: str
    text: str


def press_list(services: Services, game_name: str, status: str | None = None) -> list[PressView]:
    """The game's press, every status or one (`held`: waiting for the GM's approval, 003 [9])."""
    with transaction(services.sessions) as session:
        game = find_game(session, game_name)
        return [PressView(row.id, row.phase, _author_for_gm(session, row), row.kind, tuple(row.recipients),
                          row.status, row.text)
                for row in press_of_game(session, game.id, status)]


def _author_for_gm(session: Session, row: Press) -> str:
    """The power, or for press from a non-player (002 PRESS 2) the address it came from."""
    inbound = session.get(InboundMessage, row.inbound_id) if row.author == NON_PLAYER and row.inbound_id else None
    return f"{NON_PLAYER} {glance_envelope(inbound.raw).sender or '?'}" if inbound is not None else row.author


def _press_item(session: Session, game: Game, press_id: int) -> Press:
    row = session.get(Press, press_id)
    if row is None or row.game_id != game.id:
        raise GameError(f"no press item {press_id} in {game.name}")
    return row


def moderate(services: Services, game_name: str, press_id: int, action: str, now: datetime) -> str:
    """The GM approves (`approve`) or drops (`drop`) a press item not yet published: approved press
    is queued for the next report or, to named powers, mailed at once; what was done, in words."""
    with transaction(services.sessions) as session:
        game = find_game(session, game_name)
        row = _press_item(session, game, press_id)
        if row.status not in ("held", "report"):
            raise GameError(f"press item {press_id} is {row.status}: only press not yet published can be "
                            "approved or dropped")
        if action == "drop":
            row.status = "dropped"
            return f"press item {press_id} dropped: it will not be published"
        if row.status == "report" or row.phase != game.phase:
            # press held past its turn's report waits for the next one (gm_approval)
            row.phase = game.phase
        item = PressItem(row.kind, tuple(row.recipients), row.signature, row.text)
        if not item.recipients:
            row.status = "report"
            return f"press item {press_id} approved: it will be published with the next turn report"
        row.status = "sent"
        deliver(session, services, game_view(game, session), row.author, item, row, now)
        return f"press item {press_id} approved and sent to " + ", ".join(p.title() for p in item.recipients)


def edit(services: Services, game_name: str, press_id: int, text: str, by: str, now: datetime) -> str:
    """press_editing = spelling_unless_declined (002 PRESS 1 "Press may be edited", 3): the GM
    replaces the text of a press item not yet published; refused where the rules publish press as
    written, where its author asked for no edits, or where the edit is more than spelling and
    punctuation (rules/press.edit_refusal). The edit is recorded (gm_actions) with both texts, and
    the report publishes the edited text."""
    with transaction(services.sessions) as session:
        game = find_game(session, game_name)
        row = _press_item(session, game, press_id)
        # press for the report stays "report" once published: the report of its phase published it
        if not (row.status == "held" or (row.status == "report" and row.phase == game.phase)):
            state = "published" if row.status in ("report", "sent") else row.status
            raise GameError(f"press item {press_id} is {state}: only press not yet published can be edited")
        edited = safe_text(text).strip("\n")
        if (refusal := edit_refusal(ruleset_of(game), row.text, edited)) is not None:
            raise GameError(f"press item {press_id} cannot be edited: {refusal}")
        result = f"press item {press_id} edited: the report will publish the new text"
        record_action(session, game.id, "press edit", {"press_id": press_id, "before": row.text, "after": edited},
                      by, now, result)
        row.text = edited
        return result
