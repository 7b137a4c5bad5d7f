"""Who sent this message, for which game and power, and do the house rules accept it?

Pure: the caller passes the parsed envelope, the games that could be meant and the time.
Every refusal carries reasons a player can act on and, where one exists, a subject line that
would have been accepted.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from gmserver.rules.authenticity import reply_token, reply_tokens
from gmserver.rules.envelope import Envelope
from gmserver.rules.late_proof import late_set_proven
from gmserver.rules.position import describe_phase
from gmserver.rules.press import NON_PLAYER
from gmserver.rules.proxies import ProxyState
from gmserver.rules.reading.model import LineReading
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.subject import SubjectReading, format_subject, read_subject


@dataclass(frozen=True)
class GameView:
    """What intake needs to know about one active game."""

    id: int
    name: str
    ruleset: Ruleset
    phase: str
    deadline: datetime | None
    status: str
    # power -> (primary address, fallback address or None), addresses lower-cased
    players: Mapping[str, tuple[str, str | None]]
    # power -> the player's password, from which the tokens of their reply addresses (gm+TOKEN@...)
    # are derived (gmserver.rules.authenticity); None for games made before sender checks
    secrets: Mapping[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    # the periods whose reply tokens are accepted, the current one first (the current turn and
    # the one before); empty: the current phase alone
    periods: tuple[str, ...] = field(default=(), compare=False, repr=False)
    # (phase, deadline) of the turn adjudicated last, for a late set that names it
    # (late_with_proof, 000 VII(1)); None where it is not needed or there is none
    previous: tuple[str, datetime | None] | None = field(default=None, compare=False, repr=False)
    # the game's IANA time zone: deadlines in the answers are shown in it as well as in UTC
    timezone: str = field(default="UTC", compare=False, repr=False)
    # "from" (the From address alone) or "verified" (proof wanted: services.features.senders)
    sender_check: str = field(default="from", compare=False, repr=False)
    # power -> its proxy this turn (proxy_policy; 000 II(3), 003 [19]): its holder's
    # order mail for that power is taken, orders only (never press, votes or requests)
    proxies: Mapping[str, ProxyState] = field(default_factory=dict, compare=False, repr=False)
    # when the game's latest phase was adjudicated (its current phase's start; None before the
    # first), where the view was read with it (`turn_opened_read`: intake's games)
    turn_opened: datetime | None = field(default=None, compare=False, repr=False)
    turn_opened_read: bool = field(default=False, compare=False, repr=False)

    def proxied_for(self, address: str) -> tuple[str, ...]:
        """Powers whose orders this address sends as proxy holder (a silently cancelled proxy
        included: 003 [19], its sets are taken as before and not used)."""
        return tuple(sorted(power for power, proxy in self.proxies.items() if proxy.holder == address))

    def reply_token(self, power: str | None) -> str | None:
        """The token of the power's reply address in mail sent now (None: the game has no password for it)."""
        secret = self.secrets.get(power) if power else None
        return reply_token(secret, self.phase) if secret else None

    def reply_tokens(self, power: str) -> tuple[str, ...]:
        """The tokens of the power's reply addresses that still prove the sender."""
        return reply_tokens(self.secrets.get(power), self.periods or (self.phase,))

    def secrets_of(self, power: str) -> tuple[str, ...]:
        """The power's password and the reply tokens still accepted: what nothing published may hold."""
        password = self.secrets.get(power)
        return (password, *self.reply_tokens(power)) if password else ()

    def powers_of(self, address: str) -> tuple[str, ...]:
        """Powers this address may order for (every profile has a `sender_policy`, e.g. 003 [4])."""
        allow_fallback = self.ruleset.sender_policy == "registered_with_fallback"
        return tuple(sorted(
            power for power, (primary, fallback) in self.players.items()
            if address == primary or (allow_fallback and fallback and address == fallback)
        ))


@dataclass(frozen=True)
class Accept:
    game: GameView
    power: str
    phase: str
    subject: SubjectReading
    warnings: tuple[str, ...] = ()
    by_proxy: bool = False  # the sender is the power's proxy holder, not its player


@dataclass(frozen=True)
class Reject:
    reasons: tuple[str, ...]
    expected_subject: str | None = None
    game: GameView | None = None
    power: str | None = None
    # the sender is no player of any game the message could be about: its refusal names no game
    # and counts against the stricter limits on answering strangers
    stranger: bool = False
    # a player in several games whose subject names none of them (or could name several): the
    # subject line of each, (game name, subject), so that the answer gives the right one for each
    subjects: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Ignore:
    reason: str


