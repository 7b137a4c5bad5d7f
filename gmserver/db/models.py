"""Tables. The database is the source of truth: the scheduler and every loop rebuild from it.

Uniqueness constraints carry the exactly-once guarantees: an inbound message is stored once
(`fingerprint`), a phase is adjudicated once (`phases` keyed by game and phase, plus the
compare-and-set on `games.phase`), and each outgoing mail is queued once (`outbox.dedupe_key`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Index, Integer, LargeBinary, String, Text, UniqueConstraint, event
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite stores no zone and returns naive
    values; naive values going in are refused rather than guessed)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: gmserver stores aware UTC datetimes only")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSON, list[Any]: JSON}


class Game(Base):
    __tablename__ = "games"
    # the sweep's questions, answered from indexes rather than by reading every game's row (each
    # carries its ruleset snapshot): what is past its deadline, which retreat or adjustment turns
    # may end early (000 VII(2)), which games still take senders from the From line alone
    __table_args__ = (
        Index("ix_games_deadline", "deadline"),
        Index("ix_games_status_phase", "status", "paused", "phase", "deadline"),
        Index("ix_games_sender_check", "sender_check", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    ruleset_name: Mapped[str] = mapped_column(String(100))
    # A snapshot: editing the profile file never changes a game in progress.
    ruleset: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(20), default="active")  # active | finished
    phase: Mapped[str] = mapped_column(String(20))
    deadline: Mapped[datetime | None]
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    # The local time of day ("18:00:00", in `timezone`) every deadline falls at; NULL
    # (games created before it) keeps each previous deadline's own time of day.
    deadline_time: Mapped[str | None] = mapped_column(String(8))
    movement_seconds: Mapped[int]
    retreat_seconds: Mapped[int]
    adjustment_seconds: Mapped[int]
    reminder_seconds: Mapped[int]  # 0: no reminders
    created_at: Mapped[datetime]
    # Who may speak for a power: "from" trusts the From address alone; "verified" also
    # wants proof (trusted Authentication-Results, a DKIM signature, the player's secret reply
    # address or password line).
    sender_check: Mapped[str] = mapped_column(String(20), default="from", server_default="from")
    # 003 [14] (s1901_policy = suspend_until_replaced): the powers silent at the Spring 1901
    # deadline for which the game waits, with no deadline, until the GM replaces their players
    waiting_for: Mapped[list[Any] | None] = mapped_column(JSON)
    # GM controls: a paused game is never adjudicated and gets no reminders; with
    # gm_copies the GM gets a copy of every report and refusal; gm_secret is the line a GM
    # command by mail must carry under gm_command_auth = gm_address_and_secret
    paused: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    gm_copies: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    gm_secret: Mapped[str | None] = mapped_column(String(64))
    # False for a game created with short turns (`--short-turns-for-testing`, the demo): the
    # profile's minimum turn lengths (min_hours_*) hold neither at create nor when the
    # GM moves a deadline
    enforce_minimums: Mapped[bool] = mapped_column(default=True, server_default=sa_true())
    # When the daemon's sweep must next look at the game for its clock reminders (the
    # profile's `reminders`) and for the Spring 1901 checkpoint (000 II(1)); NULL: nothing to look at. The
    # sweep asks the index for the games whose time has come instead of visiting every game; it
    # stores the next time itself, and any change of what those times follow from sets them back
    # to LOOK_NOW (`_look_again` below), so that no write path can leave a stale one.
    next_reminder_at: Mapped[datetime | None] = mapped_column(index=True, default=lambda: LOOK_NOW)
    next_check_at: Mapped[datetime | None] = mapped_column(index=True, default=lambda: LOOK_NOW)
    # An anonymous (gunboat) game: no player is ever shown another's address (start mail,
    # announcements, pages); the GM may reveal the players once it is over (`game reveal`)
    anonymous: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # whether the game's pages show anything without a player's or the GM's link; None: as
    # `[web] public` says
    pages_public: Mapped[bool | None]

    players: Mapped[list[Player]] = relationship(back_populates="game", order_by="Player.power")


# earlier than any clock: the sweep works the game out again at its next run
LOOK_NOW = datetime(2000, 1, 1, tzinfo=UTC)
# what the sweep's times follow from (the phase's opening comes with `phase`)
TIMING_COLUMNS = ("status", "phase", "deadline", "paused", "reminder_seconds", "ruleset")


def look_again_at(game: Game, changes: dict[str, Any]) -> datetime | None:
    """The sweep's next look at the game (`next_reminder_at`, `next_check_at`) once `changes`
    (column -> new value) are made to what those times follow from: at once, or never for a
    finished or paused game (its index entries would be read at every sweep)."""
    state = {"status": game.__dict__.get("status"), "paused": game.__dict__.get("paused"), **changes}
    return None if state["status"] not in (None, "active") or state["paused"] else LOOK_NOW


def _look_again(game: Game, value: Any, _old: Any, initiator: Any) -> None:
    game.next_reminder_at = game.next_check_at = look_again_at(game, {initiator.key: value})


for _column in TIMING_COLUMNS:
    event.listen(getattr(Game, _column), "set", _look_again)


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    power: Mapped[str] = mapped_column(String(20))
    address: Mapped[str] = mapped_column(String(320), index=True)
    fallback_address: Mapped[str | None] = mapped_column(String(320), index=True)
    # 004 I(1) ¶2: the player's own abbreviations (token -> location code), where the ruleset
    # has player_abbreviation_lists; matched before the standard table
    abbreviations: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The player's secret: their reply address gm+SECRET@domain and their password line
    secret: Mapped[str | None] = mapped_column(String(64))
    # Missed turns (rules/nmr.py): in a row (what nmr_limit_to_cd counts) and in all, this
    # player's own; a replacement starts at zero and the old record goes to player_history
    missed_in_a_row: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    missed_turns: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # the power is in civil disorder (its units hold; defaults decide its retreats and removals)
    civil_disorder: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # 000 VII(6) ¶2 (record_cd_on_player): this player let the country go into civil disorder
    cd_recorded: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    joined_at: Mapped[datetime | None]
    # 001 V(1) (nmr_contact_window_hours): when the adjudication the player missed was published,
    # and that phase, while gmserver waits to hear from them; None when nothing is awaited
    contact_due_since: Mapped[datetime | None]
    missed_phase: Mapped[str | None] = mapped_column(String(20))
    # 001 V(3)(ii) (cd_search_years): the game year in which the search for a replacement ends
    # and the civil disorder the GM chose becomes permanent; None when no search is going on
    cd_search_until: Mapped[int | None] = mapped_column(Integer)
    # 000 II(4) perpetual_orders: {"orders": [engine notation], "since": phase} the GM marked, or None
    perpetual: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # 000 III(1) (a), invalid_set_feedback = conditional_mhr: the GM has not switched off being
    # asked about this player's invalid sets (`gmserver game clarify`); a new player starts on
    clarifications: Mapped[bool] = mapped_column(default=True, server_default=sa_true())
    # SET ZONE: the IANA time zone this player's mail shows deadlines in (beside the game's and
    # UTC); None: the game's own
    zone: Mapped[str | None] = mapped_column(String(64))
    # SET CONFIRM: "full" (every line as read, today's) or "brief" (the orders as read and the deadline)
    confirm_style: Mapped[str] = mapped_column(String(8), default="full", server_default="full")
    # SET PRESS: "each" (every press item mailed as it comes, today's) or "digest" (one mail a day)
    press_delivery: Mapped[str] = mapped_column(String(8), default="each", server_default="each")
    # RESIGN: when this player left; their record is in player_history, the power in civil
    # disorder, and their mail is no longer taken for the power; None: they play it
    resigned_at: Mapped[datetime | None]

    game: Mapped[Game] = relationship(back_populates="players")


class GameNameWord(Base):
    """One word of a game's name as a subject is matched against it (`rules.subject.name_words`),
    written when the game is created: intake finds the games a subject may name by the subject's
    words through this table's key, instead of reading and splitting every open game's name for
    every mail."""

    __tablename__ = "game_name_words"

    word: Mapped[str] = mapped_column(String(400), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)


class PlayerHistory(Base):
    """Who played a power before: one row per player replaced, with their record (
    abandonment and replacement keep each player's record)."""

    __tablename__ = "player_history"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    power: Mapped[str] = mapped_column(String(20))
    address: Mapped[str] = mapped_column(String(320))
    fallback_address: Mapped[str | None] = mapped_column(String(320))
    joined_at: Mapped[datetime | None]
    left_at: Mapped[datetime]
    left_in_phase: Mapped[str] = mapped_column(String(20))
    missed_turns: Mapped[int] = mapped_column(Integer)
    missed_in_a_row: Mapped[int] = mapped_column(Integer)
    civil_disorder: Mapped[bool]
    cd_recorded: Mapped[bool]


class GmAction(Base):
    """Every GM action, from the command line or by mail: what, with which arguments, by whom
    ("cli" or the GM's address), when, and what came of it ("every GM action is recorded")."""

    __tablename__ = "gm_actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    action: Mapped[str] = mapped_column(String(40))
    arguments: Mapped[dict[str, Any]]
    by: Mapped[str] = mapped_column(String(320))
    at: Mapped[datetime]
    result: Mapped[str] = mapped_column(Text)


class Proxy(Base):
    """A power's proxy (proxy_policy; 000 II(3), 003 [19]): the holder's address may
    send that power's orders. `status`: requested (held for the GM under gm_approval), active,
    refused or cancelled; `until_phase`: the one turn it covers, None for "until cancelled"."""

    __tablename__ = "proxies"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    power: Mapped[str] = mapped_column(String(20))
    holder: Mapped[str] = mapped_column(String(320))
    status: Mapped[str] = mapped_column(String(20))
    until_phase: Mapped[str | None] = mapped_column(String(20))
    # 003 [19] "a proxy for one or more of his units": the provinces of those units; None: all
    units: Mapped[list[Any] | None] = mapped_column(JSON)
    requested_by: Mapped[str] = mapped_column(String(320))
    requested_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]


