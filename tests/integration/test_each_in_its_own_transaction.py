"""A sweep's duties go through their games or players one transaction each: one that fails is
rolled back alone and logged, and the others are done."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.orm import sessionmaker

from gmserver.db.session import each_in_its_own_transaction, transaction

pytestmark = pytest.mark.integration


def test_a_failing_item_is_rolled_back_alone_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    factory = sessionmaker(create_engine("sqlite://"))
    with transaction(factory) as session:
        session.execute(text("CREATE TABLE done (item INTEGER)"))

    def work(session, item: int) -> int:
        session.execute(text("INSERT INTO done VALUES (:item)"), {"item": item})
        if item == 2:
            raise RuntimeError("broken")
        return 1

    with caplog.at_level(logging.ERROR):
        assert each_in_its_own_transaction(factory, [1, 2, 3], work, lambda item: f"item {item} failed") == 2
    with transaction(factory) as session:
        assert [row[0] for row in session.execute(text("SELECT item FROM done ORDER BY item"))] == [1, 3]
    assert [record.getMessage() for record in caplog.records] == ["item 2 failed"]
