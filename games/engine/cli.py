"""`python -m games.engine`: the engine's command line, also the contract other tools use.

Commands (GAME is munger or masterpiece; M is a move history, tokens separated by spaces):

  deal GAME SEED                                   print the deal string of SEED
  show GAME (--seed N | --deal D) [--moves M] [--player]
                                                   draw the position as text
  legal GAME (--seed N | --deal D) [--moves M]     print {"legal": [sorted moves]}
  replay GAME (--seed N | --deal D) --moves M      print the verdict as JSON
  batch                                            JSON requests on stdin, one verdict a line
  solve GAME (--seed N | --deal D) [--time-limit S] [--node-limit N] [--table-limit N]
        [--par-time S]                             decide the deal; print status, par, line

Exit status: 0 on success (for replay: the history is valid; for solve: any verdict, solved,
unsolvable or unknown), 1 when a history holds an illegal move, 2 when the input itself is
malformed (unknown game, bad seed or deal, malformed move
token), with a message on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from .base import Game
from .errors import EngineError, MalformedError
from .moves import split_moves
from .registry import GAMES, game_class
from .replay import ReplayResult, replay_game

EXIT_OK, EXIT_INVALID, EXIT_MALFORMED = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own exit code 2 matches ours
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m games.engine",
        description="Rules engine of Patience Daily (Munger and Masterpiece).",
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("deal", help="print the deal string of a seed")
    p.add_argument("game")
    p.add_argument("seed")

    for name, text in (
        ("show", "draw a position as text"),
        ("legal", "list the legal moves as JSON"),
        ("replay", "verify a move history"),
    ):
        p = commands.add_parser(name, help=text)
        p.add_argument("game")
        source = p.add_mutually_exclusive_group(required=True)
        source.add_argument("--seed")
        source.add_argument("--deal")
        p.add_argument(
            "--moves",
            nargs="+",
            default=[],
            required=name == "replay",
            help="move tokens, as one string or several arguments",
        )
        if name == "show":
            p.add_argument("--player", action="store_true", help="only what a player may see")

    commands.add_parser("batch", help="verify JSON requests read from standard input")

    p = commands.add_parser("solve", help="decide a deal; print the certificate, par, difficulty")
    p.add_argument("game")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed")
    source.add_argument("--deal")
    p.add_argument("--time-limit", type=_positive(float), default=10.0, help="seconds (10)")
    p.add_argument("--node-limit", type=_positive(int), default=None, help="positions tried")
    p.add_argument(
        "--table-limit",
        type=_positive(int),
        default=3_000_000,
        help="positions kept in the transposition table (3,000,000)",
    )
    p.add_argument(
        "--par-time",
        type=_positive(float),
        default=None,
        help="seconds for shortening the line (default: as long as deciding took, at least 3)",
    )
    return parser


def _positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
        return value

    return parse


def parse_seed(text: str) -> int:
    try:
        seed = int(text, 10)
    except (TypeError, ValueError):
        raise MalformedError(f"a seed is a whole number, not {text!r}") from None
    if not 0 <= seed < 1 << 64:
        raise MalformedError(f"a seed is from 0 to 2^64-1, not {seed}")
    return seed


def _start(args: argparse.Namespace) -> Game:
    cls = game_class(args.game)
    if args.deal is not None:
        return cls.from_deal(args.deal)
    return cls.from_seed(parse_seed(args.seed))


def _tokens(args: argparse.Namespace) -> list[str]:
    return [token for chunk in args.moves for token in split_moves(chunk)]


def _exit_for(result: ReplayResult) -> int:
    if result.valid:
        return EXIT_OK
    assert result.error is not None
    return EXIT_MALFORMED if result.error.kind == "malformed" else EXIT_INVALID


def _play_or_fail(game: Game, args: argparse.Namespace, err: TextIO) -> int:
    result = replay_game(game, _tokens(args))
    if result.error is not None:
        e = result.error
        print(f"error: move {e.index} {e.move!r}: {e.reason}", file=err)
    return _exit_for(result)


def main(
    argv: list[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
    except UsageError as exc:
        print(f"error: {exc}\n(see python -m games.engine --help)", file=err)
        return EXIT_MALFORMED
    try:
        if args.command == "deal":
            print(game_class(args.game).deal_for_seed(parse_seed(args.seed)), file=out)
            return EXIT_OK
        if args.command == "batch":
            run_batch(stdin or sys.stdin, out)
            return EXIT_OK
        game = _start(args)
        if args.command == "solve":
            from .solver import solve

            solved = solve(
                game.name,
                game.deal or "",
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                table_limit=args.table_limit,
                par_time=args.par_time,
            )
            print(json.dumps(solved.to_json()), file=out)
            return EXIT_OK
        if args.command == "replay":
            result = replay_game(game, _tokens(args))
            print(json.dumps(result.to_json()), file=out)
            if result.error is not None:
                e = result.error
                print(f"error: move {e.index} {e.move!r}: {e.reason}", file=err)
            return _exit_for(result)
        status = _play_or_fail(game, args, err)
        if status != EXIT_OK:
            return status
        if args.command == "legal":
            print(json.dumps({"legal": [m.text for m in game.legal_moves()]}), file=out)
        else:
            print(game.render(player=args.player), file=out)
        return EXIT_OK
    except EngineError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_MALFORMED


def verdict_for_request(line: str) -> dict[str, Any]:
    """One batch request (a JSON line) to its verdict; never raises on bad input."""
    try:
        request = json.loads(line)
    except ValueError as exc:
        return ReplayResult.malformed_request(f"not valid JSON: {exc}").to_json()
    try:
        game = _game_for_request(request)
    except EngineError as exc:
        return ReplayResult.malformed_request(str(exc)).to_json()
    moves = request.get("moves", [])
    if isinstance(moves, str):
        moves = split_moves(moves)
    elif not isinstance(moves, list):
        return ReplayResult.malformed_request("moves is a list of move tokens").to_json()
    return replay_game(game, moves).to_json()


def _game_for_request(request: Any) -> Game:
    if not isinstance(request, dict):
        raise MalformedError("a request is a JSON object")
    unknown = set(request) - {"game", "deal", "seed", "moves"}
    if unknown:
        raise MalformedError(f"unknown fields {sorted(unknown)}")
    cls = game_class(request.get("game"))  # type: ignore[arg-type]
    has_deal, has_seed = "deal" in request, "seed" in request
    if has_deal == has_seed:
        raise MalformedError("give exactly one of deal and seed")
    if has_deal:
        if not isinstance(request["deal"], str):
            raise MalformedError("deal is a string of 52 card codes")
        return cls.from_deal(request["deal"])
    seed = request["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise MalformedError("seed is an integer from 0 to 2^64-1")
    return cls.from_seed(parse_seed(str(seed)))


def run_batch(lines: Iterable[str], out: TextIO) -> None:
    for line in lines:
        if not line.strip():
            continue
        print(json.dumps(verdict_for_request(line)), file=out, flush=True)


__all__ = ["GAMES", "main", "run_batch", "verdict_for_request"]