@dataclass(frozen=True)
class Hold:
    """hold_for_gm (001 II(4) "may, but is not required to accept"): an order set
    the GM decides on. `accept` is what releasing it files (for the turn `accept.phase`, the one
    the subject named or else the current one); `reasons` say what the subject lacked,
    `option` which option held it (nonconforming_subject_policy or season_mismatch_policy) and
    `expected_subject` a subject accepted without the GM."""

    accept: Accept
    reasons: tuple[str, ...]
    option: str
    expected_subject: str


Decision = Accept | Reject | Ignore | Hold


def decide(envelope: Envelope, games: Sequence[GameView], received_at: datetime, *,
           orders: bool = True, press: bool = False, read_only: bool = False, after_end: bool = False,
           body: str = "", gm_address: str | None = None, reply_secrets: Collection[str] = (),
           trusted_receivers: Collection[str] = ()) -> Decision:
    """What to do with a message that reached the GM at `received_at`.

    `orders=False` for press, requests and votes (gmserver.rules.mailkind): the subject rules of
    2.1 are those of order sets, so such a message needs only to name the game, may name another
    turn (a reply to a report) and may come after the deadline. `press`: the message holds press;
    where the game takes press from non-players (002 PRESS 2) a sender who plays no power there is
    accepted as NON_PLAYER, for the press alone. `read_only`: a request answered from the game's
    records (STATUS, HISTORY...), which a player of a finished game may still ask.
    `after_end`: a message a finished game still takes (a complaint about the draw that ended it,
    002 DRAWS 5). `body` is the message's text (its first lines may name the game, power and turn:
    subject_or_body); `gm_address` the GM's order address, which order mail must have in its To
    line where the house rules say so; `reply_secrets` the secrets of the players' reply addresses
    (gm+SECRET@...) the message was sent to, which name a game and power as a subject does;
    `trusted_receivers` the receiving servers whose Received header proves a late set's sending
    time (rules/late_proof.py)."""
    if envelope.automated:
        # RFC 3834: automated mail is never answered, or two robots could talk forever.
        return Ignore("automated message (Auto-Submitted, bounce or list mail): not answered")
    if not envelope.sender or "@" not in envelope.sender:
        return Ignore("no usable sender address: nobody to answer")

    heading = body_heading_lines(body)
    readings = {game.id: _read(envelope.subject, game, orders, heading) for game in games}
    if not any(reading.names_game for reading in readings.values()):
        readings.update(_read_with_reply_address(envelope, games, reply_secrets, orders, heading))
    game = _named_game(envelope.sender, games, readings, orders)
    if isinstance(game, Reject):
        return game
    reading = readings[game.id]
    if (press and game.ruleset.press_from_non_players and game.status == "active"
            and not game.powers_of(envelope.sender)):
        # 002 PRESS 2: "Anyone (including non-players) may send press from other sources"; naming
        # the game is all it takes, so the game is as public as the rule makes it (strangers are told
        # nothing about any game for every other kind of mail)
        return Accept(game=game, power=NON_PLAYER, phase=game.phase, subject=reading)
    power = _sender_power(envelope.sender, game, reading, read_only=read_only, after_end=after_end and not orders,
                          orders=orders)
    if isinstance(power, Reject):
        return power
    if not orders:
        return Accept(game=game, power=power, phase=game.phase, subject=reading)
    if (misaddressed := _recipient_refusal(envelope, game, power, gm_address)) is not None:
        return misaddressed
    decision = (_late_with_proof(game, power, reading, received_at, envelope, trusted_receivers)
                or _order_set(game, power, reading, received_at))
    return _by_proxy(decision) if power not in game.powers_of(envelope.sender) else decision


def addressed_by_reply(sender: str, games: Sequence[GameView], reply_secrets: Collection[str]
                       ) -> list[tuple[GameView, str]]:
    """The (game, power) whose reply address (gm+SECRET@..., given out only in the GM's mail to
    that power's player) the message was sent to, among the sender's own powers: such an address
    names its game and power as a subject does."""
    wanted = {secret.lower() for secret in reply_secrets}
    return [(game, power) for game in games for power in game.secrets
            if wanted.intersection(game.reply_tokens(power)) and power in game.powers_of(sender)]


def players_reply_tokens(games: Sequence[GameView]) -> frozenset[str]:
    """The tokens of every power's reply addresses still accepted in `games` (lower case)."""
    return frozenset(token for game in games for power in game.secrets for token in game.reply_tokens(power))