class PhaseRecord(Base):
    """One row per phase the game has reached: its engine state and, once adjudicated, what
    went in and what came out. The history a rollback or an archive query needs."""

    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase: Mapped[str] = mapped_column(String(20))
    state: Mapped[dict[str, Any]]
    deadline: Mapped[datetime | None]
    opened_at: Mapped[datetime]
    adjudicated_at: Mapped[datetime | None]
    orders: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    results: Mapped[list[Any] | None] = mapped_column(JSON)
    # 000 VIII(1): how many times this phase's adjudication was rolled back; each re-adjudication
    # queues its reports under its own dedupe keys (services.turn.turns)
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # what each rolled-back adjudication said: [{adjudicated_at, rolled_back_at, orders, results}]
    superseded: Mapped[list[Any] | None] = mapped_column(JSON)
    # the GM's convoy rulings (000 VI(4)): [{move, ruling: fails | stands, at}]
    rulings: Mapped[list[Any] | None] = mapped_column(JSON)
    # each player's missed turns just before this phase was adjudicated, {power: {...}}: a rollback
    # puts them back (000 VII(6), services.features.nmr.missed_record / restore_missed)
    missed_before: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class InboundMessage(Base):
    __tablename__ = "inbound"

    id: Mapped[int] = mapped_column(primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64), unique=True)
    message_id: Mapped[str | None] = mapped_column(String(998))
    source: Mapped[str] = mapped_column(String(20))  # imap | smtp | lmtp | cli
    mailbox: Mapped[str | None] = mapped_column(String(200))
    # IMAP UIDs and UIDVALIDITY are unsigned 32-bit: they do not fit a signed INTEGER
    uidvalidity: Mapped[int | None] = mapped_column(BigInteger)
    uid: Mapped[int | None] = mapped_column(BigInteger)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime]
    # pending -> done | failed (parked for the GM, with the traceback in `error`) | held (for the GM)
    status: Mapped[str] = mapped_column(String(20), default="pending")
    outcome: Mapped[str | None] = mapped_column(String(40))  # accepted | rejected | ignored ...
    # what an accepted message is (gmserver.rules.mailkind: orders, press, request...); None
    # for mail refused or ignored before it was read, and for mail stored before kinds existed
    kind: Mapped[str | None] = mapped_column(String(20))
    error: Mapped[str | None] = mapped_column(Text)
    processed_at: Mapped[datetime | None]
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    power: Mapped[str | None] = mapped_column(String(20))
    # Claims counted before processing starts (committed on their own): a message that kills the
    # process every time is parked after a few tries instead of blocking the queue for ever.
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The SMTP/LMTP envelope, when the built-in listener received it: MAIL FROM ("" for the null
    # reverse path <> of bounces) and RCPT TO. None over IMAP (the Return-Path header tells there).
    envelope_from: Mapped[str | None] = mapped_column(String(998))
    envelope_to: Mapped[list[Any] | None] = mapped_column(JSON)
    # status "held" (hold_for_gm): the turn the held message is for, until the GM
    # releases it (`gmserver inbox release`) or refuses it (`gmserver inbox refuse`)
    held_phase: Mapped[str | None] = mapped_column(String(20))

    __table_args__ = (Index("ix_inbound_status", "status"),)


class OrderSet(Base):
    """Every version of every order set is kept; the highest version is the one on file."""

    __tablename__ = "order_sets"
    __table_args__ = (UniqueConstraint("game_id", "power", "phase", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    power: Mapped[str] = mapped_column(String(20))
    phase: Mapped[str] = mapped_column(String(20))
    version: Mapped[int]
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound.id"))
    orders: Mapped[list[Any]]  # this message's own orders; effective_orders() combines the sets
    lines: Mapped[list[Any]]
    received_at: Mapped[datetime]
    # 000 II(2), 001 II(7), 002 ORDERS 2: the set's version marker, change marker and Preliminary/Final mark
    marker: Mapped[str | None] = mapped_column(String(20))
    is_change: Mapped[bool] = mapped_column(default=False)
    status: Mapped[str | None] = mapped_column(String(20))
    # units whose hold supports are void (000 III(5), 003 [10 a, b]: failed_move_unsupportable)
    unsupportable: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # contingent_minor_orders (000 II(5), 001 II(6)): the retreat and adjustment lines of a
    # movement set, as written, read in the following minor turn if no set arrives for it
    contingent: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # a version the GM wrote (`gmserver game orders`), read like a player's and announced to them
    by_gm: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # proxy_policy (000 II(3), 003 [19]): sent by the power's proxy holder, not its player
    by_proxy: Mapped[bool] = mapped_column(default=False, server_default=sa_false())


class Press(Base):
    """One press item. `author` is for the GM only: grey press never shows it."""

    __tablename__ = "press"
    __table_args__ = (Index("ix_press_game_phase", "game_id", "phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase: Mapped[str] = mapped_column(String(20))
    author: Mapped[str] = mapped_column(String(20))
    kind: Mapped[str] = mapped_column(String(20))  # white | grey | dark_grey | black
    signature: Mapped[str | None] = mapped_column(String(100))
    recipients: Mapped[list[Any]]  # powers; empty: every power (broadcast)
    text: Mapped[str] = mapped_column(Text)
    condition: Mapped[str | None] = mapped_column(Text)  # "if ..." / "unless ..." (003 [9]; migration 0013b)
    # sent | report | held | refused | replaced | dropped | condition_false (migrations 0013, 0013b)
    status: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(Text)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound.id"))
    created_at: Mapped[datetime]


class PressDigestItem(Base):
    """A press item owed to a player who chose SET PRESS digest: its text as they would have got
    it, until the day's one mail carries it (`sent_at`)."""

    __tablename__ = "press_digest"
    __table_args__ = (UniqueConstraint("press_id", "player_id"), Index("ix_press_digest_pending", "sent_at", "player_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    press_id: Mapped[int] = mapped_column(ForeignKey("press.id"))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]


class OutboxMessage(Base):
    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Fixed at creation so that a resend after a crash is recognisably the same message.
    message_id: Mapped[str] = mapped_column(String(998), unique=True)
    # e.g. "report:12:S1901M:FRANCE": queuing the same mail twice is a constraint violation.
    dedupe_key: Mapped[str] = mapped_column(String(300), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    sender: Mapped[str] = mapped_column(String(320))
    recipient: Mapped[str] = mapped_column(String(320))
    # The message's bytes. Empty for a player's copy of a stored report (`report_id`) until the
    # sender writes it, at its first attempt, and keeps it here: a retry sends the same bytes.
    stored: Mapped[bytes] = mapped_column("raw", LargeBinary)
    # a deadline stores one report per game (StoredReport) and a light row
    # per player; `addressing` is what differs per player (subject, reply secret)
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id", name="fk_outbox_report"))
    addressing: Mapped[dict[str, Any] | None]
    report: Mapped[StoredReport | None] = relationship(lazy="selectin")  # raw of a detached row too
    # pending -> sending (leased until lease_until) -> sent | failed
    status: Mapped[str] = mapped_column(String(20), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime]
    lease_until: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"),)

    @property
    def raw(self) -> bytes:
        """The message as stored. A player's copy of a stored report has no bytes until the sender
        writes them: gmserver.services.base.outbox.message_bytes(row) writes them for a reader."""
        if not self.stored and self.report_id is not None:
            raise ValueError(f"outbox message {self.id} is a copy of a stored report, not written yet: "
                             "gmserver.services.base.outbox.message_bytes(row) writes it")
        return self.stored


class StoredReport(Base):
    """A turn report as stored at the deadline, once per game: what every player's copy is
    written from when it is sent (gmserver.services.base.report_copies)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    key: Mapped[str] = mapped_column(String(300), unique=True)  # "report:12:S1901M:" (+ "r1:" after a rollback)
    payload: Mapped[str] = mapped_column(Text)  # JSON (services/base/report_copies.py: payload_of)
    created_at: Mapped[datetime]


class ProposalRow(Base):
    """A proposal to end the game: made by mail in a turn, tallied at its deadline
    (rules/votes.py). The proposer is kept for the GM; players are told it only where
    `proposer_anonymous` is false."""

    __tablename__ = "proposals"
    __table_args__ = (UniqueConstraint("game_id", "phase", "kind", "members"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase: Mapped[str] = mapped_column(String(20))  # the turn it was made in
    kind: Mapped[str] = mapped_column(String(30))  # draw | concession
    members: Mapped[str] = mapped_column(String(200))  # powers, sorted, space-separated; or a key
    proposer: Mapped[str] = mapped_column(String(20))
    terms: Mapped[str | None] = mapped_column(Text)  # a rule change's or an end on any terms' words
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound.id"))
    created_at: Mapped[datetime]
    # open -> passed | failed | void, with the announcement in words (never a voter's vote)
    status: Mapped[str] = mapped_column(String(20), default="open", server_default="open")
    result: Mapped[str | None] = mapped_column(Text)
    tallied_phase: Mapped[str | None] = mapped_column(String(20))


class VoteRow(Base):
    """A power's latest ballot on a proposal (revised_votes = allowed: a new vote replaces it)."""

    __tablename__ = "votes"
    __table_args__ = (UniqueConstraint("proposal_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    proposal_id: Mapped[int] = mapped_column(ForeignKey("proposals.id"))
    power: Mapped[str] = mapped_column(String(20))
    choice: Mapped[str] = mapped_column(String(10))  # yes | no | abstain
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound.id"))
    cast_at: Mapped[datetime]


class AddressChange(Base):
    """A player's own address change by mail (`ADDRESS new@...`): nothing changes until the new
    address answers the mail whose Reply-To carries `confirm_token`; meanwhile the old address,
    told with `cancel_token` in its Reply-To, may cancel it (or undo it, once confirmed, for a
    while). `status`: pending, confirmed, cancelled, undone, lapsed, or replaced."""

    __tablename__ = "address_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    power: Mapped[str] = mapped_column(String(20))
    address: Mapped[str] = mapped_column(String(320))
    fallback: Mapped[str | None] = mapped_column(String(320))
    old_address: Mapped[str] = mapped_column(String(320))
    old_fallback: Mapped[str | None] = mapped_column(String(320))
    confirm_token: Mapped[str] = mapped_column(String(32), unique=True)
    cancel_token: Mapped[str] = mapped_column(String(32), unique=True)
    status: Mapped[str] = mapped_column(String(20), default="pending")
    requested_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]


class GmCommandMail(Base):
    """A GM command carried out from a mail, by the digest of what the mail cannot vary for the
    same command (its sender, Date and command line): a re-sent copy, whatever its Message-ID,
    is not carried out again."""

    __tablename__ = "gm_command_mails"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound.id"))
    at: Mapped[datetime]


class PageToken(Base):
    """A player's private web page link (gmserver/web/): an unguessable token of its own, never the
    reply-address secret (which travels in every Reply-To). It is bound to the player's secret as
    it was when the token was issued (`secret_digest`): when the secret is rotated (an address
    change, a new player, the GM's reset), the link is old and answers 404, and the next mail that
    carries a link issues a new one."""

    __tablename__ = "page_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    secret_digest: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]


class Announcement(Base):
    """A game announced for open sign-up (gmserver.services.features.signup): the rules it will be
    created with, when it starts (seven confirmed joins, or `starts_at`), whether the GM approves
    each join, the least record a joining player needs, and the seed of its power draw
    (gmserver.rules.assignment); once started, the assignment made and the game."""

    __tablename__ = "announcements"
    __table_args__ = (Index("ix_announcements_status", "status", "starts_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    ruleset_name: Mapped[str] = mapped_column(String(100))
    deadline_time: Mapped[str | None] = mapped_column(String(8))
    timezone: Mapped[str] = mapped_column(String(64))
    anonymous: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    min_reliability: Mapped[float | None]
    approval: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    starts_at: Mapped[datetime | None]  # None: when seven have confirmed
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20), default="open", server_default="open")  # open | started
    assignment: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    created_at: Mapped[datetime]
    by: Mapped[str] = mapped_column(String(320))


class Signup(Base):
    """A player's request about a game by mail: join (with power preferences), standby or observe.
    Unconfirmed until the player replies to its answer (which proves the address); a join then
    waits for the GM where the game asks approval; the queue is the order of confirmation."""

    __tablename__ = "signups"
    __table_args__ = (Index("ix_signups_game_name", "game_name", "kind", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(20))  # join | standby | observe
    address: Mapped[str] = mapped_column(String(320), index=True)
    preferences: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # unconfirmed | awaiting_gm | confirmed | seated | refused | left
    status: Mapped[str] = mapped_column(String(20))
    secret: Mapped[str] = mapped_column(String(64))  # its answer's reply address (rules.authenticity)
    requested_at: Mapped[datetime]
    confirmed_at: Mapped[datetime | None]
    offered_power: Mapped[str | None] = mapped_column(String(20))  # a standby's current offer


class AbsenceRow(Base):
    """A player's absence (ABSENCE by mail, rules/absence.py): the days away, both included, in
    the player's own calendar. Registered (`registered_at`) until cancelled (`cancelled_at`); an
    absence offered in answer to an out-of-office auto-reply has `offered_at` and its one-time
    reply secret and is registered only when the player replies YES to it."""

    __tablename__ = "absences"
    __table_args__ = (Index("ix_absences_game_id", "game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    power: Mapped[str] = mapped_column(String(20))
    address: Mapped[str] = mapped_column(String(320))  # the player's, when registered (a new player has none)
    first_day: Mapped[date]
    last_day: Mapped[date]
    reason: Mapped[str] = mapped_column(String(200), default="", server_default="")
    offered_at: Mapped[datetime | None]
    offer_secret: Mapped[str | None] = mapped_column(String(64), unique=True)
    registered_at: Mapped[datetime | None]
    cancelled_at: Mapped[datetime | None]
