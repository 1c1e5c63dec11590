"""The scale on paper: what 100,000 and 1,000,000 players a day need, from measured figures.

No server runs: this script multiplies the figures the other benchmarks measured on this
machine (CPU per request, memory per watcher) by a model of a popular daily's day, and prints
the cores, web processes, PostgreSQL transactions and Redis commands per second at the day's
hardest minutes. Every input is an option, so the table is recomputed when a figure changes;
the defaults are the figures in docs/performance.md and the model's assumptions below.

The model (each assumption an option):

- a player plays `--games` dailies a day, each of `--moves` moves (the median par is 78.5
  moves for Masterpiece and 98 for Munger; players take longer than par), a move every
  `--pace` seconds (the median honest think time is about 2.8 s);
- the hardest minutes are the new day's first ones: `--rush` of the day's players start within
  ten minutes of midnight, `--first-minute` of those in the first minute; each makes `--requests`
  requests besides its moves (a guest for some, the dailies list, the starts, the finishes);
  as a game lasts longer than the rush, every player who started in it is still playing at its
  end, so moves per second peak at rush players / pace;
- a move is one PostgreSQL write statement; Redis serves `--redis-per-move` commands per move
  (the rate count's script, the board index's script sent with the process's other moves, the
  live board's marks: about 2.5, counted with `redis-cli monitor` during `play.py`);
- `--watching` of the players playing also watch a board; a web process serves `--watchers`
  watchers with its p95 under a second (the fan-out benchmark's figure);
- a core is planned at `--utilisation` of its capacity (a CPU-bound queue's latency grows
  fast above it).

Races are planned apart (`--race-move-ms`, the race benchmark's CPU per race move): `--races`
races at once of `--racers` players, each moving every `--race-pace` seconds.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import table  # noqa: E402


def plan(players: int, a: argparse.Namespace) -> dict[str, float]:
    rush_players = players * a.rush
    first_minute = rush_players * a.first_minute / 60  # new players a second, first minute
    moves_s = rush_players / a.pace  # everyone who started in the rush is still playing
    requests_s = first_minute * a.requests
    cpu = moves_s * a.move_ms / 1000 + requests_s * a.request_ms / 1000
    cores = cpu / a.utilisation
    watchers = rush_players * a.watching
    return {
        "moves a day": players * a.games * a.moves,
        "players at the rush's peak": rush_players,
        "moves/s at the peak": moves_s,
        "other requests/s (first minute)": requests_s,
        "web CPU, cores busy": cpu,
        "web cores planned": cores,
        "web processes (one a core, and for the watchers)": max(
            math.ceil(cores), math.ceil(watchers / a.watchers)
        ),
        "PostgreSQL write transactions/s": moves_s + requests_s,
        "Redis commands/s": moves_s * a.redis_per_move + requests_s * 2,
        "watchers": watchers,
        "watchers' memory, GiB": watchers / 1000 * a.watcher_mib / 1024,
    }


def race_plan(races: int, a: argparse.Namespace) -> dict[str, float]:
    moves_s = races * a.racers / a.race_pace
    cpu = moves_s * a.race_move_ms / 1000
    return {
        "racers": races * a.racers,
        "race moves/s": moves_s,
        "web CPU, cores busy": cpu,
        "web cores planned": cpu / a.utilisation,
        "PostgreSQL write transactions/s": moves_s,
    }


def fmt(value: float) -> str:
    if value >= 100 or value == int(value):
        return f"{value:,.0f}"
    return f"{value:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--players", default="100000,1000000", help="players a day, comma-separated"
    )
    parser.add_argument("--games", type=float, default=1.6, help="dailies played per player")
    parser.add_argument("--moves", type=float, default=120, help="moves per game")
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a player's moves")
    parser.add_argument("--rush", type=float, default=0.10, help="share starting at the rush")
    parser.add_argument("--first-minute", type=float, default=0.5, help="of the rush's players")
    parser.add_argument("--requests", type=float, default=5, help="requests besides moves")
    parser.add_argument("--move-ms", type=float, required=True, help="server CPU per move, ms")
    parser.add_argument("--request-ms", type=float, required=True, help="CPU per other request")
    parser.add_argument("--redis-per-move", type=float, default=3)
    parser.add_argument("--watching", type=float, default=0.2, help="share also watching")
    parser.add_argument("--watchers", type=float, default=5000, help="watchers per process")
    parser.add_argument("--watcher-mib", type=float, required=True, help="MiB per 1,000")
    parser.add_argument("--utilisation", type=float, default=0.6)
    parser.add_argument("--races", default="250,2500", help="races at once, comma-separated")
    parser.add_argument("--racers", type=int, default=4, help="players per race")
    parser.add_argument("--race-pace", type=float, default=2.0, help="seconds between moves")
    parser.add_argument("--race-move-ms", type=float, help="server CPU per race move, ms")
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    plans = [plan(n, args) for n in counts]
    rows = [[what, *(fmt(p[what]) for p in plans)] for what in plans[0]]
    print(table(["players a day", *(f"{n:,}" for n in counts)], rows))
    print(
        f"\n(move {args.move_ms} ms, other request {args.request_ms} ms of server CPU; "
        f"{args.watcher_mib} MiB per 1,000 watchers; rush {args.rush:.0%} of the day's "
        f"players within ten minutes, {args.first_minute:.0%} of them in the first; "
        f"a move every {args.pace:g} s)"
    )
    if args.race_move_ms is None:
        return
    races = [int(r) for r in args.races.split(",")]
    race_plans = [race_plan(n, args) for n in races]
    rows = [[what, *(fmt(p[what]) for p in race_plans)] for what in race_plans[0]]
    print()
    print(table(["races at once", *(f"{n:,}" for n in races)], rows))
    print(
        f"\n(race move {args.race_move_ms} ms of server CPU; {args.racers} players a race, "
        f"a move every {args.race_pace:g} s each)"
    )


if __name__ == "__main__":
    main()
