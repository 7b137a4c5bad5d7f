"""The words of the answers to players' commands (gmserver/commands/players/) that every command
shares: HELP's list of commands, a command the game's profile does not permit, a command line
that does not fit its command.

Pure: the handler (services/inbox/handlers/players.py) and the commands pass plain values; each
`build_*` returns a gmserver.reports.requests `Answer` (templates/player/request_answer.txt.j2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from gmserver.reports.requests import Answer, Section

# how a player sends any command: the same in HELP, the start mail and every refusal
HOW_TO_REPLY = ("Reply to this mail (or to any mail of this game's GM) and write the command as the first "
                "line of your message; nothing else is needed. One command per message.")


@dataclass(frozen=True)
class CommandLine:
    """One player command as HELP lists it."""

    example: str  # as a player writes it ("set zone Europe/Berlin")
    summary: str  # what it does


def command_lines(commands: Sequence[CommandLine]) -> tuple[str, ...]:
    """Two lines per command: its example as a player writes it, then (indented) what it does."""
    return tuple(line for command in commands for line in (command.example, f"  {command.summary}"))


def build_help(*, game_name: str, power: str, subject: str, commands: Sequence[CommandLine]) -> Answer:
    """HELP: the commands this player may use in this game, each with an example line, the subject
    line for orders, and how to send a command."""
    return Answer(f"The commands you may use in {game_name} as {power.title()}.", (
        Section("Commands", command_lines(commands)),
        Section("How to send one", (HOW_TO_REPLY,)),
        Section("Your subject line for orders this turn", (subject,)),
    ))


def build_not_permitted(*, game_name: str, word: str, why: str, commands: Sequence[CommandLine]) -> Answer:
    """A command the game's profile does not permit: why (with the clause), and what is permitted."""
    return Answer(f"{word.upper()} is not open to players in {game_name}: {why} Nothing was changed.",
                  (Section("The commands you may use", command_lines(commands)),))


def build_usage_error(*, word: str, problem: str, usage: str, example: str) -> Answer:
    """A command line that does not fit its command: what was wrong and what would be read."""
    lines = [f"Write it as: {usage}"]
    if example != usage:
        lines.append(f"For example: {example}")
    lines.append(HOW_TO_REPLY)
    return Answer(f"Your {word.upper()} line was not understood: {problem} Nothing was changed.",
                  (Section("What is read", tuple(lines)),))


def build_setting_changed(*, said: str, deadline: str | None = None) -> Answer:
    """A SET command carried out: what now holds (and the deadline as the player will now read it)."""
    sections = (Section("The deadline", (deadline,)),) if deadline else ()
    return Answer(said, sections)


@dataclass(frozen=True)
class RosterRow:
    """One power as LIST shows it: never what its orders are, only whether a set is on file."""

    power: str
    player: str | None  # who plays it (the primary address), None where the game hides it or nobody does
    centres: tuple[str, ...]  # as placed in words ("Paris (PAR)")
    units: tuple[str, ...]  # "Army Paris (PAR)"
    must_order: bool  # the power owes orders this turn
    ordered: bool  # a set that counts is on file this turn
    missed_turns: int
    civil_disorder: bool
    resigned: bool = False  # its player resigned and nobody has taken it over yet
    # where absences will be shown (a player's registered absences, "20 to 28 December")
    absences: tuple[str, ...] = ()


def build_roster(*, game_name: str, phase_name: str, deadline: str | None, paused: bool, rows: Sequence[RosterRow],
                 players_shown: bool, asker: str) -> Answer:
    """LIST: every power, who plays it where the game shows players, its centres and units,
    whether a set is on file this turn (never what it says), missed turns and civil disorder,
    and the next deadline in the reader's zone."""
    turn = [f"Turn: {phase_name}", f"Deadline: {deadline or 'none set'}"]
    if paused:
        turn.append("The game is paused by the GM: the deadline does not run.")
    if not players_shown:
        turn.append("Who plays the other powers is not shown in this game.")
    sections = [Section("The game", tuple(turn))]
    for row in rows:
        lines = []
        if players_shown or row.power == asker:
            lines.append(f"Played by: {row.player or 'nobody at present'}" + (" (you)" if row.power == asker else ""))
        lines.append(f"Centres ({len(row.centres)}): {', '.join(row.centres) or 'none'}")
        lines.append(f"Units ({len(row.units)}): {', '.join(row.units) or 'none'}")
        if row.must_order:
            lines.append("Orders this turn: " + ("a set is on file" if row.ordered else "none yet"))
        lines.append(f"Turns missed: {row.missed_turns}")
        if row.resigned:
            lines.append("Its player resigned; the power is in civil disorder until a new player takes it over.")
        elif row.civil_disorder:
            lines.append("In civil disorder: its units hold.")
        lines.extend(f"Absent: {absence}" for absence in row.absences)
        sections.append(Section(row.power.title(), tuple(lines)))
    return Answer(f"The powers of {game_name}.", tuple(sections))


@dataclass(frozen=True)
class Decided:
    """A proposal that was put to the vote, as the players were told its result (never a ballot)."""

    phase_name: str
    what: str  # "a draw of Austria, England", "a concession to France", "a rule change: ..."
    result: str  # the announcement's words, or passed/failed


@dataclass(frozen=True)
class Change:
    """A change of player: the power, when, and who left and came where the game shows them."""

    power: str
    phase_name: str
    left: str | None  # the address of the player who left (None where players are not shown)
    came: str | None  # who plays it now, if this was the last change; None where not shown or nobody


