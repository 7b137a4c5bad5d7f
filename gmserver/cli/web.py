"""`gmserver web`: the read-only web pages alone, without the mail side (`gmserver run` serves
them too when [web] is configured)."""

from __future__ import annotations

import argparse
import sys

from gmserver.cli.common import config_of, services_of
from gmserver.cli.parser import CliError


def cmd_web(args: argparse.Namespace) -> int:
    from gmserver.web.auth import hash_password  # noqa: PLC0415  (start-up: loaded when the command runs)
    from gmserver.web.server import pages_app, serve  # noqa: PLC0415

    if args.hash_password:
        password = sys.stdin.readline().rstrip("\n")
        if not password:
            raise CliError("give the GM's password on standard input, e.g. `read -s p; echo \"$p\" | gmserver web "
                           "--hash-password`")
        print(hash_password(password))
        return 0
    config = config_of(args)
    if not config.web.enabled:
        raise CliError('the web pages are off: set [web] listen = "127.0.0.1:8080" in the configuration')
    host, port = config.web.host_and_port
    app = pages_app(config, services_of(config))
    print(f"gmserver web pages at http://{host}:{port}/games/NAME ({config.web.base_url or 'no base_url'}); "
          "Ctrl-C stops them", flush=True)
    serve(app, host, port)
    return 0


def build(web: argparse.ArgumentParser) -> None:
    web.add_argument("--hash-password", action="store_true", help="print [web] gm_password_hash for a password")
    web.set_defaults(func=cmd_web)