def _read_with_reply_address(envelope: Envelope, games: Sequence[GameView], reply_secrets: Collection[str],
                             orders: bool, heading: tuple[str, ...]) -> dict[int, SubjectReading]:
    """The subject of a message sent to a player's own reply address (gm+SECRET@..., given out
    only in the GM's mail to that player), when the subject names no game: the address stands for
    the game and power. Where the subject may be read with the message's first lines
    (subject_or_body) the address is read the same way; where the house rules ask for them in the
    Subject line (subject_only: 000 II(2) b, 001 II(4)) the game is known but the subject still
    lacks them, and the nonconforming-subject rule decides, with the reason said in words."""
    addressed = addressed_by_reply(envelope.sender, games, reply_secrets)
    if len(addressed) != 1:
        return {}
    game, power = addressed[0]
    if game.ruleset.subject_location == "subject_or_body":
        return {game.id: _read(f"{game.name} {power.title()} {envelope.subject}", game, orders, heading)}
    reading = _read(envelope.subject, game, orders, heading)
    clause = game.ruleset.cites("subject_location")
    because = (f"Your message went to your own reply address for {game.name} ({power.title()}), but the house "
               "rules ask for the game, turn and power in the Subject line itself, whatever the address"
               + (f" (house rules {clause})." if clause else "."))
    return {game.id: replace(reading, names_game=True, power=reading.power or power,
                             problems=(*reading.problems, because))}


def _by_proxy(decision: Decision) -> Decision:
    """Mark a set sent by the power's proxy holder (000 II(3), 003 [19]): stored as the holder's."""
    if isinstance(decision, Accept):
        return replace(decision, by_proxy=True)
    if isinstance(decision, Hold):
        return replace(decision, accept=replace(decision.accept, by_proxy=True))
    return decision


def _a_power(game: GameView, sender: str) -> str | None:
    """One power the sender may order for in `game`, its own first, for a suggested subject."""
    return (game.powers_of(sender) or game.proxied_for(sender) or (None,))[0]


def _named_game(sender: str, games: Sequence[GameView], readings: Mapping[int, SubjectReading],
                orders: bool = True) -> GameView | Reject:
    """The one game the subject names (among the sender's own games if it could name several);
    a proxy holder's games count as theirs for orders."""
    named = [g for g in games if readings[g.id].names_game]
    mine = [g for g in games if g.powers_of(sender) or (orders and g.proxied_for(sender))]

    if len(named) > 1:
        named = [g for g in named if g in mine]
        if not named:
            return _stranger_refusal(sender)  # never list games to a non-player
    if len(named) > 1:
        return Reject((f"The subject could name more than one of your games ({', '.join(g.name for g in named)}).",),
                      expected_subject=_expected(named[0], _a_power(named[0], sender)),
                      subjects=_subjects(named, sender))
    if not named:
        if len(mine) == 1:
            game = mine[0]
            power = _a_power(game, sender)
            return Reject(
                (f"The subject line does not name your game, {game.name}.",),
                expected_subject=_expected(game, power), game=game, power=power,
            )
        if mine:
            return Reject((
                "The subject line names none of your games "
                f"({', '.join(g.name for g in mine)}).",
            ), expected_subject=_expected(mine[0], _a_power(mine[0], sender)), subjects=_subjects(mine, sender))
        return _stranger_refusal(sender)
    return named[0]


def _subjects(games: Sequence[GameView], sender: str) -> tuple[tuple[str, str], ...]:
    """The subject line of the sender's orders in each of `games`, by game name."""
    return tuple(sorted((game.name, _expected(game, _a_power(game, sender))) for game in games))


def _sender_power(sender: str, game: GameView, reading: SubjectReading, *, read_only: bool = False,
                  after_end: bool = False, orders: bool = False) -> str | Reject:
    """The power the sender gives orders for in `game`, or why it has none there. For orders, a
    power whose proxy the sender holds too (000 II(3), 003 [19]); a stranger is still refused."""
    own = game.powers_of(sender)
    powers = tuple(sorted({*own, *(game.proxied_for(sender) if orders else ())}))
    if not powers and not _listed_in(game, sender):
        return _stranger_refusal(sender)  # naming a game proves nothing about it
    if not powers:
        return Reject((
            f"This address ({sender}) is not registered for any power in {game.name}.",
            "Orders are accepted only from a power's registered address"
            + (" or its registered fallback address." if game.ruleset.sender_policy == "registered_with_fallback"
               else "."),
        ), game=game)
    if reading.power and reading.power not in powers:
        return Reject((
            f"The subject names {reading.power.title()}, but {sender} is registered "
            f"for {', '.join(p.title() for p in powers)} in {game.name}.",
        ), expected_subject=_expected(game, powers[0]), game=game, power=powers[0])
    power = reading.power or (own[0] if len(own) == 1 else powers[0] if len(powers) == 1 else None)
    if power is None:
        return Reject(("This address plays several powers here: the subject must name one.",),
                      expected_subject=_expected(game, powers[0]), game=game)
    if game.status != "active" and not read_only and not (after_end and game.status == "finished"):
        return Reject((f"{game.name} is over: the game has ended, so no more orders, press, votes or requests "
                       "that change it are accepted. STATUS and HISTORY are still answered.",),
                      game=game, power=power)
    return power


