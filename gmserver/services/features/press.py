"""Press: store each press item a player sends, deliver it as the game's rules say,
and give the turn report the press it publishes.

Press to every power is published with the next turn report ("press is queued for
the next report"), where the profile places it (000 X(1): white press under its author's orders,
grey press in an "Anonymous Press" section). Partial press, to named powers, is private to them:
it is mailed at once, one mail per recipient through the outbox. Where only the press of the last
order set is published (press_channel in_order_set_last_only, 003 [9]) a later order set or press
message from the same power replaces the earlier press, and partial press is refused. The author
of grey press is stored for the GM and never shown to a player (the GM's list, approval, drops
and edits: services/features/press_moderation.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db.models import Game, Press, PressDigestItem
from gmserver.db.queries.games import ruleset_of
from gmserver.db.queries.phases import adjudicated_phases
from gmserver.db.queries.press import digest_players, press_count, press_of_game, press_of_phase, replace_press
from gmserver.rules.authenticity import without_secret_lines
from gmserver.rules.geography import MapInfo
from gmserver.rules.intake import Accept, GameView
from gmserver.rules.position import PhaseOutcome, describe_phase
from gmserver.rules.press import (
    KIND_WORDS,
    NON_PLAYER,
    PressItem,
    ReportPress,
    Verdict,
    as_non_player,
    cite,
    editing_words,
    judge,
    power_named,
    read_item,
    recipients_of,
    report_placement,
    shown_author,
    with_own_label,
)
from gmserver.rules.press_conditions import Candidate, PressCondition, condition_holds, published, read_press_condition
from gmserver.rules.reading.message import press_sections
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.safetext import safe_text
from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_tokens import token_of

TEMPLATE = "player/press_item.txt.j2"
DIGEST_ITEM_TEMPLATE = "player/_press_item_text.txt.j2"  # one item of a SET PRESS digest
# 002 PRESS 2 lets anyone send press: a flood of it (a spammer forging a new From for every
# message) must not fill the report, so at most this many items from non-players are published a turn
NON_PLAYER_PRESS_PER_TURN = 5


@dataclass(frozen=True)
class Planned:
    """One press section as judged, before anything is stored: `item` None when its heading could
    not be read; `words` tell the sender what becomes of it."""

    item: PressItem | None
    verdict: Verdict
    status: str
    words: str


def plan_press(session: Session, decision: Accept, raw: bytes | str, fallback_text: str) -> list[Planned]:
    """Judge the press of one message from `decision.power` (reads only: the orders handler needs
    the words for its confirmation before the order set is filed, and the press rows are written
    after it, once the game row is locked). `fallback_text`: the body of a message marked press by
    its subject alone."""
    ruleset, author = decision.game.ruleset, decision.power
    sections = press_sections(raw) or ([("press", fallback_text)] if fallback_text.strip() else [])
    started = bool(adjudicated_phases(session, decision.game.id))
    planned: list[Planned] = []
    for heading, text in sections:
        item = read_item(heading, text, author)
        if isinstance(item, str):
            planned.append(Planned(None, Verdict("refused", item), "refused", f"Press not sent: {item}."))
            continue
        item = with_own_label(ruleset, item, author) if author != NON_PLAYER else as_non_player(item)
        item, removed = _without_secrets(item, decision.game.secrets_of(author))
        verdict = _verdict(ruleset, item, author, started)
        if verdict.action != "refused" and (refusal := _press_condition_refusal(session, decision, item)):
            verdict = Verdict("refused", refusal)
        if author == NON_PLAYER and verdict.action != "refused":
            verdict = _within_non_player_cap(session, decision, planned) or verdict
        status = _status(ruleset, item, verdict)
        told = _told(ruleset, item, status, verdict, author)
        if status in ("report", "held") and (edits := editing_words(ruleset, item.text)):
            told = f"{told} {edits}"  # 002 PRESS 3: press not yet published may be edited
        if removed:
            told = f"{told} {_secret_lines_words(removed)}"
        planned.append(Planned(item, verdict, status, told))
    return planned


def _without_secrets(item: PressItem, secrets: tuple[str, ...]) -> tuple[PressItem, tuple[str, ...]]:
    """The item without any line that holds the author's password or reply token: press is read by
    the other players, and such a line, password line or not, would hand them the author's orders."""
    text, removed = without_secret_lines(item.text, secrets)
    return (dataclasses.replace(item, text=text), removed) if removed else (item, ())


