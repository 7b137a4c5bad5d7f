"""The multipart turn report of text with `::` header lines, HTML with the same orders
and results, the map PNG inline, the centre chart, the deadline as iCalendar.

tests/data/reports/midgame.txt and midgame.png are REGRESSION SNAPSHOTS of the mid-game turn in
tests/support/midgame.py, not hand-made truths: the hand-checked facts are the assertions below.
Regenerate them on purpose with GMSERVER_UPDATE_GOLDEN=1 and read the diff."""

from __future__ import annotations

import io
import os
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import icalendar
import pytest
from PIL import Image, ImageChops, ImageStat

from gmserver import centrechart, engine, mapboard, mapimage
from gmserver.mail.compose import Composer, add_html
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.extras import centre_history, deadline_calendar, machine_header
from gmserver.reports.turn import build_turn_report
from tests.support.midgame import midgame

DATA = Path(__file__).resolve().parents[1] / "data" / "reports"
DEADLINE = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)
UPDATE = os.environ.get("GMSERVER_UPDATE_GOLDEN") == "1"


@pytest.fixture(scope="module")
def outcome():
    return midgame()


@pytest.fixture(scope="module")
def composer():
    return Composer(TEMPLATES_DIR, gm_name="Garry Lord", gm_address="gm@lepanto.example")


@pytest.fixture(scope="module")
def report(outcome):
    return build_turn_report(outcome, geography=engine.map_info(), game_name="lepanto",
                                     next_deadline=DEADLINE)


@pytest.fixture(scope="module")
def text(report, composer):
    return machine_header("lepanto", report.phase, report.next_phase, DEADLINE) + "\n" + composer.render(
        report.template, report)


@pytest.fixture(scope="module")
def html(report, composer):
    return composer.render("player/report.html.j2", {
        "reports": [report], "map_cid": "map@lepanto.example", "chart_cid": None, "calendar": True,
        "colours": {"FRANCE": "#4169e1"},
        "history": centre_history([("S1901M", {"FRANCE": 3}), ("S1902M", {"FRANCE": 5})])})


class Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self.images: list[str] = []

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "img":
            self.images.append(dict(attrs)["src"])


def flat(text: str) -> str:
    return " ".join(text.split())


def test_text_part_starts_with_njudge_style_header_lines(text):
    assert text.splitlines()[:3] == [
        ":: Game: lepanto", ":: Phase: F1902M", ":: Deadline: F1902R Sat Nov 28 2026 18:00 UTC"]


def test_text_part_matches_its_regression_snapshot(text):
    golden = DATA / "midgame.txt"
    if UPDATE:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_html_part_parses_and_has_the_orders_and_results_of_the_text_part(report, html, text):
    parser = Text()
    parser.feed(html)
    parser.close()
    words = flat(" ".join(parser.chunks))
    for power in report.orders:
        for line in power.orders:
            # the same order, in words and in engine notation, and the same result as the text part
            assert line.text in words and line.order in words and line.result in words
            assert line.order in flat(text) and line.result in flat(text)
    assert "A Burgundy (BUR) may retreat to" in words  # France's dislodged army, as in the text
    assert parser.images == ["cid:map@lepanto.example"]


def test_html_escapes_what_it_prints(composer, report):
    import dataclasses
    hostile = dataclasses.replace(report, game_name="<script>x</script>")
    out = composer.render("player/report.html.j2", {"reports": [hostile], "map_cid": None, "chart_cid": None,
                                                   "history": ((), {}), "calendar": False, "colours": {}})
    assert "<script>" not in out and "&lt;script&gt;" in out


def test_map_png_decodes_has_the_boards_size_and_is_not_blank(outcome):
    image = Image.open(io.BytesIO(mapimage.map_png(outcome)))
    assert image.format == "PNG" and image.size == (918, 680)
    assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or ()) > 20  # a board, not one flat colour


def test_the_mailed_png_shows_the_unit_where_it_stands(outcome):
    """The bytes the report carries (128 colours): France's army in Belgium is royalblue there, near enough."""
    image = Image.open(io.BytesIO(mapimage.map_png(outcome))).convert("RGB")
    x, y = mapboard.board().units["BEL"]
    pixel = image.getpixel((int(x) + 6, int(y)))
    assert sum(abs(a - b) for a, b in zip(pixel, (65, 105, 225), strict=False)) < 40, pixel


def test_map_draws_each_unit_where_it_stands_in_its_powers_colour(outcome):
    image = mapimage.render_map(outcome)
    # by hand: France's army moved Picardy -> Belgium; the engine's colours are France royalblue
    # (65, 105, 225) and Italy forestgreen (34, 139, 34); Italy's fleet moved Ionian -> Greece
    # an army is a disc in its power's colour with a white centre: sample the disc 6 px right of it
    points = {unit: at for _, unit, at in mapimage.unit_points(outcome.after)}
    x, y = points["A BEL"]
    assert image.getpixel((int(x) + 6, int(y))) == (65, 105, 225)
    x, y = points["A RUH"] if "A RUH" in points else points["A BUR"]
    assert image.getpixel((int(x) + 6, int(y))) == (160, 138, 117)  # Germany's #a08a75
    x, y = mapboard.board().units["GRE"]
    assert image.getpixel((int(x), int(y) + 2)) == (34, 139, 34)
    # Moscow is empty after the turn: no power's colour where a unit would stand
    x, y = mapboard.board().units["MOS"]
    assert image.getpixel((int(x), int(y))) not in set(mapboard.board().colours.values())


