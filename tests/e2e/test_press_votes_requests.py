"""Players exchange white, grey and partial press, ask for the
status, the history and the map, and vote a draw that fails and one that passes, over a real IMAP
inbox (Dovecot) and a real SMTP relay delivering into the players' own IMAP inboxes, on SQLite and
PostgreSQL. Every player's mailbox is then checked against hand-written expectations of what each
must see and what each must not.

One `mhr` game from the standard opening (000: white and grey press, X(1); grey press in an
"Anonymous Press" section, its author never told to the players, X(1)-(2); draws voted by every
power with units or centres, an uncast vote counting against, IX(1); the proposer unnamed and
nobody's vote revealed, IX(4); a passed draw published instead of the turn, IX(4)):
- Spring 1901: England orders with white press, Germany with grey press to every power, France
  with partial press to Italy and Russia; Austria proposes a draw of all survivors, Turkey votes
  No, the others are silent; Austria asks STATUS.
- At the deadline the draw fails (Turkey's No; the silent count against) and the turn is adjudicated;
  Russia asks HISTORY and Italy MAP (a PNG attachment that decodes).
- Fall 1901: England sends orders; every power votes Yes on a draw of all, which passes at the
  deadline: the game ends with it and England's Fall orders are never adjudicated nor shown.
"""

from __future__ import annotations

import dataclasses
import email.message
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from gmserver.config import ImapConfig, SmtpRelayConfig
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base import outbox
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, open_game
from tests.support.mail_game import Run, Table
from tests.support.outgoing import ADJECTIVES, plain
from tests.support.world import services_for

pytestmark = pytest.mark.e2e

GAME = "lepanto"
NAME_WORDS = ("austria", "england", "english", "france", "french", "germany", "german", "italy", "italian",
              "russia", "russian", "turkey", "turkish")

# Spring 1901: the orders of the three powers that write, each with its press
SPRING = {
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n\nPRESS\nEngland wants peace with all.\nEND PRESS",
    "GERMANY": "A BER - KIE\nF KIE - DEN\nA MUN - RUH\n\nGREY PRESS\nBeware of the Kaiser.\nEND PRESS",
    "FRANCE": "A PAR - BUR\nA MAR - SPA\nF BRE - MAO\n\nPRESS TO Italy, Russia\nLet us split Austria.\nEND PRESS",
}
# what no one but the author may read before the adjudication (the orders as mailed)
PRIVATE_SPRING = {"ENGLAND": ("LON - NTH", "EDI - NWG", "LVP - YOR"),
                  "GERMANY": ("BER - KIE", "KIE - DEN", "MUN - RUH"),
                  "FRANCE": ("PAR - BUR", "MAR - SPA", "BRE - MAO")}
# England's Fall 1901 orders: the passed draw ends the game before they are adjudicated, so no one
# else ever reads them (vote_publication = instead_if_passed, 000 IX(4))
FALL_ENGLAND = "F NTH - NWY\nF NWG H\nA YOR H"
ALL = "Austria, England, France, Germany, Italy, Russia and Turkey"
# the notice of a proposal: the proposer unnamed (proposer_anonymous, 000 IX(4)), silence a No (IX(1))
PROPOSAL = (f"Game lepanto: a draw between {ALL} has been proposed. To vote for it, send a message whose first "
            "line is: DRAW Austria England France Germany Italy Russia Turkey To vote against it, add NO at the "
            "end of that line; to abstain, ABSTAIN. If you do not vote, your silence counts as a vote against it; "
            "an abstention is not counted. You may change your vote until the votes are counted: the latest "
            "counts. The votes are counted at this turn's deadline. No player is ever told how another voted.")
# the result as published: no vote, no voter (vote_secrecy = nothing_revealed, 000 IX(4))
SPRING_VOTES = f"VOTES A draw between {ALL} failed. NEXT:"
THE_END = (f"A draw between {ALL} passed. The game has ended by vote: a draw between {ALL}. The game ends where "
           "it stood before the deadline: the Fall 1901 Movement orders were not adjudicated, the result of the "
           "vote being published instead (house rules 000 IX(4)). "
           # no report follows: the last mail carries the game's record (start of 1901, the end)
           "Supply centres, game year by game year: The final map and the centre chart are attached. start end "
           "Austria 3 3 England 3 3 France 3 3 Germany 3 3 Italy 3 3 Russia 4 4 Turkey 3 3")


