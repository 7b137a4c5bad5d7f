"""The GM's corrections by mail (issue 8): the runners behind the `release`, `refuse`, `orders`,
`preview`, `rollback`, `convoy`, `repair` and `audit` entries of services.commands.gm_commands.COMMANDS. Each runs in the GM
message's transaction with the game locked (services.commands.gm_commands._one), calls the same service
as the command line, and says in one line what it did."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db.models import Game
from gmserver.services.features import audit as audits
from gmserver.services.features import convoys, corrections, held, repairs
from gmserver.services.turn import preview
from gmserver.services.base.context import Services
from gmserver.services.game.games import GameError
from gmserver.services.game.actions import Done

RELEASE = "release [GAME] MESSAGE-ID"
REFUSE = "refuse [GAME] MESSAGE-ID [REASON]"
ORDERS = "orders [GAME] POWER ORDER[; ORDER...]"
PREVIEW = "preview [GAME]"
ROLLBACK = "rollback [GAME]"
CONVOY = "convoy [GAME] A LON - BEL fails|stands"
REPAIR = repairs.USAGE
AUDIT = "audit [GAME]"


def _message_id(args: tuple[str, ...], usage: str) -> int:
    if not args or not args[0].isdigit():
        raise GameError(f"expected: {usage} (the number `gmserver inbox list --status held` shows)")
    return int(args[0])


def release(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str,
            now: datetime) -> Done:
    if len(args) != 1:
        raise GameError(f"expected: {RELEASE}")
    done = held.release_in(session, services, _message_id(args, RELEASE), now, by=by, game_name=game.name)
    return Done("release", f"message {done.inbound_id} released: filed as {done.power}'s orders for "
                           f"{done.phase} and confirmed to the sender")


def refuse(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str,
           now: datetime) -> Done:
    reason = " ".join(args[1:]) or None
    done = held.refuse_in(session, services, _message_id(args, REFUSE), now, reason, by=by, game_name=game.name)
    return Done("refuse", f"message {done.inbound_id} refused; the sender is told")


def orders(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str,
           now: datetime) -> Done:
    if len(args) < 2:
        raise GameError(f"expected: {ORDERS}")
    # one line of mail holds the whole set: orders are separated by ";" (read one a line)
    text = "\n".join(part.strip() for part in " ".join(args[1:]).split(";") if part.strip())
    done = corrections.correct_orders_in(session, services, game, args[0], text, by=by, now=now)
    return Done("orders", f"{done.power}'s set v{done.version} for {done.phase} filed as the GM's: "
                          f"{', '.join(done.on_file) or 'nothing'} on file; {done.power.title()} told", 1)


def show_preview(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str,
                 now: datetime) -> Done:
    if args:
        raise GameError(f"expected: {PREVIEW}")
    shown = preview.preview_in(session, services, game, now)
    text = (f"preview of {shown.phase} (nothing stored, nothing sent; it would open {shown.next_phase}): "
            + "; ".join(shown.results))
    if shown.disputes:
        text += ". Convoys to rule on (house rules 000 VI): " + "; ".join(shown.disputes)
    return Done("preview", text)


def rollback(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str,
             now: datetime) -> Done:
    if args:
        raise GameError(f"expected: {ROLLBACK} (it waits for `process` or `gmserver adjudicate` afterwards)")
    done = corrections.rollback_in(session, services, game, now, deadline=None, replay=False, by=by)
    return Done("rollback", f"the adjudication of {done.phase} was rolled back ({done.undone} undone); it waits "
                            f"to be adjudicated again (gmserver adjudicate {done.game})", done.notices)


def convoy(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str,
           now: datetime) -> Done:
    if len(args) < 2 or args[-1].lower() not in convoys.RULINGS:
        raise GameError(f"expected: {CONVOY}")
    done = convoys.rule_convoy_in(session, services, game, " ".join(args[:-1]), args[-1].lower(), by=by, now=now)
    return Done("convoy", f"{done.move} {done.ruling} in {done.phase} (house rules 000 VI(4)); applied when it is "
                          "adjudicated")


def repair(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str,
           now: datetime) -> Done:
    """000 VIII(2), VIII(3): "repair FRANCE A PAR confirm"; without "confirm" only the proposal."""
    confirm = bool(args) and args[-1].lower() == "confirm"
    words = args[:-1] if confirm else args
    if len(words) not in (1, 3, 5) or (len(words) == 5 and words[3].lower() != "to"):
        raise GameError(f"expected: {REPAIR}")
    unit = " ".join(words[1:3]) or None
    done = repairs.repair_unit_in(session, services, game, words[0], unit, words[4] if len(words) == 5 else None,
                                  confirm=confirm, by=by, now=now)
    if not done.done:
        return Done("repair", f"proposed, not done: {done.repair.describe()}. To do it, add \"confirm\"")
    return Done("repair", f"{done.repair.describe()}; every player told", done.notices)


def audit(session: Session, services: Services, game: Game, args: tuple[str, ...], by: str, now: datetime) -> Done:
    """000 VIII(2), VIII(3): the last game year's stored orders replayed; the differences and the
    repairs proposed, in the reply (no separate notice)."""
    if args:
        raise GameError(f"expected: {AUDIT}")
    done = audits.audit_in(session, services, game, now, notify=False)
    replayed = ", ".join(done.replayed) or "no phase"
    if not done.differences:
        return Done("audit", f"replayed {replayed} with their stored orders: every stored board is what they give")
    repairs_text = "".join(f" Proposed (000 VIII): {p.mail()}." for p in done.proposals)
    return Done("audit", f"replayed {replayed} with their stored orders: " + " ".join(
        f"{text}." for text in done.differences) + repairs_text)
