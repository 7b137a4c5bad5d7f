"""Subject lines (000 II(2) b, 001 II(4), 001 II(7) ¶1 version markers, 003 [5] two-season turns,
003 [10]): each case names the clause it checks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmserver.rules.subject import (
    FIELDS,
    TEMPLATES,
    SubjectReading,
    format_subject,
    read_subject,
)

# The profiles' `subject_required_fields` (2.1) and a game name in each template's style.
REQUIRED = {
    "mhr": frozenset({"game", "year", "season", "power", "version"}),  # 000 II(2) b
    "danivon": frozenset({"game", "year", "season", "phase", "power"}),  # 001 II(4)
    "email_rules": frozenset({"game"}),  # 002 silent [P]
    "scorpion": frozenset({"game", "power", "season", "year"}),  # 003 [10]
    "standard": frozenset({"game", "year", "season", "power"}),  # default, gwm
}
GAME = {
    "mhr": "Dc179 [BlackMarch]",
    "danivon": "Redscape12",
    "email_rules": "Lepanto",
    "scorpion": "Dark Side",
    "standard": "lepanto",
}
PHASES = ("S1901M", "S1901R", "F1901M", "F1901R", "W1901A")


def read(template: str, subject: str, current: str = "S1901M",
         required: frozenset[str] | None = None, game: str | None = None) -> SubjectReading:
    return read_subject(subject, template=template, game_name=GAME[template] if game is None else game,
                        current_phase=current,
                        required_fields=REQUIRED[template] if required is None else required)


# --- what a conforming subject names ---------------------------------------------------------

# (template, subject, current phase, power, phase, version, id)
CONFORMING = [
    ("mhr", "Dc179 [BlackMarch] S01: English Orders [1]", "S1901M", "ENGLAND", "S1901M", (1,),
     "000 II(2) the document's own example"),
    ("danivon", "Redscape12; 1901, Spring, Movement; France", "S1901M", "FRANCE", "S1901M", None,
     "001 II(4) 2.14's constructed example"),
    ("email_rules", "Lepanto orders #2", "S1901M", None, None, (2,),
     "002 ORDERS 2 2.14's constructed example: power and turn omitted"),
    ("scorpion", "DARK SIDE - RUSSIA - s1901", "S1901M", "RUSSIA", "S1901M", None,
     "003 [10] the document's own example"),
    ("standard", "lepanto France S1901M", "S1901M", "FRANCE", "S1901M", None,
     "2.14 default 2.14's constructed example"),
    # mhr accepted variants
    ("mhr", "English Orders [1] S01 Dc179 [BlackMarch]", "S1901M", "ENGLAND", "S1901M", (1,),
     "000 II(2) b all five items in any order"),
    ("mhr", "Dc179 S01: English Orders [1]", "S1901M", "ENGLAND", "S1901M", (1,),
     "000 II(2) b game by number only"),
    ("mhr", "[BlackMarch] S01: English Orders [1]", "S1901M", "ENGLAND", "S1901M", (1,),
     "000 II(2) b game by name only, in a leading bracket"),
    ("mhr", "DC 179 S01 England v1", "S1901M", "ENGLAND", "S1901M", (1,),
     "2.14 mhr number spaced, power as name, version as v1"),
    ("mhr", "Black March, Spring 1901, English Orders #3", "S1901M", "ENGLAND", "S1901M", (3,),
     "2.14 mhr full season word, four-digit year, spaced name"),
    ("mhr", "Dc179 [BlackMarch] Su01: English Orders (2)", "S1901R", "ENGLAND", "S1901R", (2,),
     "000 VII(2) Su is Summer, the spring retreats; version in parentheses"),
    ("mhr", "Dc179 [BlackMarch] F01: English Orders [1]", "F1901M", "ENGLAND", "F1901M", (1,),
     "2.14 mhr F is Fall moves"),
    ("mhr", "Dc179 [BlackMarch] A01: English Orders [1]", "F1901R", "ENGLAND", "F1901R", (1,),
     "2.14 mhr A is Autumn, the fall retreats [P]"),
    ("mhr", "Dc179 [BlackMarch] W01: English Orders [1]", "W1901A", "ENGLAND", "W1901A", (1,),
     "000 VII(2) W is Winter"),
    ("mhr", "dc179 blackmarch winter 01 english orders [1]", "W1901A", "ENGLAND", "W1901A", (1,),
     "2.14 mhr two-digit year beside a season word"),
    # danivon accepted variants
    ("danivon", "Redscape12; 1901, Fall, Retreats; Germany", "F1901R", "GERMANY", "F1901R", None,
     "001 II(4) phase Retreats"),
    ("danivon", "Redscape12; 1901, Autumn, Movement; Germany", "F1901M", "GERMANY", "F1901M", None,
     "2.14 danivon Autumn is Fall [P]"),
    ("danivon", "Redscape12; 1901, Spring, Retreat; Italy", "S1901R", "ITALY", "S1901R", None,
     "2.14 danivon Spring, Retreats [P]"),
    ("danivon", "Redscape12; 1901, Winter, Builds; Turkey", "W1901A", "TURKEY", "W1901A", None,
     "2.14 danivon Build(s) names the adjustments"),
    ("danivon", "Redscape12 - 1901 / Spring / Movement - France", "S1901M", "FRANCE", "S1901M", None,
     "2.14 danivon any punctuation if the parts come in order [P]"),
    ("danivon", "Redscape12; 1901, Spring, Movement; France v2.1", "S1901M", "FRANCE", "S1901M", (2, 1),
     "001 II(7) a sequence marker at the end"),
    # email_rules accepted variants
    ("email_rules", "orders for lepanto", "S1901M", None, None, None,
     "2.14 email_rules game name anywhere"),
    ("email_rules", "Lepanto France", "S1901M", "FRANCE", None, None,
     "2.14 email_rules power optional but read"),
    ("email_rules", "Lepanto Autumn 1901 retreats", "F1901R", None, "F1901R", None,
     "002 ORDERS 4 autumn retreats"),
    ("email_rules", "Lepanto Summer 1901", "S1901R", None, "S1901R", None,
     "2.14 email_rules Summer is the spring retreats [P]"),
    ("email_rules", "Lepanto Fall 1901", "F1901M", None, "F1901M", None,
     "002 DRAWS 3 Fall is the fall moves"),
    ("email_rules", "Lepanto winter 1901 removals", "W1901A", None, "W1901A", None,
     "002 ORDERS 4 winter removals"),
    # scorpion accepted variants
    ("scorpion", "DARK SIDE - RUSSIA - a1901", "F1901M", "RUSSIA", "F1901M", None,
     "003 [5] a is Autumn, the fall moves [P]"),
    ("scorpion", "DARK SIDE - RUSSIA - f1901", "F1901M", "RUSSIA", "F1901M", None,
     "2.14 scorpion f accepted [P]"),
    ("scorpion", "Dark Side, Russia, Autumn 1901", "F1901M", "RUSSIA", "F1901M", None,
     "2.14 scorpion full season words accepted"),
    ("scorpion", "DarkSide - Russia - Spring 1901", "S1901M", "RUSSIA", "S1901M", None,
     "2.14 game name with spaces ignored"),
    ("scorpion", "DARK SIDE - RUS - s1901", "S1901M", "RUSSIA", "S1901M", None,
     "003 [9] the short form Rus"),
    ("scorpion", "DARK SIDE - GB - s1901", "S1901M", "ENGLAND", "S1901M", None,
     "003 [9] the short form GB"),
    ("scorpion", "DARK SIDE - RUSSIA - a1901", "F1901R", "RUSSIA", "F1901M", None,
     "003 [5] the Autumn turn covers the fall retreats"),
    ("scorpion", "DARK SIDE - RUSSIA - a1901", "W1901A", "RUSSIA", "F1901M", None,
     "003 [5] the Autumn turn covers the adjustments"),
    # default template accepted variants
    ("standard", "lepanto France F1901R", "F1901R", "FRANCE", "F1901R", None,
     "2.14 default phase code F1901R"),
    ("standard", "lepanto france w1901a", "W1901A", "FRANCE", "W1901A", None,
     "2.14 default phase code in lower case"),
    ("standard", "lepanto French Autumn 1901", "F1901R", "FRANCE", "F1901R", None,
     "2.14 default Autumn is the fall retreats; power as adjective"),
    ("standard", "Lepanto: Austria, Summer 1901", "S1901R", "AUSTRIA", "S1901R", None,
     "2.14 default Summer is the spring retreats"),
    ("standard", "LEPANTO Aus Spring 1901", "S1901M", "AUSTRIA", "S1901M", None,
     "003 [9] short form Aus, case ignored"),
]


@pytest.mark.parametrize("template, subject, current, power, phase, version",
                         [c[:-1] for c in CONFORMING], ids=[c[-1] for c in CONFORMING])
def test_conforming_subjects(template, subject, current, power, phase, version):
    reading = read(template, subject, current)
    assert reading.problems == ()
    assert (reading.names_game, reading.power, reading.phase, reading.version) == (
        True, power, phase, version)
    assert not reading.wrong_turn and not reading.is_reply_to_report


# 2.14: "Autumn 1901" is the Fall moves under scorpion but the Fall retreats under email_rules.
@pytest.mark.parametrize("template, words, phase", [
    pytest.param("scorpion", "Autumn 1901", "F1901M", id="003 [5] Autumn is the fall moves"),
    pytest.param("email_rules", "Autumn 1901", "F1901R", id="002 ORDERS 4 Autumn is the fall retreats"),
    pytest.param("mhr", "Autumn 1901", "F1901R", id="2.14 mhr Autumn is the fall retreats [P]"),
    pytest.param("danivon", "Autumn 1901", "F1901M", id="2.14 danivon Autumn alone is Fall Movement"),
    pytest.param("standard", "Autumn 1901", "F1901R", id="2.14 default Autumn is F1901R"),
    pytest.param("danivon", "Summer 1901", None, id="2.14 danivon has no Summer"),
    pytest.param("scorpion", "Winter 1901", None, id="2.14 scorpion has no Winter turn"),
    pytest.param("standard", "S01", None, id="2.14 default has no season letters"),
    pytest.param("mhr", "S01", "S1901M", id="000 II(2) b S01 is Spring 1901"),
    pytest.param("email_rules", "F1901R", "F1901R", id="2.14 engine codes read under every template [P]"),
    pytest.param("scorpion", "S1901R", "S1901M", id="003 [5] an engine code names its scorpion turn"),
    # QA: "S02R" was told "does not name the year ... the season"; it is an engine code with 000 II(2) b's
    # two-digit year, and reads as Su02 does
    pytest.param("mhr", "S02R", "S1902R", id="000 II(2) b S02R is an engine code with a two-digit year"),
    pytest.param("mhr", "W02A", "W1902A", id="000 II(2) b W02A is Winter 1902"),
    pytest.param("standard", "F01M", "F1901M", id="2.14 a two-digit engine code under every template [P]"),
])
def test_season_vocabulary_per_profile(template, words, phase):
    assert read(template, f"{GAME[template]} {words}", required=frozenset()).phase == phase


# --- missing fields --------------------------------------------------------------------------

# Every field alone, under the default template and required = all six (2.1's set).
MISSING_ONE = [
    ("game", "France S1901M v1", "The subject does not name the game (lepanto)."),
    ("year", "lepanto France Spring Movement v1", "The subject does not name the year."),
    ("season", "lepanto France 1901 Movement v1", "The subject does not name the season."),
    ("phase", "lepanto France Spring 1901 v1",
     "The subject does not name the phase (Movement, Retreats or Adjustments)."),
    ("power", "lepanto S1901M v1", "The subject does not name your power."),
    ("version", "lepanto France S1901M",
     "The subject has no version number of the set, for example [1]."),
]


@pytest.mark.parametrize("field, subject, problem", MISSING_ONE,
                         ids=[f"2.1 subject_required_fields: {m[0]} missing" for m in MISSING_ONE])
def test_each_missing_field_is_one_problem(field, subject, problem):
    assert read("standard", subject, required=FIELDS).problems == (problem,)
    # The same subject passes when that field is not required.
    assert read("standard", subject, required=FIELDS - {field}).problems == ()


@pytest.mark.parametrize("template", sorted(REQUIRED), ids=[
    f"2.1 {t} profile: an empty subject misses every required field" for t in sorted(REQUIRED)])
def test_empty_subject_misses_every_required_field(template):
    reading = read(template, "Orders")
    assert len(reading.problems) == len(REQUIRED[template])
    assert read(template, "Orders", required=frozenset()).problems == ()


@pytest.mark.parametrize("template, subject, problems", [
    pytest.param("mhr", "Dc179 [BlackMarch] S01: English Orders",
                 ("The subject has no version number of the set, for example [1].",),
                 id="000 II(2) b v the version number is required"),
    pytest.param("mhr", "Dc179 S01 Orders [1]", ("The subject does not name your power.",),
                 id="000 II(2) b iv the player country is required"),
    pytest.param("danivon", "Redscape12; 1901, Spring; France",
                 ("The subject does not name the phase (Movement, Retreats or Adjustments).",),
                 id="001 II(4) the phase is required"),
    pytest.param("danivon", "France; 1901, Spring, Movement; Redscape12",
                 (("The parts of the subject are out of order: the house rules ask for "
                   "<Game Name>; <Year>, <Season>, <Phase>; <Country name>."),),
                 id="001 II(4) parts out of order"),
    pytest.param("scorpion", "DARK SIDE - RUSSIA",
                 ("The subject does not name the year.", "The subject does not name the season."),
                 id="003 [10] season with year required"),
    pytest.param("email_rules", "France orders", ("The subject does not name the game (Lepanto).",),
                 id="002 [P] only the game is required"),
    pytest.param("standard", "lepanto France Germany S1901M",
                 ("The subject names more than one power (FRANCE, GERMANY).",),
                 id="2.1 two powers named"),
    pytest.param("standard", "lepanto France S1901M F1901M", ("The subject names more than one turn.",),
                 id="2.1 two turns named"),
    pytest.param("standard", "lepanto France Winter 1901 Movement",
                 ("The subject names Winter Movement, which is not a turn of the game.",),
                 id="2.14 Winter has no movement phase"),
])
def test_problems(template, subject, problems):
    assert read(template, subject).problems == problems


def test_a_power_named_twice_is_one_power():
    assert read("standard", "lepanto France French S1901M").power == "FRANCE"


# --- season mismatch (2.1 season_mismatch_policy) --------------------------------------------

@pytest.mark.parametrize("template, subject, current, problem", [
    pytest.param("standard", "lepanto France F1901R", "S1902M",
                 "The subject names Fall 1901 Retreats but the game is at Spring 1902 Movement.",
                 id="2.1 season_mismatch_policy whole turn"),
    pytest.param("mhr", "Dc179 S02: English Orders [1]", "S1901M",
                 "The subject names Spring 1902 Movement but the game is at Spring 1901 Movement.",
                 id="000 II(2) b wrong year"),
    pytest.param("danivon", "Redscape12; 1901, Spring, Retreats; France", "S1901M",
                 "The subject names Spring 1901 Retreats but the game is at Spring 1901 Movement.",
                 id="001 II(4) wrong phase"),
    pytest.param("scorpion", "DARK SIDE - RUSSIA - s1901", "F1901M",
                 "The subject names Spring 1901 but the game is at Autumn 1901.",
                 id="003 [10] wrong season"),
    pytest.param("email_rules", "Lepanto Spring", "F1901M",
                 "The subject names Spring Movement but the game is at Fall 1901 Movement.",
                 id="2.1 a season without year is still checked"),
    pytest.param("email_rules", "Lepanto 1902", "F1901M",
                 "The subject names 1902 but the game is at Fall 1901 Movement.",
                 id="2.1 a year without season is still checked"),
    pytest.param("email_rules", "Lepanto Fall 1901", "F1901R",
                 "The subject names Fall 1901 Movement but the game is at Fall 1901 Retreats.",
                 id="002 ORDERS 4 Fall is not the autumn retreats"),
])
def test_season_mismatch(template, subject, current, problem):
    reading = read(template, subject, current)
    assert reading.wrong_turn
    assert problem in reading.problems


def test_no_mismatch_when_the_game_has_no_open_turn():
    reading = read("standard", "lepanto France F1901R", "COMPLETED")
    assert not reading.wrong_turn and reading.problems == ()
    assert reading.expected == "lepanto France"


# --- prefixes, tags, markers -----------------------------------------------------------------

PREFIXES = ["Re: ", "RE: ", "Fwd: ", "Fw: ", "AW: ", "WG: ", "SV: ", "Re: Re: Fwd: ", "Re[2]: ",
            "[diplomacy] Re: ", "Re: [diplomacy] ", "re : [Dip-L] AW: "]


@pytest.mark.parametrize("prefix", PREFIXES, ids=[f"2.14 reply prefix {p.strip()!r}" for p in PREFIXES])
def test_reply_and_forward_prefixes_and_list_tags_are_stripped(prefix):
    base = read("scorpion", "DARK SIDE - RUSSIA - s1901")
    assert read("scorpion", prefix + "DARK SIDE - RUSSIA - s1901") == base


def test_list_tag_naming_a_power_is_not_read():
    # A list tag is dropped before reading, so "[france-list]" names no power.
    assert read("standard", "[france-list] lepanto S1901M").power is None


@pytest.mark.parametrize("subject, version", [
    pytest.param("lepanto France S1901M [2]", (2,), id="001 II(7) ¶1 [2]"),
    pytest.param("lepanto France S1901M (2)", (2,), id="001 II(7) ¶1 (2)"),
    pytest.param("lepanto France S1901M #2", (2,), id="001 II(7) ¶1 #2"),
    pytest.param("lepanto France S1901M v2", (2,), id="001 II(7) ¶1 v2"),
    pytest.param("lepanto France S1901M v2.1", (2, 1), id="001 II(7) ¶1 v2.1"),
    pytest.param("lepanto France S1901M version 2", (2,), id="001 II(7) ¶1 version 2"),
    pytest.param("lepanto France S1901M V1.0", (1, 0), id="001 II(7) v1.0"),
    pytest.param("[3] lepanto France S1901M", (3,), id="001 II(7) ¶1 a leading [3] is a version, not a tag"),
    pytest.param("lepanto France S1901M", None, id="001 II(7) ¶1 no marker"),
    pytest.param("lepanto France S1901M #1901", None, id="001 II(7) ¶1 a year is not a version"),
])
def test_version_markers(subject, version):
    assert read("standard", subject).version == version


@pytest.mark.parametrize("subject, marker", [
    pytest.param("lepanto France S1901M Final", "final", id="000 II(1) Final"),
    pytest.param("lepanto France S1901M preliminary", "preliminary", id="001 II(3) Preliminary"),
    pytest.param("lepanto France S1901M provisional", "preliminary", id="003 [11] provisional"),
    pytest.param("lepanto France S1901M", None, id="2.4 no marker"),
])
def test_status_markers(subject, marker):
    assert read("standard", subject).marker == marker


def test_game_name_words_are_not_read_as_other_parts():
    # 2.1: the game name is found first, so a game called "France 1901" names no power or year.
    reading = read("scorpion", "FRANCE 1901 - GERMANY - a1901", "F1901M", game="France 1901")
    assert (reading.names_game, reading.power, reading.phase, reading.problems) == (
        True, "GERMANY", "F1901M", ())
    assert not read("standard", "Results Matter France S1901M", game="Results Matter").is_reply_to_report


def test_another_game_is_not_named():
    assert not read("standard", "lepanto2 France S1901M").names_game
    assert not read("mhr", "Dc180 S01: English Orders [1]").names_game


# --- the server's own subjects (2.14's last paragraph) ---------------------------------------

def _collapsed(template: str, phase: str) -> str:
    if template != "scorpion":
        return phase
    return f"{'S' if phase[0] == 'S' else 'F'}{phase[1:5]}M"


@pytest.mark.parametrize("purpose", ["reminder", "confirmation", "rejection", "orders"])
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("template", sorted(REQUIRED))
def test_round_trip_reply_to_server_mail_conforms(template, phase, purpose):
    """2.14: a reply to a reminder (or confirmation) names the turn now open and conforms."""
    subject = format_subject(template=template, game_name=GAME[template], power="FRANCE",
                             phase=phase, purpose=purpose)
    reading = read(template, "Re: " + subject, phase)
    assert reading.problems == ()
    assert (reading.names_game, reading.power, reading.phase) == (True, "FRANCE", _collapsed(template, phase))


NEXT_PHASE = {"S1901M": "S1901R", "S1901R": "F1901M", "F1901M": "F1901R", "F1901R": "W1901A",
              "W1901A": "S1902M"}


@pytest.mark.parametrize("power", [None, "FRANCE"])
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("template", sorted(REQUIRED))
def test_reply_to_a_results_report_names_the_wrong_turn(template, phase, power):
    """2.14, 003 [10]: "Do not just reply to an adjudication": it carries the wrong season."""
    subject = format_subject(template=template, game_name=GAME[template], power=power,
                             phase=phase, purpose="report")
    assert "results" in subject
    now_open = NEXT_PHASE[phase]
    if template == "scorpion":  # 003 [5]: the next turn, not the next engine phase
        now_open = "F1901M" if phase[0] == "S" else "S1902M"
    reading = read(template, "Re: " + subject, now_open)
    assert reading.is_reply_to_report and reading.wrong_turn


@pytest.mark.parametrize("template, phase, purpose, subject", [
    pytest.param("mhr", "S1901M", "orders", "Dc179 [BlackMarch] S01: French Orders [1]",
                 id="000 II(2) b suggested format"),
    pytest.param("mhr", "F1901R", "report", "Dc179 [BlackMarch] A01: results", id="2.14 mhr report"),
    pytest.param("danivon", "W1901A", "reminder", "Redscape12; 1901, Winter, Adjustments; France; reminder",
                 id="001 II(4) format"),
    pytest.param("email_rules", "F1901R", "confirmation", "Lepanto France Autumn 1901 orders confirmation",
                 id="2.14 email_rules autumn retreats"),
    pytest.param("scorpion", "S1901M", "orders", "DARK SIDE - FRANCE - s1901", id="003 [10] format"),
    pytest.param("scorpion", "W1901A", "reminder", "DARK SIDE - FRANCE - a1901 - reminder",
                 id="003 [5] winter belongs to the Autumn turn"),
    pytest.param("standard", "F1901M", "rejection", "lepanto France F1901M not accepted",
                 id="2.14 default format"),
])
def test_format_subject_examples(template, phase, purpose, subject):
    assert format_subject(template=template, game_name=GAME[template], power="FRANCE" if purpose != "report"
                          else None, phase=phase, purpose=purpose) == subject


def test_format_subject_version_and_aliases():
    assert format_subject(template="mhr", game_name="BlackMarch", power="England", phase="S1901M",
                          purpose="orders", version=(2,)) == "[BlackMarch] S01: English Orders [2]"
    # 2.1 calls the standard template "default".
    assert format_subject(template="default", game_name="x", power="fra", phase="S1901M",
                          purpose="orders") == "x France S1901M"
    assert "default" in TEMPLATES and "standard" in TEMPLATES


def test_the_subjects_of_a_deadline_are_each_their_own_players_and_games():
    """The subjects of one game's turn are written from the parts they share, made once: each
    player's and game's subject is still its own, whichever was written first, and an unknown
    power is refused after the game's others were written."""
    written = [(game, power, format_subject(template="mhr", game_name=game, power=power, phase="F1901R",
                                            purpose="report"))
               for game in ("Dc1 [North]", "Dc2 [South]") for power in ("ENGLAND", None, "TURKEY")]
    assert [subject for _, _, subject in written] == [
        "Dc1 [North] A01: English results", "Dc1 [North] A01: results", "Dc1 [North] A01: Turkish results",
        "Dc2 [South] A01: English results", "Dc2 [South] A01: results", "Dc2 [South] A01: Turkish results"]
    with pytest.raises(ValueError, match="unknown power"):
        format_subject(template="mhr", game_name="Dc1 [North]", power="Prussia", phase="F1901R", purpose="report")