def html(message: email.message.EmailMessage) -> str:
    part = message.get_body(("html",))
    return "" if part is None else part.get_content()


def expected_subjects(power: str) -> list[str]:
    """Every mail the player gets, in order: the start mail, the confirmation of each set mailed,
    France's partial press to Italy and Russia at once, the two proposals, the answer to each
    vote and request, the Spring report and the end of the game (no Fall report)."""
    adjective = ADJECTIVES[power]
    confirmation = [f"Re: [lepanto] S01: {adjective} Orders [1]"] if power in SPRING else []
    press = ["lepanto S1901M: press"] if power in ("ITALY", "RUSSIA") else []
    spring_answers = {"AUSTRIA": 2, "TURKEY": 1}.get(power, 0)  # Austria's proposal and STATUS; Turkey's No
    fall_orders = ["Re: [lepanto] F01: English Orders [1]"] if power == "ENGLAND" else []
    request = ["Re: lepanto"] if power in ("RUSSIA", "ITALY") else []  # HISTORY, MAP
    return [f"lepanto: you play {power.title()}", *confirmation, *press,
            "[lepanto] S01: proposal",
            *["Re: lepanto"] * spring_answers, f"[lepanto] S01: {adjective} results", *request, *fall_orders,
            "[lepanto] F01: proposal", "Re: lepanto", "lepanto: the game has ended by vote"]


def play(run: Run) -> dict[str, str]:
    """The game as the players mail it; the Message-ID of each request, by power (and Turkey's No)."""
    table, asked = run.table, {}
    run.orders("S1901M", SPRING)
    run.poll()
    table.send(table.players["AUSTRIA"], GAME, "DRAW")  # proposes a draw of all survivors, voting Yes
    run.poll()
    asked["TURKEY's vote"] = table.send(table.players["TURKEY"], GAME, "DRAW NO")
    asked["AUSTRIA"] = table.send(table.players["AUSTRIA"], GAME, "STATUS")
    run.poll()
    assert run.to_deadline() == "F1901M"  # the draw failed: the turn is adjudicated

    asked["RUSSIA"] = table.send(table.players["RUSSIA"], GAME, "HISTORY")
    asked["ITALY"] = table.send(table.players["ITALY"], GAME, "MAP")
    run.poll()
    run.orders("F1901M", {"ENGLAND": FALL_ENGLAND})
    run.poll()
    for power in POWERS:
        table.send(table.players[power], GAME, "DRAW YES")
    run.poll()
    run.to_deadline()  # the draw passes: the game ends, Fall 1901 unadjudicated
    return asked


def check_grey_press(power: str, mails: list[email.message.EmailMessage]) -> None:
    """Grey press never names its author: not in the section that carries it, in plain text or
    HTML, nor in any header of a mail carrying it (000 X(1)-(2); press_author_disclosure is
    gm_after_game: the players are never told). Germany alone hears it was sent anonymously."""
    carriers = [m for m in mails if "Kaiser" in m.as_string()]
    if power == "GERMANY":  # the confirmation says how the press goes, without echoing it
        [confirmation] = [m for m in mails if str(m["Subject"]) == "Re: [lepanto] S01: German Orders [1]"]
        assert "Grey (anonymous) press will be published anonymously with the turn report, to every power." \
            in plain(confirmation)
    [report] = carriers
    assert str(report["Subject"]) == f"[lepanto] S01: {ADJECTIVES[power]} results"
    text = plain(report)
    section = text[text.index("ANONYMOUS PRESS"):text.index("SUPPLY CENTRES")]
    assert section == "ANONYMOUS PRESS Anonymous: Beware of the Kaiser. "
    page = html(report)
    heading = page.index(">Anonymous Press</h2>")
    section = page[heading:page.index("<h2", heading)]
    assert "Beware of the Kaiser." in section and page.count("Kaiser") == 1
    assert not any(word in section.lower() for word in NAME_WORDS), section
    headers = " ".join(f"{k}: {v}" for k, v in report.items()).lower()
    assert power == "GERMANY" or "german" not in headers, headers
    assert "Kaiser" not in text[:text.index("ANONYMOUS PRESS")]  # not under Germany's orders


