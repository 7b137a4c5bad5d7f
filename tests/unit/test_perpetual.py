"""Perpetual order sets (perpetual_orders; 000 II(4): "The GM will not accept
instructions designating an order set as perpetual EXCEPT IN SPECIAL CIRCUMSTANCES (i.e. a person
is sticking out a hopeless 1-unit position to keep the flow going)"): which kept orders still
apply, reasoned by hand on small boards."""

from __future__ import annotations

from gmserver.rules.order import Order
from gmserver.rules.perpetual import may_mark, note, orders_that_still_apply, refusal
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset

KEPT = tuple(Order.parse(text, "M") for text in ("A PAR H", "A MAR - SPA", "F BRE S A PAR"))


def test_000_II_4_the_one_unit_left_keeps_its_standing_order() -> None:
    # the hopeless one-unit position: only A PAR is left; A MAR and F BRE are gone
    board = Position(phase="F1905M", units={"FRANCE": ("A PAR",), "GERMANY": ("A BUR",)})
    assert orders_that_still_apply(KEPT, board, "FRANCE") == (Order.parse("A PAR H", "M"),)


def test_000_II_4_an_order_for_a_unit_that_moved_or_for_a_unit_gone_is_dropped() -> None:
    # A MAR reached SPA: "A MAR - SPA" no longer fits; F BRE still supports A PAR, still there
    board = Position(phase="F1901M", units={"FRANCE": ("A PAR", "A SPA", "F BRE")})
    assert orders_that_still_apply(KEPT, board, "FRANCE") == (Order.parse("A PAR H", "M"),
                                                               Order.parse("F BRE S A PAR", "M"))
    # A PAR was lost: the support of it is dropped with it
    board = Position(phase="F1902M", units={"FRANCE": ("F BRE",), "GERMANY": ("A PIC",)})
    assert orders_that_still_apply(KEPT, board, "FRANCE") == ()


def test_000_II_4_the_gm_may_keep_a_set_only_where_the_house_rules_allow_it() -> None:
    assert may_mark(load_ruleset("mhr"))
    assert note(load_ruleset("mhr")) == "from the standing orders the GM kept for this power (house rules 000 II(4))"
    assert not may_mark(load_ruleset("scorpion"))
    assert refusal(load_ruleset("scorpion")) == ("the house rules (003) say nothing of them, so order sets are "
                                                 "never kept from turn to turn (the 2000 rulebook as the DATC reads it, "
                                                 "4.E.4)")  # QA: the DATC cited in words
