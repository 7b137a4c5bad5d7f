"""The read-only web pages (gmserver/web/), served for real by uvicorn over a game played by mail
on each backend: what each page shows and hides, the tokens, the headers, the HTML's validity.
The real-browser tests are tests/e2e/test_web_browser.py."""

from __future__ import annotations

import dataclasses
import re
import statistics
import subprocess
import sys
import time

import html5lib
import pytest
from sqlalchemy import func, select

from gmserver.config import Config, ListenerConfig, WebConfig
from gmserver.daemon import Daemon, DaemonError
from gmserver.db.models import Game, InboundMessage, PageToken, Player
from gmserver.db.session import transaction
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.base.outbox import message_bytes
from gmserver.services.commands.gm_controls import act, change_address, set_setting
from gmserver.services.features import pages
from gmserver.services.features.alerts import queue_alerts
from gmserver.services.features.reminders import queue_reminders
from gmserver.services.turn import turns
from gmserver.web.app import CSP
from gmserver.web.auth import hash_password
from tests.support.dovecot import free_port
from tests.support.intake_rows import deliver, outbox_rows, plain_text
from tests.support.outgoing import parsed_mail
from tests.support.web import get, get_when_up, orders, serving
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

SCRIPT_PRESS = '<script>alert("x")</script><b onmouseover="steal()">Bold</b> & friends'


@pytest.fixture()
def played(database_url, clock):
    """lepanto after Spring 1901 (France moved, England sent press with HTML in it), with France's
    and Germany's Fall 1901 orders on file; France's page link issued."""
    services = services_for(database_url)
    new_game(services, clock())
    orders(services, clock, "FRANCE", "S1901M", "A PAR - BUR\nA MAR - SPA\nF BRE - MAO")
    orders(services, clock, "ENGLAND", "S1901M", f"F LON - NTH\n\nPRESS\n{SCRIPT_PRESS}\nEND PRESS")
    deliver(services, order_mail(player_address("ENGLAND"), "lepanto",
                                 f"GREY PRESS TO France\n{SCRIPT_PRESS} (grey)\nEND PRESS"), clock())
    clock.advance(hours=48)
    [done] = turns.adjudicate_due(services, clock())
    assert done.next_phase == "F1901M"
    orders(services, clock, "FRANCE", "F1901M", "A BUR - BEL\nA SPA H")
    orders(services, clock, "GERMANY", "F1901M", "A MUN - RUH")
    token = pages.issue_page_token(services.sessions, "lepanto", "FRANCE", clock())
    return services, token


def valid_html(text: str) -> None:
    """html5lib in strict mode raises on any parse error (a stray tag, a bad attribute, a bad nesting)."""
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)


def test_public_game_page_shows_the_board_powers_units_and_past_phases_as_valid_html(played) -> None:
    services, _ = played
    with serving(services) as base:
        page = get(f"{base}/games/lepanto")
        assert page.status == 200
        valid_html(page.text)
        assert "lepanto: Fall 1901 Movement (F1901M)" in page.text
        assert "22 units on the board." in page.text
        assert 'href="/games/lepanto/phases/S1901M"' in page.text
        assert 'alt="Map of lepanto in Fall 1901 Movement: 22 units' in page.text
        # no address on a public page, and no orders of the current phase
        assert "@" not in page.text and "Ruhr" not in page.text and "RUH" not in page.text
        image = get(f"{base}/games/lepanto/map.png")
        assert image.status == 200 and image.body.startswith(b"\x89PNG")


def test_the_current_page_is_revalidated_and_an_unchanged_one_answers_304(played) -> None:
    services, _ = played
    with serving(services) as base:
        page = get(f"{base}/games/lepanto")
        assert page.headers["Cache-Control"] == "no-cache"
        assert get(f"{base}/games/lepanto", {"If-None-Match": page.headers["ETag"]}).status == 304


def test_past_phase_shows_orders_and_results_as_the_report_gave_them_and_never_changes_once_followed(
        played, clock) -> None:
    """A past phase never changes; the last one may still be rolled back and adjudicated again
    (000 VIII(1)), so it is cached for an hour only until a later phase is reported."""
    services, _ = played
    with serving(services) as base:
        page = get(f"{base}/games/lepanto/phases/S1901M")
        assert page.status == 200
        valid_html(page.text)
        assert "lepanto: Spring 1901 Movement (S1901M), results" in page.text
        assert "A Paris -&gt; Burgundy" in page.text and "<code>A PAR - BUR</code>" in page.text
        assert page.headers["Cache-Control"] == "public, max-age=3600"
        assert get(f"{base}/games/lepanto/phases/S1901M/map.png").body.startswith(b"\x89PNG")
        assert get(f"{base}/games/lepanto/phases/F1901M").status == 404  # not adjudicated yet
        clock.advance(hours=48)
        turns.adjudicate_due(services, clock())
        assert get(f"{base}/games/lepanto/phases/S1901M").headers["Cache-Control"] == \
            "public, max-age=31536000, immutable"
        later = get(f"{base}/games/lepanto/phases/F1901M")
        assert later.status == 200 and "Chart of each power" in later.text
        assert get(f"{base}/games/lepanto/phases/F1901M/chart.png").body.startswith(b"\x89PNG")