def check_partial_press(power: str, mails: list[email.message.EmailMessage]) -> None:
    """France's press to Italy and Russia reaches them at once, and no one else, ever; each
    recipient is told who else received it (partial press: a reply goes to them and France)."""
    carriers = [m for m in mails if "split Austria" in m.as_string()]
    if power not in ("ITALY", "RUSSIA"):
        assert carriers == [], power
        return
    [press] = carriers
    other = "Russia" if power == "ITALY" else "Italy"
    assert plain(press) == (f"Press from France in lepanto, Spring 1901 Movement, to you and {other}: Let us split "
                            "Austria. -- Test GM, Game Master. The GM does not check what press says.")


def check_votes(power: str, mails: list[email.message.EmailMessage]) -> None:
    """Nobody's vote is revealed (vote_secrecy = nothing_revealed, proposer_anonymous, 000 IX(4)):
    the proposals as announced name no proposer, the results name no voter, and each voter's
    answer speaks of their own vote alone."""
    texts = [plain(m) for m in mails]
    proposals = [t for m, t in zip(mails, texts, strict=False) if str(m["Subject"]).endswith(": proposal")]
    assert proposals == [f"{PROPOSAL} Test GM, Game Master"] * 2
    spring = texts[[str(m["Subject"]) for m in mails].index(f"[lepanto] S01: {ADJECTIVES[power]} results")]
    assert spring[spring.index("VOTES"):spring.index("NEXT:") + 5] == SPRING_VOTES
    assert texts[-1] == f"lepanto: the game has ended by vote {'=' * 35} {THE_END} Test GM, Game Master"
    answers = [t for t in texts if t.startswith(("Your vote on", "You have proposed"))]
    spring_mine = {"AUSTRIA": [f"You have proposed a draw between {ALL}, and your vote for it is recorded."],
                   "TURKEY": [f"Your vote on a draw between {ALL} is recorded: No."]}.get(power, [])
    fall_mine = [f"You have proposed a draw between {ALL}, and your vote for it is recorded." if power == "AUSTRIA"
                 else f"Your vote on a draw between {ALL} is recorded: Yes."]
    assert [a[:len(e)] for a, e in zip(answers, spring_mine + fall_mine, strict=False)] == spring_mine + fall_mine
    assert len(answers) == len(spring_mine + fall_mine)
    everything = " ".join(m.as_string() for m in mails)
    assert "recorded: No" not in everything or power == "TURKEY"  # Turkey's No reaches Turkey alone
    for page in (html(m) for m in mails):
        assert not re.search(r"voted|against it:|in favour", page), power


def check_private_orders(power: str, mails: list[email.message.EmailMessage]) -> None:
    """No mail shows another power's orders before they are adjudicated: England, France and
    Germany's Spring sets are read by others first in the report; England's Fall set, never
    adjudicated, by no one else at all."""
    subjects = [str(m["Subject"]) for m in mails]
    before = mails[:subjects.index(f"[lepanto] S01: {ADJECTIVES[power]} results")]
    for author, orders in PRIVATE_SPRING.items():
        if author != power:
            for message in before:
                assert not any(order in message.as_string() for order in orders), (power, author, message["Subject"])
    if power != "ENGLAND":
        assert not any("NTH - NWY" in m.as_string() for m in mails), power


