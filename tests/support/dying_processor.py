"""A processor that is killed (SIGKILL, as the OOM killer kills) whenever it reaches a message
holding a marker; other messages it processes for real. For tests of what one deadly message
does to the queue:

    python -m tests.support.dying_processor DATABASE_URL MARKER NOW_ISO

prints the (id, outcome) pairs of process_pending as JSON if it lives to the end.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from datetime import datetime

from gmserver.services.inbox import runner as intake
from tests.support.world import services_for


def main() -> None:
    url, marker, now = sys.argv[1], sys.argv[2].encode(), datetime.fromisoformat(sys.argv[3])
    real_handle = intake._handle

    def deadly_handle(session, services, row, when, prepared=None):  # type: ignore[no-untyped-def]
        if marker in row.raw:
            os.kill(os.getpid(), signal.SIGKILL)
        return real_handle(session, services, row, when, prepared)

    intake._handle = deadly_handle
    print(json.dumps(intake.process_pending(services_for(url), now)))


if __name__ == "__main__":
    main()