def test_a_players_page_shows_their_own_orders_on_file_and_never_another_powers_before_the_results(
        played) -> None:
    services, token = played
    with serving(services) as base:
        page = get(f"{base}/games/lepanto/p/{token}")
        assert page.status == 200
        valid_html(page.text)
        assert page.headers["Cache-Control"] == "private, no-store"
        assert "Your page as France" in page.text
        assert "<code>A BUR - BEL</code>" in page.text and "<code>A SPA H</code>" in page.text
        # Germany's order on file (A MUN - RUH) is nowhere on France's page
        assert "RUH" not in page.text and "Ruhr" not in page.text
        assert 'alt="Map of Fall 1901 Movement with your 2 orders on file' in page.text
        assert get(f"{base}/games/lepanto/p/{token}/map.png").body.startswith(b"\x89PNG")
        # the past phases stay one click away under the private link
        assert get(f"{base}/games/lepanto/p/{token}/phases/S1901M").status == 200


ESCAPED = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;b onmouseover=&#34;steal()&#34;&gt;Bold&lt;/b&gt; &amp; friends"


def test_player_written_press_with_html_and_script_is_shown_as_text(played) -> None:
    """The white press the report published (the public phase page) and the grey press sent to
    France (France's page, its author never named: 003 [9]) are text, whatever HTML they hold."""
    services, token = played
    with serving(services) as base:
        public = get(f"{base}/games/lepanto/phases/S1901M").text
        own = get(f"{base}/games/lepanto/p/{token}").text
    for text in (public, own):
        assert "<script>alert" not in text and "<b onmouseover" not in text
        assert ESCAPED in text
    assert "from Anonymous to France" in own and "England" not in own.split("Your press")[1].split("<h2>")[0]


def test_a_wrong_or_old_token_answers_404_and_the_rotated_secret_gets_a_new_link(played, clock) -> None:
    """The link is rotated with the player's other secrets: an address change (by the GM here)
    makes the old link answer 404; the link issued after it works."""
    services, token = played
    with serving(services) as base:
        assert get(f"{base}/games/lepanto/p/{token[:-1]}{'A' if token[-1] != 'A' else 'B'}").status == 404
        assert get(f"{base}/games/lepanto/p/x").status == 404
        assert get(f"{base}/games/other/p/{token}").status == 404
        act(services, "lepanto", change_address, "FRANCE", "france.new@players.test", now=clock())
        assert get(f"{base}/games/lepanto/p/{token}").status == 404
        assert get(f"{base}/games/lepanto/p/{token}/map.png").status == 404
        assert get(f"{base}/games/lepanto/p/{token}/phases/S1901M").status == 404
        new = pages.issue_page_token(services.sessions, "lepanto", "FRANCE", clock())
        assert new != token and get(f"{base}/games/lepanto/p/{new}").status == 200


def test_a_wrong_token_takes_as_long_whether_it_shares_a_prefix_with_the_right_one_or_not(played) -> None:
    """hmac.compare_digest over every token of the game: a token right but for its last character
    and a token wrong from its first are answered in the same time (the medians of interleaved
    requests differ by less than the requests' own spread)."""
    services, token = played
    near = token[:-1] + ("A" if token[-1] != "A" else "B")
    far = ("B" if token[0] != "B" else "C") + "x" * (len(token) - 1)
    times: dict[str, list[float]] = {near: [], far: []}
    with serving(services) as base:
        for _ in range(40):
            for candidate in (near, far):
                started = time.perf_counter()
                assert get(f"{base}/games/lepanto/p/{candidate}").status == 404
                times[candidate].append(time.perf_counter() - started)
    spread = max(statistics.pstdev(times[near]), statistics.pstdev(times[far]))
    assert abs(statistics.median(times[near]) - statistics.median(times[far])) < max(spread, 0.002)