@pytest.mark.parametrize("kwargs", [
    pytest.param({"template": "nope"}, id="unknown template"),
    pytest.param({"phase": "COMPLETED"}, id="not a phase code"),
    pytest.param({"phase": "W1901M"}, id="Winter has no movement phase"),
    pytest.param({"power": "Prussia"}, id="unknown power"),
])
def test_format_subject_rejects_bad_arguments(kwargs):
    arguments = {"template": "standard", "game_name": "lepanto", "power": "FRANCE", "phase": "S1901M",
                 "purpose": "orders", **kwargs}
    with pytest.raises(ValueError):
        format_subject(**arguments)


def test_read_subject_rejects_unknown_configuration():
    with pytest.raises(ValueError):
        read("standard", "x", required=frozenset({"colour"}))
    with pytest.raises(ValueError):
        read_subject("x", template="nope", game_name="g", current_phase="S1901M",
                     required_fields=frozenset())


@pytest.mark.parametrize("template", sorted(REQUIRED), ids=[
    f"2.1 {t} the expected subject of a rejection conforms" for t in sorted(REQUIRED)])
def test_expected_subject_conforms(template):
    reading = read(template, "my orders France", "F1901R")
    assert reading.expected == format_subject(template=template, game_name=GAME[template],
                                              power="FRANCE", phase="F1901R", purpose="orders")
    assert read(template, reading.expected, "F1901R").problems == ()