def _order_set(game: GameView, power: str, reading: SubjectReading, received_at: datetime) -> Decision:
    """An order set's own rules (2.1): the turn its subject names, the subject's form, the deadline."""
    held: tuple[str, str] | None = None  # (the turn the GM may file it for, the option that held it)
    if reading.wrong_turn:
        # 000 II(2) b, 001 II(4), 003 [10]: season and year are part of the required data
        if game.ruleset.season_mismatch_policy == "hold_for_gm":
            held = (reading.phase or game.phase, "season_mismatch_policy")
        else:
            reasons = reading.problems
            if reading.is_reply_to_report:
                reasons += ("It looks like a reply to a results report, whose subject names the turn just played: "
                            "reply to this mail with the subject changed to the one below.",)
            return Reject(reasons, expected_subject=_expected(game, power), game=game, power=power)
    warnings: tuple[str, ...] = ()
    if reading.problems and held is None:
        policy = game.ruleset.nonconforming_subject_policy
        if policy == "accept_with_warning":
            # 002 (silent) and 003 [10] "should": accept, but tell the player what was missing.
            warnings = reading.problems
        elif policy == "hold_for_gm":
            # 001 II(4): the GM "may, but is not required to accept" it: held until the GM decides
            held = (game.phase, "nonconforming_subject_policy")
        else:
            # reject_with_reply (000 II(2) c)
            return Reject(reading.problems, expected_subject=_expected(game, power), game=game, power=power)

    if (game.ruleset.orders_accepted_until == "deadline" and game.deadline is not None
            and received_at > game.deadline):
        # 003 [10]: orders must reach the GM before the deadline.
        return Reject((f"The deadline for {describe_phase(game.phase)} has passed.",), game=game, power=power)
    if held is not None:
        accept = Accept(game=game, power=power, phase=held[0], subject=reading)
        return Hold(accept, reading.problems, held[1], _expected(game, power))
    return Accept(game=game, power=power, phase=game.phase, subject=reading, warnings=warnings)


def _late_with_proof(game: GameView, power: str, reading: SubjectReading, received_at: datetime,
                     envelope: Envelope, trusted_receivers: Collection[str]) -> Hold | None:
    """late_with_proof = gm_discretion (000 VII(1), 001 IV(1)): a late set proven sent in time
    is held for the GM with the evidence (rules/late_proof.py says when)."""
    found = late_set_proven(game.ruleset, envelope.message, wrong_turn=reading.wrong_turn, named=reading.phase,
                            current=(game.phase, game.deadline), previous=game.previous, received_at=received_at,
                            trusted_receivers=trusted_receivers)
    if found is None:
        return None
    phase, reason = found  # no subject to suggest: the turn is over, sending again would not help
    return Hold(Accept(game=game, power=power, phase=phase, subject=reading), (reason,), "late_with_proof", "")


def _recipient_refusal(envelope: Envelope, game: GameView, power: str, gm_address: str | None) -> Reject | None:
    """recipient_header_rule = to_only (000 II(2) a): order mail must be addressed "To" the GM's
    order address, not Cc or Bcc. A reply to the GM's own mail goes to gm+SECRET@...: the same
    mailbox."""
    if game.ruleset.recipient_header_rule != "to_only" or not gm_address:
        return None
    if any(_same_mailbox(address, gm_address) for address in envelope.to):
        return None
    return Reject((
        f"Orders must be sent with the GM's address ({gm_address}) in the To line, not as a copy (Cc or Bcc)"
        f"{_cite(game.ruleset, 'recipient_header_rule')}.",
        "Please reply to this mail with the orders: the reply is addressed To the GM.",
    ), expected_subject=_expected(game, power), game=game, power=power)