def test_map_matches_its_regression_snapshot(outcome):
    image = mapimage.render_map(outcome)
    golden = DATA / "midgame.png"
    if UPDATE:
        golden.write_bytes(mapboard.png_bytes(image))
    expected = Image.open(golden).convert("RGB")
    assert expected.size == image.size
    # a snapshot, not a pixel-exact truth: antialiasing may differ by a shade between cairo
    # versions, but no more than a few hundred pixels may change clearly (one unit is about 300)
    difference = ImageChops.difference(expected, image).convert("L").point([0] * 48 + [255] * 208)
    assert ImageStat.Stat(difference).sum[0] / 255 < 200


def test_centre_chart_is_a_small_png():
    phases, series = centre_history([("S1901M", {"FRANCE": 3, "ITALY": 3}), ("S1902M", {"FRANCE": 5})])
    assert phases == ("start", "1901") and series == {"FRANCE": (3, 5), "ITALY": (3, 0)}
    image = Image.open(io.BytesIO(centrechart.centre_chart(phases, series)))
    assert image.size == (460, 220)


def test_deadline_calendar_is_one_event_at_the_deadline():
    data = deadline_calendar(game_name="lepanto", phase="F1902R", phase_name="Fall 1902 Retreats",
                             deadline=DEADLINE, now=NOW, domain="lepanto.example", subject_hint="x")
    event, = icalendar.Calendar.from_ical(data).walk("VEVENT")
    assert event.decoded("dtstart") == DEADLINE
    assert str(event["uid"]) == "lepanto-F1902R@lepanto.example"


def test_report_mail_is_text_html_with_inline_map_and_ics_and_readdress_keeps_the_parts(composer, text, html):
    message = composer.compose(to="fr@example.org", subject="lepanto F1902M", body=text,
                               auto_submitted="auto-generated", date=NOW)
    add_html(message, html, images=[("map@lepanto.example", b"\x89PNG fake")],
             attachments=[("deadline.ics", "text/calendar", b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")])
    other = composer.readdress(message, to="it@example.org", subject="lepanto F1902M (Italy)")
    for mail in (message, other):
        parsed = __import__("email").message_from_bytes(mail.as_bytes(), policy=__import__("email.policy").policy.default)
        assert parsed.get_content_type() == "multipart/mixed"
        types = [part.get_content_type() for part in parsed.walk()]
        assert types == ["multipart/mixed", "multipart/alternative", "text/plain", "multipart/related",
                         "text/html", "image/png", "text/calendar"]
        assert parsed.get_body(("plain",)).get_content().startswith(":: Game: lepanto")
        image = next(p for p in parsed.walk() if p.get_content_type() == "image/png")
        assert image["Content-ID"] == "<map@lepanto.example>"
    assert other["To"] == "it@example.org" and other["Message-ID"] != message["Message-ID"]


def test_press_and_vote_results_appear_in_both_parts(report, composer):
    """Press (000 X(1): white press under its author's orders, grey press in an "Anonymous Press"
    section) and vote results with the report: the HTML says what the text says."""
    import dataclasses

    from gmserver.rules.press import ReportPress
    context = dataclasses.replace(report, press=(
        ReportPress("orders", "FRANCE", "From France", "Peace in the west <3"),
        ReportPress("anonymous", None, "Anonymous", "Beware the Turk."),
    ), votes=("The proposal of a draw among all survivors failed.",))
    text = flat(composer.render(context.template, context))
    html = composer.render("player/report.html.j2", {"reports": [context], "map_cid": None, "chart_cid": None,
                                                    "history": ((), {}), "calendar": False, "colours": {}})
    parser = Text()
    parser.feed(html)
    words = flat(" ".join(parser.chunks))
    for shown in ("From France", "Peace in the west <3", "Anonymous", "Beware the Turk.",
                  "The proposal of a draw among all survivors failed."):
        assert shown in text and shown in words
    assert "&lt;3" in html  # escaped in the HTML, never markup
    # under France's orders, before the next power's
    assert words.index("Peace in the west") < words.index("Germany")


def test_the_centre_table_keys_each_power_to_its_chart_colour(html):
    assert "background:#4169e1" in html  # France's row, royalblue as on the map and the chart
    assert mapboard.power_colours()["FRANCE"] == "#4169e1"


def test_a_reply_quoting_the_html_report_reads_only_the_new_lines(html):
    """The HTML part carries gmserver's marker lines too, so a client that quotes the
    report without a blockquote or a reply header still has only the new lines read."""
    from email.message import EmailMessage

    from gmserver.rules.reading.message import extract_order_text
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = "france@example.org", "gm@lepanto.example", "RE: lepanto"
    body = html.split("<body", 1)[1].split(">", 1)[1].rsplit("</body>", 1)[0]
    reply.set_content(f"<html><body><div>A Par - Bur</div><div>{body}</div><div>F Bre - Mao</div></body></html>",
                      subtype="html")
    assert extract_order_text(bytes(reply)) == "A Par - Bur\nF Bre - Mao"
