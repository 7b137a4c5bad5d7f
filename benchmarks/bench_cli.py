"""CLI start-up benchmark: CPU seconds (user + sys) of whole `gmserver` processes.

    .venv/bin/python benchmarks/bench_cli.py [--runs 5]

Runs the `gmserver` console script beside this interpreter (else `python -m gmserver`) and
prints the median CPU time of each command beside its target:

- `gmserver --help`;
- `gmserver orders read` of a 12-order mail (a whole email on standard input, headers, greeting
  and signature included) for France in a mid-game position given with --position;
- `gmserver game show NAME` on a fresh SQLite database, with one game created by the CLI itself
  (temporary directory and configuration).

CPU time, not wall-clock time: the machine is shared, and a process waiting for a core costs no
CPU. The setup (`db upgrade`, `game create`, one `orders read`) and one uncounted run of each
command leave behind what an installation keeps between runs: Python's bytecode (written even
where $PYTHONDONTWRITEBYTECODE is set) and the engine's map facts, in a temporary cache directory
($GMSERVER_CACHE_DIR); the median is the cost of every later run. One more `orders read` with an
empty cache directory shows the cost of the first use. The last line is machine-readable:
`RESULT help_cpu_s=... orders_read_cpu_s=... game_show_cpu_s=...`.

The CPU time of one process moves with the host (up to twice as much from one minute to the next
on a shared machine), so a change is best judged against the code before it at the same moment:
`--against OTHER_CHECKOUT` (a checkout with its own .venv, e.g. a `git worktree` of an older commit
after `make setup`) runs `--help` and `orders read` of both, alternating process by process, and
prints each one's median and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TARGETS = {"help": 0.10, "orders_read": 0.30, "game_show": 0.40}
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")

# France at twelve units in the spring of 1905, with a few of its neighbours' units around it.
POSITION = {
    "phase": "S1905M",
    "units": {
        "FRANCE": ["A PAR", "A BUR", "A MUN", "A RUH", "A BEL", "F NTH", "F ENG", "F MAO", "F WES",
                   "F LYO", "A SPA", "F POR"],
        "ENGLAND": ["F NWG", "A YOR", "F IRI"],
        "GERMANY": ["A BER", "A KIE", "F HOL"],
        "ITALY": ["A TUN", "F TYS", "A PIE"],
    },
    "centers": {
        "FRANCE": ["BRE", "PAR", "MAR", "SPA", "POR", "BEL", "MUN", "LVP", "EDI", "NWY", "DEN", "LON"],
        "ENGLAND": ["HOL"],
        "GERMANY": ["BER", "KIE"],
        "ITALY": ["ROM", "NAP", "VEN", "TUN"],
    },
}

MAIL = """\
Return-Path: <jeanne@players.test>
Received: from mail.players.test (mail.players.test [192.0.2.7])
\tby gm.test with ESMTPS id 4Zx1; Sat, 14 Mar 2026 17:42:10 +0000
From: Jeanne Martin <jeanne@players.test>
To: gm@gm.test
Subject: lepanto S1905M France orders
Date: Sat, 14 Mar 2026 17:42:03 +0000
Message-ID: <20260314174203.1234@players.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Hi GM,

here are France's orders for spring 1905:

A Par H
A Bur - Mun
A Mun - Ber
A Ruhr S A Bur - Mun
A Bel - Hol
F NTH - Nwy
F Eng - Lon
F Mid-Atlantic Ocean - Iri
F Wes - Tun
F Gulf of Lyon - Tyrrhenian Sea
A Spa - Gas
F Por H

