"""A clock the tests move by hand."""

from __future__ import annotations

from datetime import datetime, timedelta


class Clock:
    """Time passed in: tests move it by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now = self.now + timedelta(**kwargs)
        return self.now
