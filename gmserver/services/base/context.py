"""What every use case needs, passed in (one place, the daemon or the CLI, builds it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session, sessionmaker

from gmserver.mail.compose import Composer
from gmserver.mail.dkim import KeyLookups, TxtLookup
from gmserver.rules.geography import MapInfo

if TYPE_CHECKING:
    from gmserver.commands.player_command import PlayerCommand


@dataclass(frozen=True)
class SenderChecks:
    """What a "verified" game's sender check trusts (gmserver.rules.authenticity)."""

    # authserv-ids whose Authentication-Results header is believed (config [inbound]); none: never
    trusted_authserv_ids: tuple[str, ...] = ()
    # host names of the receiving servers whose topmost Received header proves when a late set
    # reached the GM's side (config [inbound] trusted_receivers; rules.late_proof)
    trusted_receivers: tuple[str, ...] = ()
    # DKIM key lookup (name -> TXT record); None: the DNS. Tests pass their own: no network there.
    dkim_lookup: TxtLookup | None = None
    # the look-ups through dkim_lookup, with their budget and memories (made from it)
    dkim: KeyLookups = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dkim", KeyLookups(self.dkim_lookup))


@dataclass(frozen=True)
class Services:
    sessions: sessionmaker[Session]
    composer: Composer
    geography: MapInfo
    sender_checks: SenderChecks = field(default_factory=SenderChecks)
    # the GM's own addresses besides the composer's (config `[gm] command_addresses`): mail from
    # any of them is a GM command (gmserver.rules.mailkind), never orders
    gm_addresses: tuple[str, ...] = ()
    # where notices for the GM go (config `[gm] alert_address`); "": the GM's own address
    alerts_to: str = ""
    # the web pages' public address (config `[web] base_url`): reports, reminders and start mails
    # carry their page links; "": no link in any mail
    web_base_url: str = ""
    # the players' commands (gmserver.commands.registry.PLAYER_COMMANDS), which the start mail lists:
    # passed in by whoever builds the services, since the registry's commands run services of
    # every floor and no floor may import it
    player_commands: tuple[PlayerCommand, ...] = ()