def _secret_lines_words(removed: tuple[str, ...]) -> str:
    lines = "; ".join(f'"{line}"' for line in removed)
    return (f"{'This line was' if len(removed) == 1 else 'These lines were'} taken out first, since "
            f"{'it holds' if len(removed) == 1 else 'they hold'} your password or reply address, which "
            f"nobody else may see: {lines}.")


def store_press(session: Session, services: Services, decision: Accept, planned: list[Planned],
                inbound_id: int | None, now: datetime) -> list[int | None]:
    """Store the planned items and mail those sent at once, one mail per recipient (outbox); the
    number of each item stored (None for a heading that could not be read)."""
    game, author, phase = decision.game, decision.power, decision.phase
    if game.ruleset.press_channel == "in_order_set_last_only":
        # 003 [9]: only the press of the last set sent is published; a press-only message counts as
        # a set without orders [P], so it replaces earlier press too
        replace_press(session, game.id, phase, author)
    ids: list[int | None] = []
    for plan in planned:
        if plan.item is None:
            ids.append(None)
            continue
        # hostile mail: no NUL (PostgreSQL refuses it) nor lone surrogates in what is stored and sent
        item = dataclasses.replace(plan.item, text=safe_text(plan.item.text),
                                   signature=safe_text(plan.item.signature) if plan.item.signature else None)
        row = Press(game_id=game.id, phase=phase, author=author, kind=item.kind, signature=item.signature,
                    recipients=list(item.recipients), text=item.text, status=plan.status,
                    condition=_condition_text(item),
                    reason=plan.verdict.reason or None, inbound_id=inbound_id, created_at=now)
        session.add(row)
        session.flush()
        ids.append(row.id)
        if row.status == "sent":
            deliver(session, services, game, author, item, row, now)
    return ids


def file_press(session: Session, services: Services, decision: Accept, raw: bytes | str, fallback_text: str,
               inbound_id: int | None, now: datetime) -> list[str]:
    """plan_press then store_press, for a message with press only; one sentence per item."""
    planned = plan_press(session, decision, raw, fallback_text)
    ids = store_press(session, services, decision, planned, inbound_id, now)
    # the number names the item in another item's condition (002 PRESS 4: "if press item 12 is published")
    return [f"{plan.words} (Press item {number}.)" if number is not None and plan.status in ("report", "held")
            else plan.words for plan, number in zip(planned, ids, strict=False)]


def _press_condition_refusal(session: Session, decision: Accept, item: PressItem) -> str | None:
    """Why a condition on other press (002 PRESS 4) cannot be accepted, or None (none, or fine)."""
    found = read_press_condition(item.condition) if item.condition else None
    if found is None:
        return None
    ruleset, clause = decision.game.ruleset, cite(decision.game.ruleset, "conditional_press")
    if isinstance(found, str):
        return f"{found} ({clause})"
    if ruleset.conditional_press != "moves_and_press":
        return f"press may be conditional on the season's moves, not on other press, in this game ({clause})"
    if found.item is not None:
        other = session.get(Press, found.item)
        if (other is None or other.game_id != decision.game.id or other.phase != decision.phase
                or other.status not in ("report", "held")):
            return f"press item {found.item} is not waiting for this turn's report ({clause})"
    return None


def _within_non_player_cap(session: Session, decision: Accept, planned: list[Planned]) -> Verdict | None:
    """The refusal past NON_PLAYER_PRESS_PER_TURN (002 PRESS 2), or None within it."""
    taken = press_count(session, decision.game.id, decision.phase, NON_PLAYER, ("report", "sent", "held"))
    taken += sum(1 for plan in planned if plan.status != "refused")
    if taken < NON_PLAYER_PRESS_PER_TURN:
        return None
    return Verdict("refused", f"{NON_PLAYER_PRESS_PER_TURN} items of press from non-players are published a turn "
                              "at most, and this turn has them already")


