"""The management commands: solve_deal, schedule_dailies and verify_attempts."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games import scheduling, services
from games.models import Attempt, DailyChallenge, Deal
from tests.games import factories

MONDAY = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# -- solve_deal -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_solve_deal_solves_a_pending_deal_and_prints_the_result():
    deal = services.deal_create(game="munger", seed=11)

    out = run("solve_deal", str(deal.pk), "--time-limit", "0.5")

    deal.refresh_from_db()
    assert deal.solver_status == "solved" and deal.certificate
    assert f"Solving deal {deal.pk} (Munger seed 11) for up to 0.5 s" in out
    assert f"deal {deal.pk}: solved in " in out
    assert f"par {deal.par}, difficulty {deal.difficulty}" in out


@pytest.mark.django_db
def test_solve_deal_reports_an_unsolvable_deal():
    deal = services.deal_create(game="masterpiece", seed=5)

    out = run("solve_deal", str(deal.pk), "--time-limit", "2")

    assert f"deal {deal.pk}: unsolvable in " in out
    assert Deal.objects.get(pk=deal.pk).solver_status == "unsolvable"


@pytest.mark.django_db
def test_solve_deal_on_a_decided_deal_is_skipped_and_changes_nothing():
    deal = factories.certified_deal("masterpiece", 1)
    before = Deal.objects.values().get(pk=deal.pk)

    out = run("solve_deal", str(deal.pk))

    assert f"deal {deal.pk}: skipped, it is solved (approved)" in out
    assert Deal.objects.values().get(pk=deal.pk) == before


@pytest.mark.django_db
def test_solve_deal_with_an_unknown_id_fails():
    with pytest.raises(CommandError, match="There is no deal 999"):
        run("solve_deal", "999")


# -- schedule_dailies ------------------------------------------------------------------------


def rated(game: str, seed: int, difficulty: int, *, spare: bool = False) -> Deal:
    """An approved deal rated `difficulty`, or a spare the scheduler dealt earlier."""
    deal = factories.certified_deal(game, seed, approve=not spare)
    spare_flag = bool(spare)
    Deal.objects.filter(pk=deal.pk).update(difficulty=difficulty, dealt_by_scheduler=spare_flag)
    deal.refresh_from_db()
    return deal


@pytest.mark.django_db
def test_schedule_dailies_prints_what_it_chose_and_what_it_kept(travel):
    travel(MONDAY)
    admins = factories.daily("munger", MONDAY.date())
    monday = rated("masterpiece", 1, 2)
    tuesday = {
        "munger": rated("munger", 13, 2, spare=True),
        "masterpiece": rated("masterpiece", 4, 2),
    }

    out = run("schedule_dailies", "--days", "2")

    header, *lines = out.splitlines()
    assert header.startswith("Making sure each game has a daily on the next 2 day(s)")
    assert len(lines) == 5
    assert lines[0].startswith(f"2026-11-30 Mon munger      kept    deal {admins.deal.pk} (seed ")
    assert lines[0].endswith("approved by an admin")
    assert lines[1] == (
        f"2026-11-30 Mon masterpiece reused  deal {monday.pk} (seed 1), difficulty 2, "
        f"par {monday.par} - fits 1-2"
    )
    assert lines[2].startswith(f"2026-12-01 Tue munger      reused  deal {tuesday['munger'].pk}")
    assert lines[2].endswith(" - fits 2")
    assert lines[3].startswith(
        f"2026-12-01 Tue masterpiece reused  deal {tuesday['masterpiece'].pk}"
    )
    assert lines[4].startswith("4 dailies ensured in ")
    assert lines[4].endswith(": kept 1, reused 3")
    assert DailyChallenge.objects.count() == 4

    again = run("schedule_dailies", "--days", "2").splitlines()[1:]

    assert again[-1].endswith(": kept 4")
    assert all(" kept " in line for line in again[:-1])
    assert again[1].endswith("fits 1-2; approved by an admin")
    assert again[2].endswith("fits 2; approved by the scheduler")


@pytest.mark.django_db
def test_schedule_dailies_says_what_it_deals_as_it_goes(travel, monkeypatch):
    travel(MONDAY)
    factories.daily("munger", MONDAY.date())
    seeds = iter([5, 1])  # an unwinnable Masterpiece deal, then a winnable one
    monkeypatch.setattr(scheduling, "seed_new", lambda game: next(seeds))

    lines = run("schedule_dailies", "--days", "1", "--candidates", "1").splitlines()

    assert lines[1].startswith("  2026-11-30 masterpiece: candidate 1 (seed 5) unsolvable in ")
    assert lines[2].startswith("  2026-11-30 masterpiece: candidate 2 (seed 1) difficulty ")


@pytest.mark.django_db
def test_schedule_dailies_fails_when_a_day_is_left_empty(travel, monkeypatch):
    travel(MONDAY)
    factories.daily("munger", MONDAY.date())
    unwinnable = iter([5, 6, 7])
    monkeypatch.setattr(scheduling, "seed_new", lambda game: next(unwinnable))
    monkeypatch.setattr(scheduling, "CANDIDATES_MAX", 3)
    out = StringIO()

    with pytest.raises(CommandError, match="1 day\\(s\\) left without a daily"):
        call_command("schedule_dailies", "--days", "1", "--candidates", "2", stdout=out)

    assert (
        "2026-11-30 Mon masterpiece empty   no solvable deal among 3 candidates" in out.getvalue()
    )
    assert out.getvalue().splitlines()[-1].endswith(": kept 1, empty 1")


@pytest.mark.django_db
def test_schedule_dailies_refuses_nonsense():
    with pytest.raises(CommandError):
        run("schedule_dailies", "--days", "0")


# -- verify_attempts -------------------------------------------------------------------------


def played(player, daily: DailyChallenge, moves: list[str], *, resign: bool = False) -> Attempt:
    attempt, _ = services.attempt_start(player=player, daily=daily)
    for seq, move in enumerate(moves):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    if resign:
        services.attempt_resign(attempt_id=attempt.pk, player=player)
    attempt.refresh_from_db()
    return attempt


@pytest.fixture
def finished(travel, alice, bob):
    """Today's Masterpiece daily: alice won it with the certificate, bob gave up early."""
    travel(MONDAY)
    daily = factories.daily("masterpiece", MONDAY.date())
    won = played(alice, daily, daily.deal.certificate)
    gave_up = played(bob, daily, daily.deal.certificate[:3], resign=True)
    assert (won.status, won.verified, gave_up.status, gave_up.verified) == (
        "won",
        True,
        "resigned",
        True,
    )
    return won, gave_up