def _same_mailbox(address: str, gm_address: str) -> bool:
    """gm+anything@domain is gm@domain (the GM's replies carry a secret after the +)."""
    local, _, domain = address.lower().rpartition("@")
    gm_local, _, gm_domain = gm_address.lower().rpartition("@")
    return domain == gm_domain and local.partition("+")[0] == gm_local.partition("+")[0]


def _cite(ruleset: Ruleset, option: str) -> str:
    clause = ruleset.cites(option)
    return f" (house rules {clause})" if clause else ""


# A line that begins like an order ends the heading: "A Par - Bur", "Fleet ...", "Build ...".
_ORDER_START = re.compile(r"^\W*(?:a|f|army|fleet|build|remove|disband|retreat|waive)\b", re.IGNORECASE)
HEADING_LINES = 2
_HEADING_CHARS = 160


def body_heading(body: str) -> str:
    """The first lines of a message's text that may name the game, power and turn
    (subject_or_body, 003 [10] "should contain ... most convenient ... subject line"): up to two
    non-empty lines before the first one that begins like an order; "" if there are none."""
    return " ".join(body_heading_lines(body))


def body_heading_lines(body: str) -> tuple[str, ...]:
    """body_heading, line by line (each stripped)."""
    lines: list[str] = []
    for line in body.splitlines():
        if not line.strip():
            if lines:
                break
            continue
        if _ORDER_START.match(line) or len(line) > _HEADING_CHARS or len(lines) == HEADING_LINES:
            break
        lines.append(line.strip())
    return tuple(lines)


def heading_lines_read(lines: Sequence[LineReading], subject: SubjectReading,
                       ruleset: Ruleset) -> tuple[LineReading, ...]:
    """The reader's `lines` with those the subject was read with (subject_or_body, 003 [10]) said
    to be the game, power and turn line: the reader, which reads orders only, calls them "Not an
    order." (QA walkthrough)."""
    heading = list(subject.from_body)
    read: list[LineReading] = []
    for line in lines:
        if heading and line.text.strip() == heading[0]:
            heading.pop(0)
            if line.status == "ignored":
                line = replace(line, rule=None, message="Read with the subject as the game, power and turn line"
                                                        f"{_cite(ruleset, 'subject_location')}.")
        read.append(line)
    return tuple(read)


def _stranger_refusal(sender: str) -> Reject:
    """The refusal to someone who plays none of the games the message could be about. It reads
    the same whether the subject named a real game, a made-up one or none, so that
    nobody learns from it which games are run here or who plays them."""
    return Reject((
        f"This address ({sender}) is not registered as a player in any game run here that the subject "
        "could name.",
        "If you are a player, send from the address you registered with the GM, with your game's name in "
        "the subject.",
    ), stranger=True)


def _listed_in(game: GameView, address: str) -> bool:
    """The address is one of the game's players', primary or fallback, even where the ruleset
    does not take orders from a fallback address: that player may hear the game's name."""
    return any(address in (primary, fallback) for primary, fallback in game.players.values())


def names_game(subject: str, game: GameView) -> bool:
    """The subject names `game`, read exactly as `decide` reads it."""
    return _read(subject, game, orders=False).names_game


def subject_reading(subject: str, game: GameView) -> SubjectReading:
    """The subject of an order set read exactly as `decide` reads it."""
    return _read(subject, game)


def expected_subject(game: GameView, power: str | None) -> str:
    """A subject line `decide` accepts for `power`'s orders in `game` now."""
    return _expected(game, power)


def _read(subject: str, game: GameView, orders: bool = True, heading: tuple[str, ...] = ()) -> SubjectReading:
    reading = read_subject(
        subject,
        template=game.ruleset.subject_template,
        game_name=game.name,
        current_phase=game.phase,
        required_fields=frozenset(game.ruleset.subject_required_fields) if orders else frozenset({"game"}),
    )
    if not heading or game.ruleset.subject_location != "subject_or_body" or (reading.names_game
                                                                              and not reading.problems):
        return reading
    # subject_or_body (003 [10]; 002, 004 silent → [P]): what the subject lacks, the first lines
    # of the message may give; the subject's own words are read with them, never replaced
    with_heading = _read(f"{subject} {' '.join(heading)}", game, orders)
    better = (with_heading.names_game, -len(with_heading.problems)) > (reading.names_game, -len(reading.problems))
    return replace(with_heading, from_body=heading) if better else reading


def _expected(game: GameView, power: str | None) -> str:
    return format_subject(template=game.ruleset.subject_template, game_name=game.name, power=power,
                          phase=game.phase, purpose="orders")