def _verdict(ruleset: Ruleset, item: PressItem, author: str, started: bool) -> Verdict:
    # 002 PRESS 2: a non-player may not sign with a power's name (players, current and eliminated, may)
    verdict = judge(ruleset, item, author, may_sign_as_players=author != NON_PLAYER, game_started=started)
    if (verdict.action != "refused" and item.recipients
            and ruleset.press_channel == "in_order_set_last_only"):
        # 003 [9]: press is "displayed by the GM" in the report, the same for every power [P]
        return Verdict("refused", "press is published with the turn report to every power, so it cannot be "
                                  f"sent to some powers only ({cite(ruleset, 'press_channel')})")
    if verdict.action != "refused" and item.recipients and item.condition is not None:
        # partial press is mailed at once, before the results that would decide its condition
        return Verdict("refused", "press to some powers only is sent at once, before the season's results, so "
                                  f"it cannot be conditional ({cite(ruleset, 'conditional_press')})")
    return verdict


def _status(ruleset: Ruleset, item: PressItem, verdict: Verdict) -> str:
    if verdict.action != "send":
        return verdict.action
    # broadcast press is queued for the next report (press_moderation: "press is queued
    # for the next report"); partial press is private to its recipients, so it is mailed at once
    return "sent" if item.recipients else "report"


def deliver(session: Session, services: Services, game: GameView, author: str, item: PressItem, row: Press,
            now: datetime) -> None:
    """Mail `item` (stored as `row`) to each of its recipients, one outbox row each; also the GM's
    approval of held press mails it too (services/features/press_moderation.py)."""
    shown = shown_author(item, author)
    context = {"game_name": game.name, "phase": describe_phase(row.phase), "kind": item.kind, "shown": shown,
               "non_player": author == NON_PLAYER, "partial": bool(item.recipients), "text": item.text}
    digest = digest_players(session, game.id)  # SET PRESS digest: the day's one mail carries it
    for power in recipients_of(item, author, game.players):
        if (player := digest.get(power)) is not None:
            session.add(PressDigestItem(game_id=game.id, player_id=player, press_id=row.id, created_at=now,
                                        body=services.composer.render(DIGEST_ITEM_TEMPLATE, context)))
            continue
        address = game.players[power][0]
        body = services.composer.render(TEMPLATE, context)
        message = outgoing.message(services, to=address, subject=f"{game.name} {row.phase}: press", body=body, now=now,
                                   secret=game.reply_token(power))
        queue(session, message, kind="press", dedupe_key=f"press:{row.id}:{power}", now=now, game_id=game.id)


def _told(ruleset: Ruleset, item: PressItem, status: str, verdict: Verdict, author: str) -> str:
    what = KIND_WORDS[item.kind].capitalize()
    to = ", ".join(power.title() for power in item.recipients) if item.recipients else "every power"
    if status == "refused":
        return f"{what} to {to} was not sent: {verdict.reason}."
    if status == "held":
        return f"{what} to {to} is kept for the GM: {verdict.reason}."
    how = "anonymously" if item.kind == "grey" else (
        f"signed \"{item.signature}\"" if item.signature else f"signed {author.title()}")
    if status == "report":
        later = (f", unless a later order set replaces it ({cite(ruleset, 'press_channel')})"
                 if ruleset.press_channel == "in_order_set_last_only" else "")
        condition = f" {item.condition_words}" if item.condition else ""
        return f"{what} will be published {how} with the turn report, to every power{condition}{later}."
    return f"{what} sent {how} to {to}" + (": your name was not shown." if item.kind == "grey" else ".")


def _condition_text(item: PressItem) -> str | None:
    if item.condition is None:
        return None
    return ("unless " if item.negated else "if ") + item.condition


def _holds(row: Press, ruleset: Ruleset, outcome: PhaseOutcome | None, geography: MapInfo | None) -> bool:
    """Whether a conditional item's condition holds on the turn's results (003 [9]); True when it
    has none, when it is a condition on other press (decided after, in _publication), or when no
    results are given (the item is shown as it waits)."""
    if row.condition is None or outcome is None or geography is None:
        return True
    word, _, condition = row.condition.partition(" ")
    if read_press_condition(condition) is not None:
        return True
    return condition_holds(condition, word == "unless", row.author, outcome, ruleset, geography)[0]