Thanks,
--\x20
Jeanne
"""


def gmserver_command() -> list[str]:
    script = Path(sys.executable).parent / "gmserver"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gmserver"]


def cpu_seconds(command: list[str], *, stdin: bytes = b"", env: dict[str, str]) -> float:
    """User + sys CPU of one whole child process (it must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input=stdin, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(label: str, command: list[str], runs: int, *, stdin: bytes = b"", env: dict[str, str]) -> float:
    cpu_seconds(command, stdin=stdin, env=env)
    figures = [cpu_seconds(command, stdin=stdin, env=env) for _ in range(runs)]
    median = statistics.median(figures)
    target = TARGETS[label]
    verdict = "ok" if median <= target else "over"
    print(f"{label:12} median {median:5.3f} s CPU (target <= {target:.2f} s: {verdict}); "
          f"runs {' '.join(f'{f:.3f}' for f in figures)}")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="counted runs per command (default: 5)")
    parser.add_argument("--against", metavar="CHECKOUT", type=Path,
                        help="another checkout with its own .venv: compare with it, alternating (25 rounds)")
    options = parser.parse_args()
    if options.against is not None:
        compare(options.against)
        return
    gmserver = gmserver_command()
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as tmp:
        directory = Path(tmp)
        env = {**os.environ, "GMSERVER_CACHE_DIR": str(directory / "cache"), "HOME": str(directory)}
        for variable in ("GMSERVER_CONFIG", "PYTHONDONTWRITEBYTECODE"):
            env.pop(variable, None)
        config = directory / "gmserver.toml"
        config.write_text(f'[database]\nurl = "sqlite:///{directory / "gm.db"}"\n[gm]\naddress = "gm@gm.test"\n'
                          f'[outbound.maildir]\npath = "{directory / "sent"}"\n', encoding="utf-8")
        position = directory / "position.json"
        position.write_text(json.dumps(POSITION), encoding="utf-8")
        configured = [*gmserver, "--config", str(config)]
        players = [arg for power in POWERS for arg in ("--player", f"{power}={power.lower()}@players.test")]
        for setup in (["db", "upgrade"], ["game", "create", "lepanto", "--ruleset", "mhr", *players]):
            subprocess.run([*configured, *setup], env=env, check=True, stdout=subprocess.DEVNULL)

        orders_read = [*gmserver, "orders", "read", "--ruleset", "mhr", "--position", str(position),
                       "--power", "France"]
        reading = subprocess.run(orders_read, input=MAIL.encode(), env=env, check=True, stdout=subprocess.PIPE)
        accepted = [line for line in json.loads(reading.stdout)["lines"] if line["status"] == "accepted"]
        if len(accepted) != 12:
            sys.exit(f"the benchmark's mail should give 12 accepted orders, not {len(accepted)}")

        print(f"{' '.join(gmserver)}; CPU seconds (user+sys) of whole processes, median of {options.runs}")
        results = {
            "help": measure("help", [*gmserver, "--help"], options.runs, env=env),
            "orders_read": measure("orders_read", orders_read, options.runs, stdin=MAIL.encode(), env=env),
            "game_show": measure("game_show", [*configured, "game", "show", "lepanto"], options.runs, env=env),
        }
        interpreter = statistics.median(cpu_seconds([sys.executable, "-c", "pass"], env=env) for _ in range(options.runs))
        print(f"the interpreter alone (python -c pass): {interpreter:.3f} s CPU")
        empty = {**env, "GMSERVER_CACHE_DIR": str(directory / "empty-cache")}
        print(f"orders_read with an empty cache directory (the first use): "
              f"{cpu_seconds(orders_read, stdin=MAIL.encode(), env=empty):.3f} s CPU")
    print("RESULT " + " ".join(f"{label}_cpu_s={value:.3f}" for label, value in results.items()))


def compare(other: Path, rounds: int = 25) -> None:
    """`--help` and `orders read` of this checkout and of `other`, alternating process by process."""
    theirs = other / ".venv" / "bin" / "gmserver"
    if not theirs.exists():
        sys.exit(f"--against {other}: no {theirs} (run `make setup` in that checkout first)")
    scripts = {"this": gmserver_command(), str(other): [str(theirs)]}
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as tmp:
        directory = Path(tmp)
        position = directory / "position.json"
        position.write_text(json.dumps(POSITION), encoding="utf-8")
        figures: dict[tuple[str, str], list[float]] = {}
        for round_number in range(rounds + 1):
            for name, script in scripts.items():
                env = {**os.environ, "HOME": str(directory), "GMSERVER_CACHE_DIR": str(directory / name.replace("/", "_"))}
                for variable in ("GMSERVER_CONFIG", "PYTHONDONTWRITEBYTECODE"):
                    env.pop(variable, None)
                commands = {"help": ([*script, "--help"], b""),
                            "orders_read": ([*script, "orders", "read", "--ruleset", "mhr", "--position", str(position),
                                             "--power", "France"], MAIL.encode())}
                for label, (command, stdin) in commands.items():
                    spent = cpu_seconds(command, stdin=stdin, env=env)
                    if round_number:  # the first round writes the bytecode and the map facts
                        figures.setdefault((label, name), []).append(spent)
    for label in ("help", "orders_read"):
        mine, theirs = (statistics.median(figures[(label, name)]) for name in scripts)
        print(f"{label:12} this {mine:.3f} s, {other} {theirs:.3f} s (median of {rounds} alternated runs): "
              f"{mine / theirs:.2f} x")


if __name__ == "__main__":
    main()
