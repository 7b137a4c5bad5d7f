"""The sender check of a "verified" game, run after intake has accepted a message for a power
(gmserver.rules.authenticity says what proves a sender).

A message that proves nothing is not used. The power's registered address is told, never an
address the message chose, and at most once an hour, so that a forger's flood does not flood
the player.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from datetime import datetime, timedelta
from email.message import Message
from email.parser import BytesHeaderParser

from sqlalchemy.orm import Session

from gmserver.db.models import Game, InboundMessage, Player
from gmserver.db.queries.games import active_games_checking
from gmserver.db.queries.ordersets import newest_set_message
from gmserver.db.queries.outbox import queued_since
from gmserver.db.queries.players import player_of
from gmserver.db.session import transaction
from gmserver.rules.address import header_addresses
from gmserver.rules.authenticity import (
    SINGLE_HEADERS,
    Binding,
    DkimSignature,
    Evidence,
    Unverified,
    Verified,
    aligned,
    domain_of,
    is_gm_recipient,
    read_signature,
    verify_sender,
    vouching_faults,
)
from gmserver.rules.envelope import Envelope
from gmserver.rules.intake import Accept
from gmserver.rules.late_proof import header_moment
from gmserver.rules.mailpolicy import MAIL_POLICY
from gmserver.rules.password_lines import passwords_in
from gmserver.rules.reading.message import body_text
from gmserver.services.base import mails
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import copy_to_gm
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_limits import PLAYER_REFUSALS_PER_HOUR, REFUSAL_KINDS, replies_since
from gmserver.services.base.reply_tokens import reply_periods
from gmserver.services.game.games import new_secret, turn_opened

log = logging.getLogger(__name__)

WARNING_INTERVAL = timedelta(hours=1)
WARNING_KEY = "unverified:"
# where a message's recipients show over IMAP (the listener records RCPT TO itself)
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "To", "Cc")
MAX_RECIPIENTS = 50
# signature headers read for what they cover (a message carrying more is a forger's)
MAX_SIGNATURES_READ = 20


class DkimNeeded(Exception):
    """The sender check needs the message's DKIM signatures verified: DNS look-ups that may take
    seconds, which must not hold the transaction (and on SQLite the database's write lock). The
    caller rolls back, runs `verify()` and processes the message again."""

    def __init__(self, services: Services, raw: bytes, from_domain: str) -> None:
        super().__init__("DKIM signatures to verify")
        self.services, self.raw, self.from_domain = services, raw, from_domain

    def verify(self) -> None:
        """Only keys of domains aligned with From are looked up: no other signature proves anything."""
        self.services.sender_checks.dkim.verify(self.raw, functools.partial(aligned, from_domain=self.from_domain))


def check_sender(session: Session, services: Services, row: InboundMessage, envelope: Envelope, decision: Accept,
                 now: datetime, *, body: str | None = None) -> str | None:
    """None when the message may be used as `decision.power`'s orders; otherwise the row's
    outcome ("unverified"), after telling the real player (rate-limited). `body`: body_text of
    the envelope's message, where the caller read it already (MessageText.body)."""
    view = decision.game
    if view.sender_check != "verified":
        return None
    # the view has the player's password and the turns whose reply tokens count: the game and
    # player rows are read only for a proxy holder, a player without a password, or a warning
    secret = None if decision.by_proxy else view.secrets.get(decision.power)
    game: Game | None = None
    player: Player | None = None
    if secret is None or not view.periods:
        game, player = _game_and_player(session, view.id, decision.power)
        # proxies (000 II(3), 003 [19]): a holder proves their own address, with their own
        # secret if they play here (never the owner's, which they do not know), else by DKIM alone
        secret = _holder_secret(game, envelope.sender) if decision.by_proxy else player.secret
    settings = services.sender_checks
    evidence = Evidence(
        sender=envelope.sender,
        authentication_results=tuple(header_values(envelope.message, "Authentication-Results")),
        recipients=recipients(row, envelope.message),
        passwords=passwords_in(body_text(envelope.message) if body is None else body),
        single_from=single_from(envelope),
        repeated=repeated_headers(envelope.message),
        signatures=signatures(envelope.message),
        binding=Binding(dated=_dated(envelope.message),
                        to_gm=any(is_gm_recipient(address, services.composer.gm_address)
                                  for _, address in _addresses(header_values(envelope.message, "To"))),
                        received_at=row.received_at, turn_opened=turn_opened(session, view),
                        newest_on_file=_newest_on_file(session, view.id, decision.power, decision.phase)),
    )
    periods = view.periods or reply_periods(session, game)

    def judged(evidence: Evidence) -> Verified | Unverified:
        return verify_sender(evidence, secret=secret, gm_address=services.composer.gm_address,
                             trusted_authserv_ids=settings.trusted_authserv_ids, periods=periods)

    verdict = judged(evidence)
    if not isinstance(verdict, Verified) and not vouching_faults(evidence):
        # DKIM costs DNS lookups: only when nothing cheaper proved the sender and a signature may vouch
        from_domain = domain_of(envelope.sender)
        if not any(aligned(signature.domain, from_domain) for signature in evidence.signatures):
            domains = ()  # no signature of the From domain: nothing to look up
        elif (domains := settings.dkim.remembered(row.raw)) is None:
            raise DkimNeeded(services, row.raw, from_domain)  # looked up outside the transaction (services.inbox.runner)
        verdict = judged(dataclasses.replace(evidence, dkim_domains=domains))
    if isinstance(verdict, Verified):
        log.info("inbound %s: sender %s verified for %s %s (%s)", row.id, envelope.sender, view.name,
                 decision.power, verdict.proof)
        return None
    if game is None or player is None:
        game, player = _game_and_player(session, view.id, decision.power)
    row.game_id, row.power = game.id, decision.power
    if (_warnings_since(session, player.address, now - WARNING_INTERVAL) >= 1
            # a warning is a refusal too: the player's hourly limit on them holds for both together
            or replies_since(session, player.address, REFUSAL_KINDS, now - timedelta(hours=1))
            >= PLAYER_REFUSALS_PER_HOUR):
        log.warning("inbound %s: unverified message from %s for %s %s not used; the player was sent a warning "
                    "within the hour already, or as many refusals as an hour allows", row.id, envelope.sender,
                    game.name, decision.power)
        return "unverified"
    log.warning("inbound %s: unverified message from %s for %s %s not used; warning %s", row.id,
                envelope.sender, game.name, decision.power, player.address)
    warning = mails.unverified_sender(services, game, player, envelope, verdict.findings, now)
    queue(session, warning, kind="rejection", dedupe_key=f"{WARNING_KEY}{row.id}", now=now, game_id=game.id)
    copy_to_gm(session, services, game.id, warning, "refusal", f"{WARNING_KEY}{row.id}", now)  # gm_copies
    return "unverified"


def _game_and_player(session: Session, game_id: int, power: str) -> tuple[Game, Player]:
    """The game's row and the power's player's, the player given a password if it has none (a
    player from before secrets existed, in a game switched to "verified")."""
    game = session.get(Game, game_id)
    player = player_of(session, game_id, power)
    assert game is not None and player is not None, f"game {game_id} has no player for {power}"
    if not player.secret:
        player.secret = new_secret()
    return game, player


FROM_GAME_KEY = "gm:fromsender:"


def tell_gm_of_from_games(services: Services, now: datetime) -> int:
    """Once per game (its notice's dedupe key): an active game whose senders are not verified
    (games from before sender proof keep "from") is a game where a forged From line moves a
    power, or changes its player's address. How many notices were queued."""
    told = 0
    with transaction(services.sessions) as session:
        for game in active_games_checking(session, "from"):
            told += notify_gm(session, services, key=f"{FROM_GAME_KEY}{game.id}", game_id=game.id, now=now,
                              subject=f"{game.name}: players' mail is not verified",
                              paragraphs=(
                                  f"In {game.name} a mail is taken as a player's when its From line names them, "
                                  "and anyone can write that line: a stranger can send orders for a power, or "
                                  "move it to another address with ADDRESS.",
                                  f"`gmserver game set {game.name} sender-check verified` (or the mail command "
                                  f"`set {game.name} sender-check verified`) uses a player's mail only with proof "
                                  "that they sent it: a reply to the GM's mail always is. The players are told.",
                                  "This notice is sent once per game."))
    return told


def _holder_secret(game: Game, address: str) -> str | None:
    return next((p.secret for p in game.players if address in (p.address, p.fallback_address)), None)


def _warnings_since(session: Session, address: str, since: datetime) -> int:
    return queued_since(session, since, kinds=("rejection",), recipient=address, key_prefix=WARNING_KEY)


def recipients(row: InboundMessage, message: Message) -> tuple[str, ...]:
    """Where the message was sent: the listener's RCPT TO list, and the headers that tell it
    over IMAP (Delivered-To, X-Original-To added by the receiving server; To, Cc). A secret
    found in any of them proves the sender knew it."""
    found = [str(address) for address in (row.envelope_to or [])]
    for name in RECIPIENT_HEADERS:
        found += [address for _, address in _addresses(header_values(message, name)) if address]
    return tuple(found[:MAX_RECIPIENTS])


def single_from(envelope: Envelope) -> bool:
    """One From line, naming one address: the one intake matched to the power."""
    values = header_values(envelope.message, "From")
    addresses = _addresses(values)
    return len(values) == 1 and len(addresses) == 1 and addresses[0][1].strip().lower() == envelope.sender


def repeated_headers(message: Message) -> tuple[str, ...]:
    """The headers of SINGLE_HEADERS that the message has more than once."""
    names = [key.lower() for key in message.keys()]
    return tuple(name for name in SINGLE_HEADERS if names.count(name.lower()) > 1)


def signatures(message: Message) -> tuple[DkimSignature, ...]:
    """Every DKIM-Signature header's d=, h= and l= (a header without d= or h= vouches for nothing)."""
    read = (read_signature(value) for value in header_values(message, "DKIM-Signature")[:MAX_SIGNATURES_READ])
    return tuple(signature for signature in read if signature is not None)


def _dated(message: Message) -> datetime | None:
    values = header_values(message, "Date")
    return header_moment(values[0]) if len(values) == 1 else None


def _newest_on_file(session: Session, game_id: int, power: str, phase: str) -> datetime | None:
    raw = newest_set_message(session, game_id, power, phase)
    return None if raw is None else _dated(BytesHeaderParser(policy=MAIL_POLICY).parsebytes(raw))


def _addresses(values: list[str]) -> list[tuple[str, str]]:
    try:
        return list(header_addresses(tuple(values)))
    except Exception:  # noqa: BLE001  hostile headers prove nothing, and must not park the message
        return []


def header_values(message: Message, name: str) -> list[str]:
    """Every `name` header's raw value, top first, unfolded; never raises on hostile headers."""
    values = []
    wanted = name.lower()
    for key, value in message.raw_items():
        if key.lower() == wanted:
            values.append(" ".join(str(value).split()))
    return values