def _publication(session: Session, game: Game, phase: str, outcome: PhaseOutcome | None,
                 geography: MapInfo | None) -> tuple[list[Press], list[Press]]:
    """(published, dropped): the press waiting for the report of `phase`, the conditions on the
    season's moves decided first, then those on other press (002 PRESS 4, rules/press_conditions)."""
    ruleset = ruleset_of(game)
    rows = press_of_phase(session, game.id, phase, "report")
    moved = [row for row in rows if _holds(row, ruleset, outcome, geography)]
    shown = published([_candidate(row) for row in moved])
    return [row for row in moved if row.id in shown], [row for row in rows if row.id not in shown]


def _candidate(row: Press) -> Candidate:
    shown = row.author if row.kind == "white" else power_named(row.signature or "") if row.kind == "black" else None
    word, _, condition = (row.condition or "").partition(" ")
    found = read_press_condition(condition) if row.condition else None
    if isinstance(found, str):  # refused when it came: never stored, but never published either
        found = PressCondition(item=0)
    return Candidate(row.id, shown, found, word == "unless")


def press_for_report(session: Session, game: Game, phase: str, outcome: PhaseOutcome | None = None,
                     geography: MapInfo | None = None) -> list[ReportPress]:
    """The press the turn report of `phase` publishes, in order of arrival; the author of grey press
    is never named (003 [9], 000 X(2)). With the turn's `outcome`, conditional press whose
    condition does not hold is left out (003 [9], 002 PRESS 4). Reads only (previews call it)."""
    ruleset = ruleset_of(game)
    return [dataclasses.replace(report_placement(ruleset, row.kind, row.signature, row.author), text=row.text)
            for row in _publication(session, game, phase, outcome, geography)[0]]


def settle_conditions(session: Session, services: Services, game: Game, outcome: PhaseOutcome,
                      now: datetime) -> int:
    """After the report: conditional press whose condition did not hold is marked so, and its
    author told ("press whose condition is false is dropped and the author told")."""
    addresses = {player.power: (player.address, token_of(player, game.phase)) for player in game.players}
    dropped = 0
    for row in _publication(session, game, outcome.phase, outcome, services.geography)[1]:
        row.status, dropped = "condition_false", dropped + 1
        address, secret = addresses.get(row.author, (None, None))
        if address is None:
            continue
        body = services.composer.render("player/press_condition.txt.j2", {
            "game_name": game.name, "phase": describe_phase(outcome.phase), "condition": row.condition,
            "text": row.text})
        message = outgoing.message(services, to=address, subject=f"{game.name} {outcome.phase}: your press", body=body,
                                   now=now, secret=secret)
        queue(session, message, kind="notice", dedupe_key=f"presscond:{row.id}", now=now, game_id=game.id)
    return dropped


def disclose_authors(session: Session, services: Services, game: Game, now: datetime) -> bool:
    """At the end of a game whose rules say so (000 X(2), press_author_disclosure gm_after_game),
    tell the GM, and only the GM, who wrote each published item that did not name its author.
    However the game ended: a solo, a draw or concession voted (vote_tally.end_by_vote) or the GM's
    `game end`. A game with no such press sends nothing: there is nothing to reveal."""
    if ruleset_of(game).press_author_disclosure != "gm_after_game":
        return False  # 003 [9] "Authorship of gray press will not be disclosed"
    hidden = [row for status in ("report", "sent") for row in press_of_game(session, game.id, status)
              if row.kind != "white"]
    if not hidden:
        return False
    lines = [f"{row.phase} {KIND_WORDS[row.kind]}: written by {row.author.title()}: "
             f"\"{' '.join(row.text.split())[:60]}\"" for row in sorted(hidden, key=lambda r: r.id)]
    paragraphs = [f"{game.name} is over. Under house rules 000 X(2) the GM may now reveal who wrote the "
                  "press that did not carry its author's name:", *lines]
    return notify_gm(session, services, key=f"gm:pressauthors:{game.id}", subject=f"{game.name}: press authors",
                     paragraphs=paragraphs, now=now, game_id=game.id)