def centre_table(years: Sequence[str], series: dict[str, tuple[int, ...]]) -> tuple[str, ...]:
    """The centre counts as a table: a column per year, a row per power."""
    header = "".ljust(9) + "".join(year.rjust(6) for year in years)
    rows = [power.title().ljust(9) + "".join(str(count).rjust(6) for count in counts)
            for power, counts in sorted(series.items())]
    return (header, *rows)


def eliminations(years: Sequence[str], series: dict[str, tuple[int, ...]]) -> tuple[str, ...]:
    """The powers left without a centre, and the year whose end left them so."""
    said = []
    for power, counts in sorted(series.items()):
        for index, count in enumerate(counts):
            if count == 0 and any(earlier > 0 for earlier in counts[:index]):
                said.append(f"{power.title()}: no centre left after {years[index]}.")
                break
    return tuple(said)


def build_summary(*, game_name: str, status: str, phase_name: str, years: Sequence[str],
                  series: dict[str, tuple[int, ...]], changes: Sequence[Change], votes: Sequence[Decided],
                  actions: Sequence[str], has_chart: bool) -> Answer:
    """SUMMARY: the whole game in one mail: each year's centre counts, eliminations,
    replacements, the centre chart (attached), votes and their results, and the GM's actions the
    players were told of."""
    state = "has ended" if status == "finished" else f"is in {phase_name}"
    sections = [Section("Supply centres at the end of each year", centre_table(years, series))]
    if gone := eliminations(years, series):
        sections.append(Section("Eliminated", gone))
    if changes:
        sections.append(Section("Changes of player", tuple(
            f"{change.power.title()}, {change.phase_name}: "
            + (f"{change.left} left" if change.left else "its player left")
            + (f"; {change.came} plays it now" if change.came else "") + "." for change in changes)))
    sections.append(Section("Votes", tuple(f"{vote.phase_name}: {vote.what}: {vote.result}" for vote in votes)
                            or ("None yet.",)))
    sections.append(Section("What the GM did and told the players", tuple(actions) or ("Nothing yet.",)))
    chart = " The centre chart is attached." if has_chart else ""
    return Answer(f"The summary of {game_name}, which {state}.{chart}", tuple(sections))


def absence_days(first: date, last: date) -> str:
    """An absence in words: "Sunday 20 December to Monday 28 December 2026", or one day."""
    if first == last:
        return f"{first:%A %d %B %Y}"
    return f"{first:%A %d %B}" + (f" {first:%Y}" if first.year != last.year else "") + f" to {last:%A %d %B %Y}"


def build_absence(*, game_name: str, registered: tuple[str, ...], effect: str, deadline: str | None,
                  moved_from: str | None, cancelled: int | None = None) -> Answer:
    """ABSENCE: what was registered (or cancelled), what it does under this game's rules, the
    next deadline, and how to change or cancel it."""
    if cancelled is not None:
        title = (f"Your absence is cancelled in {game_name} ({cancelled} withdrawn)." if cancelled else
                 f"You had no absence to come registered in {game_name}; nothing was changed.")
    else:
        title = f"Your absence is registered in {game_name}."
    sections = [Section("Registered absences", registered or ("none",)), Section("What an absence does", (effect,))]
    when = [deadline or "none set"]
    if moved_from:
        when.append(f"(moved from {moved_from}, because of an absence)")
    sections.append(Section("The next deadline", tuple(when)))
    sections.append(Section("To change or cancel it", (
        "Reply to this mail with a new line, e.g. absence 2026-12-20 to 2026-12-28 (holiday): it replaces the "
        "absence whose days it overlaps. To withdraw your absences, reply with: absence cancel",)))
    return Answer(title, tuple(sections))


@dataclass(frozen=True)
class WhatIfLine:
    """One line of a WHATIF mail that was not used as written, and why (as a confirmation says it)."""

    text: str
    message: str


def build_whatif(*, game_name: str, phase_name: str, results: Sequence[tuple[str, Sequence[str]]],
                 imagined: Sequence[str], dislodged: Sequence[str], centres: Sequence[str],
                 unused: Sequence[WhatIfLine], has_map: bool, per_hour: int) -> Answer:
    """WHATIF: the results as if the phase were adjudicated now with the orders the player imagined
    (`results`: per power name, its orders' results in the report's words; `imagined`: the powers
    the player wrote orders for), what would be dislodged, the centres that would change hands, the
    lines not used; nothing was stored and nobody else told."""
    held = "every other unit holding" if imagined else "every unit holding"
    sections = [Section(name if name in imagined else f"{name} (no order imagined: the house rules' default)",
                        tuple(lines)) for name, lines in results]
    sections.append(Section("Dislodged", tuple(dislodged) or ("No unit would be dislodged.",)))
    sections.append(Section("Supply centres that would change hands",
                            tuple(centres) or ("None would change hands after this turn.",)))
    if unused:
        sections.append(Section("Lines not used as written",
                                tuple(f'"{line.text}": {line.message}' for line in unused)))
    sections.append(Section("To try other orders", (
        "Reply to this mail with whatif as the first line and the orders below it, any power's, one a line "
        f"(at most {per_hour} an hour). Your orders on file are unchanged: to change them, reply to your "
        "confirmation or to the game's last mail with your orders.",)))
    return Answer(f"What if {game_name} were adjudicated now ({phase_name}), with the orders you wrote and {held}"
                  + (": the results and the map (attached)." if has_map else ": the results.")
                  + " Nothing was stored, and nobody else was told.", tuple(sections))


def build_whatif_limited(*, per_hour: int, again: str) -> Answer:
    """WHATIF refused: the player had `per_hour` answers in the last hour; `again`: when they may."""
    return Answer(f"You have had {per_hour} what-if answers in the last hour, as many as an hour allows: nothing "
                  f"was adjudicated. Reply to this mail with whatif and your orders again after {again}.")
