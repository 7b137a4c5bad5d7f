"""Building blocks for service-level tests: services on a real database, order mails, games."""

from __future__ import annotations

from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from sqlalchemy import select, update

from gmserver import engine
from gmserver.commands.registry import PLAYER_COMMANDS
from gmserver.db.models import Game, Player
from gmserver.db.session import make_engine, make_session_factory, transaction
from gmserver.mail.compose import Composer
from gmserver.mail.dkim import offline_lookup
from gmserver.paths import TEMPLATES_DIR
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.context import SenderChecks, Services
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, create_game

GM = "gm@gm.test"
# Spring 1901 order mails for every power, as players write them (abbreviations, arrows, a coast):
# the benchmarks' traffic
OPENINGS = {
    "AUSTRIA": "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
    "ENGLAND": "F Lon -> NTH\nF Edi-NWG\nA Lvp-Yor",
    "FRANCE": "A Par-Bur\nA Mar-Spa\nF Bre-MAO",
    "GERMANY": "A Mun-Ruh\nA Ber-Kie\nF Kie-Den",
    "ITALY": "A Ven H\nA Rom-Apu\nF Nap-ION",
    "RUSSIA": "A War-Gal\nA Mos-Ukr\nF Sev-Bla\nF StP/SC-Bot",
    "TURKEY": "F Ank-Bla\nA Con-Bul\nA Smy-Arm",
}


def services_for(database_url: str, gm_address: str = GM, sender_checks: SenderChecks | None = None) -> Services:
    """Tests never reach the DNS: DKIM keys are looked up with `offline_lookup` (none found)
    unless `sender_checks` gives a lookup that answers."""
    sessions = make_session_factory(make_engine(database_url))
    return Services(sessions=sessions, composer=Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address=gm_address),
                    geography=engine.map_info(), sender_checks=sender_checks or SenderChecks(dkim_lookup=offline_lookup),
                    player_commands=PLAYER_COMMANDS)


def player_address(power: str) -> str:
    return f"{power.lower()}@players.test"


def new_game(services: Services, now: datetime, *, name: str = "lepanto", ruleset: str = "standard",
             movement_hours: float = 48, reminder_hours: float = 24, position=None,
             sender_check: str = "from", enforce_minimums: bool = False, timezone: str = "UTC",
             anonymous: bool = False) -> int:
    """A game of seven players at player_address(POWER). `sender_check` is "from" (the From
    address alone) unless a test is about verifying senders. The turn
    lengths are the test's, whatever the profile's minimums (tests about the minimums pass
    `enforce_minimums=True`)."""
    with transaction(services.sessions) as session:
        game = create_game(session, GameSpec(
            name=name, ruleset=load_ruleset(ruleset),
            players=[PlayerSpec(p, player_address(p), f"{p.lower()}.backup@players.test") for p in POWERS],
            movement=timedelta(hours=movement_hours), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
            reminder=timedelta(hours=reminder_hours), position=position, sender_check=sender_check,
            enforce_minimums=enforce_minimums, timezone=timezone, anonymous=anonymous,
        ), now)
        return game.id


def order_mail(sender: str, subject: str, body: str, *, message_id: str | None = None,
               date: datetime | None = None, headers: dict[str, str] | None = None, to: str = GM) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id or make_msgid(domain="players.test")
    if date is not None:
        message["Date"] = format_datetime(date)
    for key, value in (headers or {}).items():
        message[key] = value
    message.set_content(body)
    return message.as_bytes()


def set_options(services: Services, game_id: int, **values) -> None:
    """Change options in the game's ruleset snapshot, as a GM override would."""
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        session.execute(update(Game).where(Game.id == game_id).values(ruleset={**game.ruleset, **values}))


def password_of(services: Services, power: str, game: str = "lepanto") -> str:
    """The power's password (its 'Password:' line), as `game show` prints it."""
    with transaction(services.sessions) as session:
        return session.scalar(select(Player.secret).join(Game).where(Game.name == game, Player.power == power))