def test_the_gm_page_needs_the_gm_password_and_says_who_has_not_ordered(played) -> None:
    services, _ = played
    port = free_port()
    web = WebConfig(listen=f"127.0.0.1:{port}", gm_password_hash=hash_password("sesame", iterations=1000))
    with serving(services, web) as base:
        assert get(f"{base}/gm").status == 401
        assert get(f"{base}/gm").headers["WWW-Authenticate"].startswith("Basic")
        assert get(f"{base}/gm", {"Authorization": "Basic Z206d3Jvbmc="}).status == 401  # gm:wrong
        page = get(f"{base}/gm", {"Authorization": "Basic Z206c2VzYW1l"})  # gm:sesame
        assert page.status == 200
        valid_html(page.text)
        assert 'href="/games/lepanto"' in page.text
        assert "Austria, England, Italy, Russia, Turkey" in page.text  # France and Germany ordered
        assert page.headers["Cache-Control"] == "private, no-store"


def test_the_gm_page_is_refused_when_no_password_is_configured(played) -> None:
    services, _ = played
    with serving(services) as base:
        assert get(f"{base}/gm").status == 403


def test_a_private_game_shows_nothing_without_a_link(played) -> None:
    services, token = played
    port = free_port()
    web = WebConfig(listen=f"127.0.0.1:{port}", public=False, gm_password_hash=hash_password("sesame", iterations=1000))
    with serving(services, web) as base:
        assert get(f"{base}/games/lepanto").status == 404
        assert get(f"{base}/games/lepanto/map.png").status == 404
        assert get(f"{base}/games/lepanto/phases/S1901M").status == 404
        assert get(f"{base}/games/lepanto/p/{token}").status == 200
        assert get(f"{base}/games/lepanto/p/{token}/phases/S1901M").status == 200
        assert get(f"{base}/games/lepanto", {"Authorization": "Basic Z206c2VzYW1l"}).status == 200


def test_a_game_made_private_shows_nothing_without_a_link_while_the_others_stay_public(played, clock) -> None:
    """`game set NAME pages private` (a game's own setting over `[web] public`): 404 for its pages
    without a player's link or the GM's password, and never kept by a shared cache."""
    services, token = played
    new_game(services, clock(), name="armada")
    act(services, "lepanto", set_setting, "pages", "private", now=clock())
    web = WebConfig(listen=f"127.0.0.1:{free_port()}", gm_password_hash=hash_password("sesame", iterations=1000))
    with serving(services, web) as base:
        for path in ("", "/map.png", "/phases/S1901M", "/phases/S1901M/map.png"):
            assert get(f"{base}/games/lepanto{path}").status == 404, path
        assert get(f"{base}/games/lepanto/p/{token}").status == 200
        assert get(f"{base}/games/lepanto/p/{token}/phases/S1901M").status == 200
        seen_by_gm = get(f"{base}/games/lepanto", {"Authorization": "Basic Z206c2VzYW1l"})
        assert seen_by_gm.status == 200 and seen_by_gm.headers["Cache-Control"] == "private, no-store"
        gm_page = get(f"{base}/gm", {"Authorization": "Basic Z206c2VzYW1l"}).text
        valid_html(gm_page)
        assert "(F1901M); private pages</td>" in gm_page and "(S1901M)</td>" in gm_page  # armada: no mark
        assert get(f"{base}/games/armada").status == 200  # the other game follows [web] public


def test_a_public_game_is_shown_where_web_public_is_false(played, clock) -> None:
    services, _ = played
    act(services, "lepanto", set_setting, "pages", "public", now=clock())
    new_game(services, clock(), name="armada")
    with serving(services, WebConfig(listen=f"127.0.0.1:{free_port()}", public=False)) as base:
        page = get(f"{base}/games/lepanto")
        assert page.status == 200 and page.headers["Cache-Control"] == "no-cache"
        assert get(f"{base}/games/lepanto/phases/S1901M").status == 200
        assert get(f"{base}/games/armada").status == 404


def test_an_anonymous_game_s_pages_show_its_powers_and_no_player(database_url, clock) -> None:
    """An anonymous game's pages show powers only: no address, no player's name on any page, the
    player's own page included."""
    services = services_for(database_url)
    new_game(services, clock(), anonymous=True)
    orders(services, clock, "FRANCE", "S1901M", "A PAR - BUR\n\nPRESS TO Italy\nHello.\nEND PRESS")
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    token = pages.issue_page_token(services.sessions, "lepanto", "ITALY", clock())
    with serving(services) as base:
        for path in ("", "/phases/S1901M", f"/p/{token}", f"/p/{token}/phases/S1901M"):
            page = get(f"{base}/games/lepanto{path}")
            assert page.status == 200, path
            assert "@" not in page.text and "players.test" not in page.text, path
        assert "France" in get(f"{base}/games/lepanto").text


