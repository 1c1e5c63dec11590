"""`python -m games.engine`: the command-line contract (docs/engine.md, "Command line")."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from games.engine import deal
from games.engine.cli import main
from tests.engine.positions import masterpiece_won_in_56


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_module_entry_point_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "deal", "munger", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == deal("munger", 1) + "\n"


def test_deal() -> None:
    assert run("deal", "masterpiece", "42") == (0, deal("masterpiece", 42) + "\n", "")


@pytest.mark.parametrize(
    "argv",
    [
        ("deal", "chess", "1"),
        ("deal", "munger", "-1"),
        ("deal", "munger", "x"),
        ("deal", "munger", str(2**64)),
        ("deal", "munger"),
    ],
)
def test_deal_refuses_bad_input_with_exit_2(argv: tuple[str, ...]) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == "" and err.startswith("error:")


def test_legal_is_sorted_json() -> None:
    code, out, _ = run("legal", "munger", "--seed", "1")
    assert code == 0
    assert json.loads(out) == {"legal": ["R>F", "S>W", "T3>T5", "T6>T5"]}
    code, out, _ = run("legal", "munger", "--deal", deal("munger", 1), "--moves", "R>F S>W")
    assert json.loads(out)["legal"] == sorted(json.loads(out)["legal"])
    # Tokens may also come as separate arguments.
    assert run("legal", "munger", "--seed", "1", "--moves", "R>F", "S>W")[1] == out


def test_legal_after_a_bad_history_fails() -> None:
    code, out, err = run("legal", "munger", "--seed", "1", "--moves", "R>F T1>T2")
    assert (code, out) == (1, "")
    assert "move 1 'T1>T2'" in err
    code, out, err = run("legal", "munger", "--seed", "1", "--moves", "T1-T2")
    assert (code, out) == (2, "")


def test_show_draws_the_position_and_hides_cards_for_the_player() -> None:
    code, out, _ = run("show", "munger", "--seed", "1", "--player")
    assert code == 0 and "##" in out and "17 face down" in out
    assert deal("munger", 1).split()[0] not in out
    code, out, _ = run("show", "munger", "--seed", "1")
    assert "*" + deal("munger", 1).split()[0] in out
    code, out, _ = run("show", "masterpiece", "--seed", "1", "--moves", "M5>M7")
    assert code == 0 and "Masterpiece" in out


def test_show_needs_exactly_one_of_seed_and_deal() -> None:
    assert run("show", "munger")[0] == 2
    assert run("show", "munger", "--seed", "1", "--deal", deal("munger", 1))[0] == 2


def test_replay_exit_codes_and_verdict() -> None:
    deal_string, moves = masterpiece_won_in_56()
    code, out, err = run("replay", "masterpiece", "--deal", deal_string, "--moves", " ".join(moves))
    verdict = json.loads(out)
    assert code == 0 and err == ""
    assert verdict == {
        "valid": True,
        "won": True,
        "moves": 56,
        "foundation_cards": 52,
        "legal": [],
        "error": None,
    }

    code, out, err = run("replay", "munger", "--seed", "1", "--moves", "R>F T1>T2")
    assert code == 1 and json.loads(out)["error"]["index"] == 1 and "T1>T2" in err

    code, out, err = run("replay", "munger", "--seed", "1", "--moves", "R>F Z9>Q")
    assert code == 2 and json.loads(out)["error"]["move"] == "Z9>Q" and "Z9" in err

    code, out, err = run("replay", "munger", "--deal", "AC 2C", "--moves", "S>W")
    assert code == 2 and out == "" and "52" in err

    assert run("replay", "munger", "--seed", "1")[0] == 2  # --moves is required


def test_batch_answers_every_line_in_order_without_stopping() -> None:
    deal_string, moves = masterpiece_won_in_56()
    requests = [
        json.dumps({"game": "masterpiece", "deal": deal_string, "moves": moves}),
        "not json",
        json.dumps({"game": "munger", "seed": 1, "moves": "R>F S>W"}),
        json.dumps({"game": "chess", "seed": 1, "moves": []}),
        "",
        json.dumps({"game": "munger", "seed": 1, "deal": deal("munger", 1), "moves": []}),
        json.dumps({"game": "munger", "seed": 1, "moves": ["R>F", 7]}),
        json.dumps({"game": "munger", "deal": "AC", "moves": []}),
        json.dumps({"game": "masterpiece", "seed": 1, "moves": ["U"]}),
        json.dumps(["munger", 1]),
        json.dumps({"game": "munger", "seed": 1, "moves": {"a": 1}}),
        json.dumps({"game": "munger", "seed": -5, "moves": []}),
    ]
    code, out, _ = run("batch", stdin="\n".join(requests) + "\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 11  # the blank line is not a request
    keys = ["valid", "won", "moves", "foundation_cards", "legal", "error"]
    assert all(list(line) == keys for line in lines)
    assert lines[0]["valid"] and lines[0]["won"] and lines[0]["moves"] == 56
    assert lines[1]["error"]["index"] is None and "JSON" in lines[1]["error"]["reason"]
    assert lines[2] == {
        "valid": True,
        "won": False,
        "moves": 2,
        "foundation_cards": 1,
        "legal": lines[2]["legal"],
        "error": None,
    }
    assert "unknown game" in lines[3]["error"]["reason"]
    for malformed in (lines[3], lines[4], lines[6], lines[8], lines[9], lines[10]):
        assert not malformed["valid"] and malformed["error"]["index"] is None
        assert malformed["moves"] == 0 and malformed["legal"] == []
    assert lines[5]["error"]["index"] == 1 and lines[5]["moves"] == 1
    assert lines[7]["error"] == {"index": 0, "move": "U", "reason": "there is no move to undo"}
    assert lines[7]["foundation_cards"] == 4


def test_batch_through_the_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "batch"],
        input='{"game": "munger", "seed": 1, "moves": []}\nbad\n',
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert [json.loads(x)["valid"] for x in done.stdout.splitlines()] == [True, False]


def test_help_lists_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    for command in ("deal", "show", "legal", "replay", "batch"):
        assert command in done.stdout