def test_expected_subject_shows_a_placeholder_for_an_unknown_power():
    assert read("standard", "orders", "S1901M").expected == "lepanto <your power> S1901M"
    assert read("email_rules", "orders", "S1901M").expected == "Lepanto Spring 1901 orders"


# --- robustness ------------------------------------------------------------------------------

ALL_TEMPLATES = sorted(TEMPLATES)


@settings(max_examples=300, deadline=None)
@given(subject=st.text(max_size=120), template=st.sampled_from(ALL_TEMPLATES),
       game=st.text(max_size=30), current=st.sampled_from(PHASES + ("", "COMPLETED", "S99M")),
       required=st.frozensets(st.sampled_from(sorted(FIELDS))))
def test_read_subject_never_raises(subject, template, game, current, required):
    reading = read_subject(subject, template=template, game_name=game, current_phase=current,
                           required_fields=required)
    assert isinstance(reading, SubjectReading)
    assert all(isinstance(p, str) and p for p in reading.problems)
    assert isinstance(reading.expected, str)


@settings(max_examples=200, deadline=None)
@given(template=st.sampled_from(ALL_TEMPLATES), phase=st.sampled_from(PHASES),
       power=st.sampled_from(["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]),
       game=st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,15}", fullmatch=True))
def test_round_trip_for_any_game_name(template, phase, power, game):
    subject = format_subject(template=template, game_name=game, power=power, phase=phase,
                             purpose="reminder")
    profile = "standard" if template == "default" else template
    reading = read_subject(subject, template=template, game_name=game, current_phase=phase,
                           required_fields=REQUIRED[profile])
    assert reading.problems == ()
    assert (reading.names_game, reading.power, reading.phase) == (True, power, _collapsed(profile, phase))
