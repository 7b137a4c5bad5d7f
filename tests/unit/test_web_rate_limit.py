"""The web pages' rate limit per client address (gmserver/web/app.py), with the clock passed in."""

from __future__ import annotations

from gmserver.web.app import RateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_client_gets_its_minute_and_others_are_not_counted_with_it() -> None:
    clock = Clock()
    limit = RateLimit(3, clock)
    assert [limit.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("10.0.0.2")
    clock.now += 60
    assert limit.allow("10.0.0.1")


def test_many_addresses_cannot_fill_memory() -> None:
    clock = Clock()
    limit = RateLimit(5, clock)
    for number in range(10_001):
        limit.allow(f"10.{number // 65536}.{number // 256 % 256}.{number % 256}")
    clock.now += 61
    limit.allow("192.0.2.1")
    assert len(limit.seen) == 1