def test_every_answer_carries_a_strict_content_security_policy(played) -> None:
    services, token = played
    with serving(services) as base:
        for path in ("/games/lepanto", f"/games/lepanto/p/{token}", "/games/lepanto/phases/S1901M", "/gm",
                     "/nothing", "/games/lepanto/map.png"):
            answer = get(base + path)
            assert answer.headers["Content-Security-Policy"] == CSP, path
            assert answer.headers["Referrer-Policy"] == "no-referrer", path
            assert answer.headers["X-Content-Type-Options"] == "nosniff", path
    assert "'unsafe-inline'" not in CSP and "default-src 'none'" in CSP


@pytest.mark.parametrize("path", [
    "/static/..%2F..%2Fgmserver%2Fconfig.py", "/static/../../pyproject.toml", "/static/%2e%2e/web/base.html.j2",
    "/games/..%2F..%2Fetc/phases/S1901M", "/games/lepanto/phases/..%2Fmap.png", "/games/lepanto/phases/S1901M/..%2F..",
])
def test_no_path_reaches_the_file_system(played, path: str) -> None:
    services, _ = played
    with serving(services) as base:
        assert get(base + path).status == 404


def test_only_get_is_answered(played) -> None:
    services, _ = played
    with serving(services) as base:
        assert get(f"{base}/games/lepanto", method="POST").status == 405


def test_a_client_past_the_rate_limit_is_answered_429(played) -> None:
    services, _ = played
    port = free_port()
    with serving(services, WebConfig(listen=f"127.0.0.1:{port}", requests_per_minute=5)) as base:
        assert [get(f"{base}/games/lepanto").status for _ in range(5)] == [200] * 5
        refused = get(f"{base}/games/lepanto")
        assert refused.status == 429 and refused.headers["Retry-After"] == "60"


def test_the_page_token_is_not_the_reply_secret_and_is_kept_until_the_secret_changes(played, clock) -> None:
    services, token = played
    assert pages.issue_page_token(services.sessions, "lepanto", "FRANCE", clock()) == token
    with transaction(services.sessions) as session:
        secrets = set(session.scalars(select(Player.secret)))
    assert token not in secrets and all(secret not in token for secret in secrets if secret)