@pytest.mark.django_db
def test_verify_attempts_passes_honest_results(finished):
    assert run("verify_attempts") == "checked 2, failed 0\n"
    assert run("verify_attempts", "--game", "munger") == "checked 0, failed 0\n"
    assert run("verify_attempts", "--since", "2026-12-01") == "checked 0, failed 0\n"
    assert run("verify_attempts", "--game", "masterpiece", "--since", "2026-11-30") == (
        "checked 2, failed 0\n"
    )


@pytest.mark.django_db
def test_verify_attempts_fails_on_a_history_tampered_with_in_the_database(finished, alice):
    won, _ = finished
    Attempt.objects.filter(pk=won.pk).update(moves=won.moves[:-1])  # the winning move gone
    practice, _ = services.attempt_start_practice(player=alice, game="munger", seed=2)
    Attempt.objects.filter(pk=practice.pk).update(moves=["T9>F"], status="resigned")  # not ranked
    out = StringIO()

    with pytest.raises(CommandError) as failure:
        call_command("verify_attempts", stdout=out)

    assert failure.value.returncode == 1
    lines = out.getvalue().splitlines()
    assert lines == [
        f"attempt {won.pk} (alice, Masterpiece 2026-11-30, won): {len(won.moves)} moves stored, "
        f"{len(won.moves) - 1} replayed; 52 cards on the foundations stored, 51 replayed; "
        "stored as won, the replay does not win",
        "checked 2, failed 1",
    ]
    assert not Attempt.objects.get(pk=won.pk).verified  # the verdict is saved


@pytest.mark.django_db
def test_verify_attempts_names_an_illegal_move(finished):
    won, _ = finished
    Attempt.objects.filter(pk=won.pk).update(moves=["M1>M1", *won.moves[1:]])
    out = StringIO()

    with pytest.raises(CommandError):
        call_command("verify_attempts", stdout=out)

    assert out.getvalue().startswith(
        f"attempt {won.pk} (alice, Masterpiece 2026-11-30, won): move 0 (M1>M1) is "
    )


@pytest.mark.django_db
def test_verify_attempts_refuses_a_bad_date():
    with pytest.raises(CommandError, match="not a date"):
        run("verify_attempts", "--since", "yesterday")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_verify_attempts_exits_with_status_1_from_the_command_line(alice):
    """Run as cron or CI would: a process on the test database."""
    daily = factories.daily("masterpiece")
    won = played(alice, daily, daily.deal.certificate)
    db = connection.settings_dict
    url = (
        f"postgres://{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}"
        f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url}
    command = [sys.executable, "manage.py", "verify_attempts"]

    honest = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    Attempt.objects.filter(pk=won.pk).update(foundation_cards=13)
    tampered = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert (honest.returncode, honest.stdout) == (0, "checked 1, failed 0\n"), honest.stderr
    assert tampered.returncode == 1
    assert tampered.stdout.endswith("checked 1, failed 1\n")
    assert "13 cards on the foundations stored, 52 replayed" in tampered.stdout
    assert "1 ranked result(s) failed verification." in tampered.stderr
