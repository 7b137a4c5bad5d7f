"""The listener's connection gate on its own, with a clock the test moves."""

from __future__ import annotations

from gmserver.mail.listener import ConnectionGate


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_per_client_rate_is_a_sliding_minute() -> None:
    clock = Clock()
    gate = ConnectionGate(total=100, per_client=100, per_minute=3, clock=clock)
    for _ in range(3):
        assert gate.admit("192.0.2.1") is None
        gate.release("192.0.2.1")
        clock.now += 10
    assert "this minute" in str(gate.admit("192.0.2.1"))
    assert gate.admit("192.0.2.2") is None  # another client is not held up
    clock.now += 31  # the first connection is now more than a minute old
    assert gate.admit("192.0.2.1") is None


def test_the_cap_counts_open_connections_of_every_client() -> None:
    gate = ConnectionGate(total=2, per_client=2, per_minute=100, clock=Clock())
    assert gate.admit("192.0.2.1") is None and gate.admit("192.0.2.2") is None
    assert str(gate.admit("192.0.2.3")).startswith("421 4.7.0 too many connections at the moment")
    gate.release("192.0.2.1")
    assert gate.admit("192.0.2.3") is None


def test_a_refused_connection_is_not_counted_as_open() -> None:
    gate = ConnectionGate(total=1, per_client=1, per_minute=100, clock=Clock())
    assert gate.admit("192.0.2.1") is None
    assert gate.admit("192.0.2.1") is not None
    gate.release("192.0.2.1")
    assert gate.admit("192.0.2.1") is None


def test_quiet_clients_are_forgotten() -> None:
    clock = Clock()
    gate = ConnectionGate(total=2, per_client=1, per_minute=1, clock=clock)
    for n in range(20):
        assert gate.admit(f"192.0.2.{n}") is None
        gate.release(f"192.0.2.{n}")
        clock.now += 61
    assert len(gate._recent) <= 9


def test_a_refused_client_is_logged_once_a_minute() -> None:
    clock = Clock()
    gate = ConnectionGate(total=1, per_client=1, per_minute=1, clock=clock)
    assert [gate.worth_logging("192.0.2.1") for _ in range(3)] == [True, False, False]
    assert gate.worth_logging("192.0.2.2")
    clock.now += 61
    assert gate.worth_logging("192.0.2.1")


def test_refused_clients_from_many_addresses_are_not_all_remembered() -> None:
    """The cap full, a flood from ever new addresses: what the gate keeps stays bounded."""
    clock = Clock()
    gate = ConnectionGate(total=1, per_client=1, per_minute=1, clock=clock)
    assert gate.admit("192.0.2.1") is None
    for n in range(1000):
        address = f"2001:db8::{n:x}"
        assert gate.admit(address) is not None
        gate.worth_logging(address)
        clock.now += 1
    assert len(gate._recent) + len(gate._told) <= 200