def test_gmserver_web_serves_the_pages_without_the_mail_side(played, tmp_path) -> None:
    services, _ = played
    url = services.sessions.kw["bind"].url.render_as_string(hide_password=False)
    port = free_port()
    config = tmp_path / "gmserver.toml"
    config.write_text(f'[database]\nurl = "{url}"\n\n[web]\nlisten = "127.0.0.1:{port}"\n')
    process = subprocess.Popen([sys.executable, "-m", "gmserver", "--config", str(config), "web"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert f"gmserver web pages at http://127.0.0.1:{port}/games/NAME" in process.stdout.readline()
        page = get_when_up(f"http://127.0.0.1:{port}/games/lepanto")
        assert page.status == 200 and "22 units on the board." in page.text
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_gmserver_web_without_a_web_section_says_how_to_turn_it_on(tmp_path) -> None:
    config = tmp_path / "gmserver.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "gm.db"}"\n')
    result = subprocess.run([sys.executable, "-m", "gmserver", "--config", str(config), "web"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert 'the web pages are off: set [web] listen = "127.0.0.1:8080"' in result.stderr


def test_a_game_named_in_another_script_has_its_pages(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), name="Zürich")
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    with serving(services) as base:
        page = get(f"{base}/games/Z%C3%BCrich")
        assert page.status == 200 and 'href="/games/Z%C3%BCrich/phases/S1901M"' in page.text
        assert get(f"{base}/games/Z%C3%BCrich/phases/S1901M").status == 200


BASE_URL = "https://dip.example.org"
LINK = re.compile(r"https://dip\.example\.org/games/lepanto/p/([A-Za-z0-9_-]{43})")


def test_the_start_mail_reminders_and_reports_carry_the_players_own_link_when_base_url_is_set(
        database_url, clock) -> None:
    services = dataclasses.replace(services_for(database_url), web_base_url=BASE_URL)
    game_id = new_game(services, clock())
    with transaction(services.sessions) as session:
        queue_start_mails(session, services, session.get(Game, game_id), clock())
    start = next(row for row in outbox_rows(services, "start") if row.recipient == player_address("FRANCE"))
    [token] = LINK.findall(plain_text(start))
    clock.advance(hours=24)
    assert queue_reminders(services, clock()) == 7
    reminder = next(row for row in outbox_rows(services, "reminder") if row.recipient == player_address("FRANCE"))
    assert LINK.findall(plain_text(reminder)) == [token]  # the same link while the secret stays
    clock.advance(hours=24)
    turns.adjudicate_due(services, clock())
    report = next(row for row in outbox_rows(services, "report") if row.recipient == player_address("FRANCE"))
    text = plain_text(report)
    assert f"On the web: {BASE_URL}/games/lepanto/phases/S1901M" in text and LINK.findall(text) == [token]
    html = parsed_mail(message_bytes(report)).get_body(("html",)).get_content()
    assert f'<a href="{BASE_URL}/games/lepanto/p/{token}">your own page</a>' in html
    germany = next(row for row in outbox_rows(services, "report") if row.recipient == player_address("GERMANY"))
    assert token not in plain_text(germany)  # each player's copy carries their own link only
    with serving(services) as base:
        page = get(f"{base}/games/lepanto/p/{token}")
        assert page.status == 200 and "Your page as France" in page.text


def test_a_private_games_report_links_its_phase_under_the_players_own_link(database_url, clock) -> None:
    """A private game's phase page answers 404 at its public address: the report's link to it is
    under the player's own link, which shows it."""
    services = dataclasses.replace(services_for(database_url), web_base_url=BASE_URL, web_public=False)
    new_game(services, clock())
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    report = next(row for row in outbox_rows(services, "report") if row.recipient == player_address("FRANCE"))
    text = plain_text(report)
    [token] = set(LINK.findall(text))  # the phase's link and the player's own
    assert f"On the web: {BASE_URL}/games/lepanto/p/{token}/phases/S1901M" in text
    with serving(services, WebConfig(listen=f"127.0.0.1:{free_port()}", public=False)) as base:
        assert get(f"{base}/games/lepanto/p/{token}/phases/S1901M").status == 200
        assert get(f"{base}/games/lepanto/phases/S1901M").status == 404


def test_no_mail_carries_a_link_without_base_url(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock())
    with transaction(services.sessions) as session:
        queue_start_mails(session, services, session.get(Game, game_id), clock())
    clock.advance(hours=24)
    queue_reminders(services, clock())
    clock.advance(hours=24)
    turns.adjudicate_due(services, clock())
    for row in outbox_rows(services):
        assert "/games/" not in plain_text(row) and "own page" not in plain_text(row).lower(), row.kind
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count()).select_from(PageToken)) == 0


def test_the_gm_page_lists_parked_mail_and_the_alerts_mailed_to_the_gm(played, clock) -> None:
    services, _ = played
    row = deliver(services, b"\xff\xfe not a mail at all", clock())
    with transaction(services.sessions) as session:
        session.get(InboundMessage, row.id).status = "failed"
    queue_alerts(services, clock(), to="gm@gm.test")
    with transaction(services.sessions) as session:  # a notice about a game: its key holds the game's number
        game = session.scalars(select(Game).where(Game.name == "lepanto")).one()
        notify_gm(session, services, key=f"gm:resigned:{game.id}:FRANCE:x", game_id=game.id, now=clock(),
                  subject="gmserver: lepanto: France's player has resigned", paragraphs=("...",))
    web = WebConfig(listen=f"127.0.0.1:{free_port()}", gm_password_hash=hash_password("sesame", iterations=1000))
    with serving(services, web) as base:
        page = get(f"{base}/gm", {"Authorization": "Basic Z206c2VzYW1l"}).text
    valid_html(page)
    alerts = page[page.index("Latest alerts"):]
    assert "Parked incoming mail: 1" in page and f"message {row.id}" in alerts
    # each alert as the GM was told it, the game by its name, not its number
    assert "lepanto: France&#39;s player has resigned" in alerts and f"game {game.id}" not in alerts


def test_gmserver_run_serves_the_pages_when_web_is_configured_and_says_when_its_port_is_taken(
        played, tmp_path) -> None:
    services, token = played
    url = services.sessions.kw["bind"].url.render_as_string(hide_password=False)
    web = WebConfig(listen=f"127.0.0.1:{free_port()}")
    config = Config(database_url=url, gm_address="gm@gm.test", listener=ListenerConfig(port=free_port()),
                    maildir_path=str(tmp_path / "maildir"), sweep_interval_seconds=60, web=web)
    daemon = Daemon(config, services=services)
    daemon.start()
    try:
        assert get(f"http://{web.listen}/games/lepanto/p/{token}").status == 200
        taken = Daemon(config.with_changes(listener=ListenerConfig(port=free_port())), services=services)
        with pytest.raises(DaemonError, match=r"cannot serve the web pages on 127\.0\.0\.1:\d+: .*\[web\] listen"):
            taken.start()
    finally:
        daemon.stop()
