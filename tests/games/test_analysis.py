"""The analysis of a game (games/services/analysis.py, /api/attempts/<id>/analysis/): asked for
once by its player, worked out in the background, kept; never for a daily still played for
rank, nor for a racer while the race on its deal runs."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services, signals
from games.models import Analysis, Attempt, Deal
from tests.games import factories
from tests.games.test_api import assert_error, client_of


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.ANALYSIS_SECONDS = 20.0
    settings.ANALYSIS_POSITION_SECONDS = 1.0


@pytest.fixture
def asked() -> list[int]:
    """The attempts whose analysis was asked for, as the signal's receivers hear it."""
    heard: list[int] = []

    def listen(sender, attempt_id, **kwargs):
        heard.append(attempt_id)

    signals.analysis_requested.connect(listen, dispatch_uid="test-analysis")
    yield heard
    signals.analysis_requested.disconnect(dispatch_uid="test-analysis")


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`with committed():` runs what was left for after commit when the block ends."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def url(attempt: Attempt) -> str:
    return f"/api/attempts/{attempt.pk}/analysis/"


def resigned_practice(player, moves: int = 6, game: str = "masterpiece") -> Attempt:
    """A practice of a certified deal: the start of its solver's line, then resigned."""
    deal = factories.certified_deal(game)
    attempt, _ = services.attempt_start_practice(player=player, game=game, seed=int(deal.seed))
    for seq, token in enumerate(deal.certificate[:moves]):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=token)
    services.attempt_resign(attempt_id=attempt.pk, player=player)
    return Attempt.objects.get(pk=attempt.pk)


def test_a_finished_practice_is_analysed_once_and_kept(alice, asked, committed):
    attempt = resigned_practice(alice)
    client = client_of(alice)
    state = client.get(f"/api/attempts/{attempt.pk}/").json()
    assert state["analysis"] == {"available": True, "opens_at": None}
    assert client.get(url(attempt)).json() == {"status": "none"}

    with committed():
        first = client.post(url(attempt))
    with committed():
        again = client.post(url(attempt))

    assert first.status_code == again.status_code == 202
    assert first.json() == {"status": "queued"}
    assert asked == [attempt.pk]  # once, after commit
    assert Analysis.objects.filter(attempt=attempt).count() == 1

    services.analysis_run(attempt_id=attempt.pk)
    done = client.get(url(attempt))

    assert done.status_code == 200
    report = done.json()
    assert report["status"] == "done" and report["outcome"] == "resigned"
    assert report["moves"] == 6 and len(report["steps"]) == 6
    assert [p["index"] for p in report["points"]] == list(range(7))
    assert report["par"] == Deal.objects.get(deal_string=attempt.deal_string).par
    # Along the solver's line each move brings the win one move closer (when settled).
    exact = [p["distance"] for p in report["points"] if p["status"] == "exact"]
    assert exact == sorted(exact, reverse=True)
    assert report["lost_at"] is None and report["winning_move"] is None
    assert report["over_par"] is None  # not a win
    assert report["hidden_cards"] is False
    first_best = report["points"][0]["best"]
    assert first_best is None or set(first_best) == {"move", "card", "count"}
    # A second run changes nothing; a later POST answers from the row.
    kept = Analysis.objects.get(attempt=attempt).report
    services.analysis_run(attempt_id=attempt.pk)
    assert Analysis.objects.get(attempt=attempt).report == kept
    assert client.post(url(attempt)).json()["status"] == "done"
    assert asked == [attempt.pk]


def test_a_win_reports_its_moves_over_par(alice):
    deal = factories.certified_deal("masterpiece")
    attempt, _ = services.attempt_start_practice(
        player=alice, game="masterpiece", seed=int(deal.seed)
    )
    line = list(deal.certificate)
    k = len(line) * 2 // 3  # late in the game: the budget settles every position there
    for seq, token in enumerate(line[: k + 1] + ["U"] + line[k:]):
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=token)
    assert Attempt.objects.get(pk=attempt.pk).status == Attempt.Status.WON
    client = client_of(alice)
    client.post(url(attempt))
    services.analysis_run(attempt_id=attempt.pk)

    report = client.get(url(attempt)).json()

    assert report["outcome"] == "won" and report["moves"] == len(line) + 2
    assert report["par"] == deal.par
    assert report["over_par"] == len(line) + 2 - deal.par
    assert report["points"][-1]["status"] == "won"
    # The move and its undo lost two moves, and so may the certificate's own turns: the
    # costliest three come first, each with the solver's line from where it began.
    stretches = report["stretches"]
    views = [report["start"]] + [step["view"] for step in report["steps"]]
    assert stretches and len(stretches) <= 3
    assert [s["wasted"] for s in stretches] == sorted(
        (s["wasted"] for s in stretches), reverse=True
    )
    for stretch in stretches:
        assert 1 <= stretch["from"] <= stretch["to"] <= report["moves"] and stretch["wasted"] > 0
        assert stretch["better"]["start"] == views[stretch["from"] - 1]
        assert 1 <= len(stretch["better"]["steps"]) <= stretch["to"] - stretch["from"] + 1
        assert {"move", "card", "count", "view"} <= set(stretch["better"]["steps"][0])


