"""Who the players are, in the words another player may read: in an anonymous (gunboat) game a
player is only ever their power; elsewhere their address is shown where the mail lists players.

Pure: the services pass the game's `anonymous` flag and the players' (power, address) pairs, and
put whatever these functions return into the mail. Every builder that would name a player to
another one goes through here, so that an anonymous game has one place that decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gmserver.reports.words import power_name

# in the start mail's list of players, beside each power instead of its player's address
HIDDEN = "played anonymously"
# in a text written for the GM (a GM action's record), instead of a player's address
NOT_SHOWN = "(address not shown)"


@dataclass(frozen=True)
class Seat:
    """A power and the address of whoever plays or played it."""
    power: str  # "FRANCE"
    address: str


def players_listed(players: Sequence[Seat], reader: str, *, anonymous: bool) -> list[tuple[str, str]]:
    """The other players as `reader`'s start mail lists them: (power's name, what is shown of its
    player), the address, or in an anonymous game HIDDEN for every power."""
    return [(power_name(seat.power), HIDDEN if anonymous else seat.address)
            for seat in players if seat.power != reader.upper()]


def new_player_words(power: str, address: str, *, anonymous: bool) -> str:
    """What the other players are told when the GM puts a new player in for `power`."""
    if anonymous:
        return f"{power_name(power)} has a new player (this game is anonymous: players are not named)."
    return f"{power_name(power)} is now played by {address}."


def holder_words(holder: str, players: Sequence[Seat], *, anonymous: bool) -> str:
    """A proxy's holder as the owner and the holder read it: in an anonymous game, a holder who
    plays a power of the game is that power's player, never their address."""
    if anonymous:
        seat = next((seat for seat in players if seat.address == holder), None)
        if seat is not None:
            return f"{power_name(seat.power)}'s player"
    return holder


def reveal_lines(players: Sequence[Seat], former: Sequence[tuple[Seat, str]]) -> list[str]:
    """The players of an anonymous game as the GM reveals them after its end: one line per power,
    its last player first, then those who played it before (each with the phase they left in,
    written as `describe_phase` gives it)."""
    lines = []
    for seat in sorted(players, key=lambda seat: seat.power):
        before = [f"{old.address} until {left}" for old, left in former if old.power == seat.power]
        lines.append(f"{power_name(seat.power)}: {seat.address}" + (f" (before: {'; '.join(before)})" if before else ""))
    played = {seat.power for seat in players}
    for power in sorted({old.power for old, _ in former} - played):
        before = [f"{old.address} until {left}" for old, left in former if old.power == power]
        lines.append(f"{power_name(power)}: no player at the end (before: {'; '.join(before)})")
    return lines


def without_addresses(text: str, addresses: Iterable[str]) -> str:
    """`text` (written for the GM, e.g. a GM action's record: "TURKEY is now played by ...") as a
    player of an anonymous game may read it: each of `addresses`, in any case, replaced by NOT_SHOWN."""
    words = sorted({address.lower() for address in addresses if address}, key=len, reverse=True)
    if not words:
        return text
    return re.sub("|".join(re.escape(word) for word in words), NOT_SHOWN, text, flags=re.IGNORECASE)
