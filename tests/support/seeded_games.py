"""Games played by the real engine with random legal orders (seeded): turns of every kind
(movement with bounces, dislodgements and convoys; retreats; builds, removals and the rules'
defaults) for tests that compare two ways of writing the same report, and for
benchmarks/bench_report.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.turn import TurnReport, build_turn_report
from gmserver.rules.position import PhaseOutcome
from gmserver.services.base.report_copies import ReportParts, parts_for
from tests.support.adjudicate import adjudicate

START = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)


def random_orders(state: dict, rng: random.Random, helping: bool = True) -> dict[str, list[str]]:
    """A random legal order for each orderable unit: with `helping`, some left to the rules'
    defaults and most supports given to an order chosen; without, any legal order (most supports
    are void, as in benchmarks/bench_deadlines.py)."""
    if state["name"].endswith("A"):
        return adjustment_orders(state, rng)
    position = engine.position_from_state(state)
    owner = {unit.split()[1].split("/")[0]: power
             for units in (position.units, position.dislodged) for power, power_units in units.items()
             for unit in power_units}
    legal = {location: choices for location, choices in sorted(engine.legal_orders(state).items())
             if owner.get(location.split("/")[0]) is not None and (not helping or rng.random() < 0.9)}
    if helping:
        chosen = {location: rng.choice([c for c in choices if " S " not in c] or choices)
                  for location, choices in legal.items()}
        for location, choices in legal.items():
            supports = [c for c in choices if " S " in c and c.split(" S ", 1)[1] in chosen.values()]
            if supports and rng.random() < 0.5:
                chosen[location] = rng.choice(supports)
    else:
        chosen = {location: rng.choice(choices) for location, choices in legal.items()}
    orders: dict[str, list[str]] = {}
    for location, order in chosen.items():
        orders.setdefault(owner[location.split("/")[0]], []).append(order)
    return orders


def adjustment_orders(state: dict, rng: random.Random) -> dict[str, list[str]]:
    """Random builds (or waivers) and removals, at most as many as due: the rules' defaults do the rest."""
    position = engine.position_from_state(state)
    owner = {centre: power for power, centres in position.centers.items() for centre in centres}
    owner.update({unit.split()[1].split("/")[0]: power for power, units in position.units.items() for unit in units})
    by_power: dict[str, list[tuple[str, ...]]] = {}
    for location, choices in sorted(engine.legal_orders(state).items()):
        if (power := owner.get(location.split("/")[0])) is not None:
            by_power.setdefault(power, []).append(choices)
    orders = {}
    for power, due in sorted(position.adjustments.items()):
        picked = rng.sample(by_power.get(power, []), min(abs(due), len(by_power.get(power, []))))
        orders[power] = [rng.choice(choices) for choices in picked[:rng.randint(0, len(picked))]]
    return orders


def seeded_outcomes(games: int, phases: int, seed: int = 0, helping: bool = True) -> Iterator[PhaseOutcome]:
    """`phases` turns of each of `games` games from the opening, each game's orders from its own
    seed (`helping`: random_orders)."""
    for game in range(games):
        rng = random.Random(seed * 100_003 + game)
        state = engine.initial_state()
        for _ in range(phases):
            outcome = adjudicate(state, random_orders(state, rng, helping))
            yield outcome
            if outcome.after.phase_type == "-":
                break
            state = outcome.state_after


def seeded_report(outcome: PhaseOutcome, number: int) -> TurnReport:
    """The report a deadline composes for `outcome` (reports.turn.build_turn_report with the game's
    subject line, as services.turn.turn_report.report_contexts builds the last), the time zone and
    the powers in civil disorder varied with `number`."""
    return build_turn_report(outcome, geography=engine.map_info(), game_name=f"g{number}",
                             next_deadline=START + timedelta(hours=number),
                             timezone=("UTC", "Europe/Paris", "America/New_York")[number % 3],
                             civil_disorder=("ITALY",) if number % 4 == 0 else (), subject_template="standard")


def seeded_parts(outcome: PhaseOutcome, report: TurnReport, number: int) -> ReportParts:
    """The stored report of `report` as the deadline stores it (services/base/report_copies.py)."""
    composer = Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")
    return parts_for(composer, key=f"report:{number}:{outcome.phase}:", game_name=f"g{number}", contexts=[report],
                     outcome=outcome, centre_points=[("S1901M", {"FRANCE": 5, "ITALY": 4}),
                                                     (outcome.phase, {p: len(c) for p, c in outcome.after.centers.items()})],
                     deadline=START + timedelta(hours=number), now=START, alarm_seconds=3600 * (number % 3) or None)