def test_no_analysis_of_a_ranked_daily_while_its_day_is_open(alice, travel):
    travel(dt.datetime(2026, 3, 9, 12, 0))
    daily = factories.daily("masterpiece", dt.date(2026, 3, 9))
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    assert attempt.ranked
    client = client_of(alice)
    services.attempt_play(
        attempt_id=attempt.pk, player=alice, seq=0, move=daily.deal.certificate[0]
    )
    playing = client.get(f"/api/attempts/{attempt.pk}/").json()
    assert playing["analysis"] == {"available": False, "opens_at": None}
    assert_error(client.post(url(attempt)), 409, "analysis_unfinished")

    services.attempt_resign(attempt_id=attempt.pk, player=alice)
    state = client.get(f"/api/attempts/{attempt.pk}/").json()
    assert state["analysis"] == {"available": False, "opens_at": "2026-03-10T00:05:00Z"}
    for answer in (client.post(url(attempt)), client.get(url(attempt))):
        body = assert_error(answer, 409, "analysis_not_yet")
        assert body["opens_at"] == "2026-03-10T00:05:00Z" and "00:05 UTC" in body["detail"]
    listed = client.get("/api/players/me/attempts/").json()["results"][0]
    assert listed["analysis"]["available"] is False
    assert not Analysis.objects.exists()

    travel(dt.datetime(2026, 3, 10, 0, 4))  # the grace after midnight: still ranked play
    assert_error(client.post(url(attempt)), 409, "analysis_not_yet")
    travel(dt.datetime(2026, 3, 10, 0, 6))
    assert client.post(url(attempt)).status_code == 202
    assert client.get(f"/api/attempts/{attempt.pk}/").json()["analysis"]["available"] is True


def test_a_ranked_game_left_unfinished_is_analysed_once_its_day_is_over(alice, travel):
    travel(dt.datetime(2026, 3, 9, 12, 0))
    daily = factories.daily("masterpiece", dt.date(2026, 3, 9))
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    services.attempt_play(
        attempt_id=attempt.pk, player=alice, seq=0, move=daily.deal.certificate[0]
    )
    travel(dt.datetime(2026, 3, 10, 0, 6))

    assert client_of(alice).post(url(attempt)).status_code == 202
    services.analysis_run(attempt_id=attempt.pk)
    report = client_of(alice).get(url(attempt)).json()
    assert report["outcome"] == "playing" and len(report["points"]) == 2


def test_an_unfinished_practice_or_someone_elses_game_is_refused(alice, bob):
    deal = factories.certified_deal("masterpiece")
    attempt, _ = services.attempt_start_practice(
        player=alice, game="masterpiece", seed=int(deal.seed)
    )
    assert_error(client_of(alice).post(url(attempt)), 409, "analysis_unfinished")
    services.attempt_resign(attempt_id=attempt.pk, player=alice)
    assert_error(client_of(bob).post(url(attempt)), 404, "attempt_not_found")
    assert_error(client_of(bob).get(url(attempt)), 404, "attempt_not_found")
    assert_error(client_of(alice).post("/api/attempts/999999/analysis/"), 404, "attempt_not_found")
    assert not Analysis.objects.exists()


def test_a_failed_analysis_is_asked_for_again(alice, asked, committed, monkeypatch):
    attempt = resigned_practice(alice, moves=2)
    client = client_of(alice)
    with committed():
        client.post(url(attempt))

    def broken(*args, **kwargs):
        raise RuntimeError("the solver fell over")

    monkeypatch.setattr("games.services.analysis.analyse", broken)
    with pytest.raises(RuntimeError):
        services.analysis_run(attempt_id=attempt.pk)
    failed = client.get(url(attempt))
    assert failed.status_code == 200
    assert failed.json() == {"status": "failed", "detail": "The analysis failed: ask for it again."}

    with committed():
        assert client.post(url(attempt)).status_code == 202
    assert asked == [attempt.pk, attempt.pk]


def test_reading_an_analysis_costs_a_few_queries(alice):
    attempt = resigned_practice(alice, moves=4)
    client = client_of(alice)
    client.post(url(attempt))
    services.analysis_run(attempt_id=attempt.pk)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url(attempt)).status_code == 200
    assert len(queries) <= 4, "\n".join(q["sql"][:120] for q in queries)


def test_the_analysis_is_throttled_per_player(alice, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"analyses_player": "2/min"},
    }
    attempt = resigned_practice(alice, moves=1)
    client = client_of(alice)
    assert client.post(url(attempt)).status_code == 202
    assert client.get(url(attempt)).status_code == 202
    assert_error(client.get(url(attempt)), 429, "throttled")