def check_requests(power: str, mails: list[email.message.EmailMessage], asked: dict[str, str]) -> None:
    """The answers to STATUS, HISTORY and MAP reach the asker alone, in their thread (a reply to
    their message): status without anyone's orders, the history with every order and result,
    the map as a PNG that decodes."""
    titles = {"AUSTRIA": "The status of lepanto.", "RUSSIA": "The history of lepanto:",
              "ITALY": "The position in lepanto, Fall 1901 Movement: the map is attached."}
    answers = [m for m in mails if plain(m).startswith(tuple(titles.values()))]
    if power not in asked:
        assert answers == [], power
        return
    [answer] = answers
    text = plain(answer)
    assert text.startswith(titles[power]) and str(answer["In-Reply-To"]) == asked[power]
    assert asked[power] in str(answer["References"]) and str(answer["Subject"]) == "Re: lepanto"
    if power == "AUSTRIA":  # before the deadline: who has orders on file, never what they are
        assert "Orders received from: England, France, Germany. Orders awaited from: Austria, Italy, Russia, " \
               "Turkey." in text and "Deadline: Thursday 26 November 2026, 18:00 UTC" in text
    if power == "RUSSIA":
        assert "1 adjudicated phase" in text and "Spring 1901 Movement (S1901M)" in text
        assert "F London -> North Sea (F LON - NTH): moved" in text
        assert "A Moscow holds (A MOS H): no order received" in text
    if power == "ITALY":
        assert "Germany Units (3): F Denmark (DEN), A Kiel (KIE), A Ruhr (RUH)" in text
        [png] = [p for p in answer.walk() if p.get_content_type() == "image/png"]
        assert png.get_filename() == "lepanto-F1901M.png"
        image = Image.open(io.BytesIO(png.get_content()))
        image.load()
        assert image.format == "PNG" and image.width > 300 and image.height > 300
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 24)) > 10  # a drawn map, not a blank


def test_press_requests_and_two_draw_votes_by_mail(database_url, dovecot, smtp_relay, clock) -> None:
    """White, grey and partial press (press_kinds, grey_press_placement,
    white_press_placement, press_author_disclosure: 000 X(1)-(2)); STATUS, HISTORY and MAP by
    mail; a draw that fails and one that passes (vote.draw.uncast, vote_secrecy,
    proposer_anonymous, vote_publication: 000 IX(1), IX(4)); every mailbox checked."""
    table = Table(dovecot)
    clock.now = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)
    services = dataclasses.replace(services_for(database_url, gm_address=table.server),
                                   gm_addresses=(table.gm,), alerts_to=table.gm)
    run = Run(table, services, clock, SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port)),
              ImapConfig(host=dovecot.host, port=dovecot.imap_port, tls="none", user=table.server,
                         password="secret", idle=False, poll_seconds=2), "mhr", GAME)
    run.game_id, _ = open_game(services.sessions, GameSpec(
        name=GAME, ruleset=load_ruleset("mhr"), players=[PlayerSpec(p, table.players[p]) for p in POWERS],
        movement=timedelta(hours=72), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
        reminder=timedelta(0), sender_check="from"), clock(), services=services)
    outbox.deliver_due(services.sessions, run.transport, clock())

    asked = play(run)
    assert run.status() == ("F1901M", None, "finished")
    for power, address in table.players.items():
        mails = table.inbox(address)
        assert [str(m["Subject"]) for m in mails] == expected_subjects(power), power
        check_grey_press(power, mails)
        check_partial_press(power, mails)
        check_votes(power, mails)
        check_private_orders(power, mails)
        check_requests(power, mails, {p: m for p, m in asked.items() if p in POWERS})
    # the answer to a vote is a reply to the voter's message, to the voter alone
    [no] = [m for m in table.inbox(table.players["TURKEY"]) if "recorded: No." in plain(m)]
    assert str(no["In-Reply-To"]) == asked["TURKEY's vote"] and str(no["To"]) == table.players["TURKEY"]
    # the GM hears of each proposal with its proposer (the GM may veto, 000 IX(5)), and once the
    # draw has ended the game, of who wrote the grey press (000 X(2), press_author_disclosure =
    # gm_after_game); no player ever does (their subjects above)
    gm = table.inbox(table.gm)
    assert [str(m["Subject"]) for m in gm] == [
        *(f"gmserver: lepanto: proposal {n}: a draw between {ALL}" for n in (1, 2)), "lepanto: press authors"]
    assert plain(gm[-1]) == ("lepanto is over. Under house rules 000 X(2) the GM may now reveal who wrote the press "
                             "that did not carry its author's name: S1901M grey (anonymous) press: written by "
                             "Germany: \"Beware of the Kaiser.\" -- gmserver")
