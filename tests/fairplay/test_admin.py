"""The admin's review queue of held results: what it lists, the page of one result (reasons,
timing chart, replay link) and the two decisions, which go through the services (recorded,
the board following after commit)."""

from __future__ import annotations

import random

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from benchmarks.fairplay import human_game, instant_bot, rhythm_bot
from games.admin.review import timing_chart
from games.models import Attempt, ReviewDecision
from tests.fairplay.lines import own_line

pytestmark = pytest.mark.django_db

QUEUE = "admin:games_heldattempt_changelist"


def page_of(attempt: Attempt) -> str:
    return reverse("admin:games_heldattempt_change", args=[attempt.pk])


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def on_board(attempt: Attempt) -> bool:
    return Attempt.objects.filter(daily=attempt.daily).on_board().filter(pk=attempt.pk).exists()


@pytest.fixture
def results(dailies, play) -> dict[str, Attempt]:
    daily = dailies("masterpiece")
    deal = daily.deal
    return {
        "instant": play(daily, instant_bot(random.Random(1), deal.certificate)),
        "rhythm": play(daily, rhythm_bot(random.Random(2), deal.certificate)),
        "human": play(
            daily, human_game(random.Random(3), "masterpiece", deal.deal_string, own_line(daily))
        ),
    }


def test_the_queue_lists_held_results_only(admin_client, results) -> None:
    response = admin_client.get(reverse(QUEUE))
    assert response.status_code == 200
    listed = {a.pk for a in response.context["cl"].result_list}
    assert listed == {results["instant"].pk, results["rhythm"].pk}
    body = response.content.decode()
    assert "machine_rhythm" in body and "instant_first_move" in body
    assert page_of(results["instant"]) in body


def test_the_queue_is_in_the_admin_index(admin_client, results) -> None:
    body = admin_client.get(reverse("admin:index")).content.decode()
    assert reverse(QUEUE) in body


def test_the_page_shows_reasons_timing_chart_and_replay(admin_client, results) -> None:
    attempt = results["rhythm"]
    response = admin_client.get(page_of(attempt))
    assert response.status_code == 200
    body = response.content.decode()
    for reason in attempt.held_reasons:
        assert reason["rule"] in body
    assert "<svg" in body and "<polyline" in body
    assert body.count("<circle") == len(attempt.moves)
    replay = reverse("admin:games_attempt_replay", args=[attempt.pk])
    assert f'href="{replay}"' in body
    assert admin_client.get(replay).status_code == 200
    assert "coefficient of variation" in body
    assert "<script" not in body[body.index("<svg") : body.index("</svg>")]


def test_approving_from_the_page(admin_client, admin_user, results) -> None:
    attempt = results["instant"]
    note = "Checked: a speed player."
    response = admin_client.post(page_of(attempt), {"approve": "1", "note": note})
    assert response.status_code == 302 and response.url == reverse(QUEUE)
    attempt.refresh_from_db()
    assert attempt.review == Attempt.Review.APPROVED and on_board(attempt)
    decision = ReviewDecision.objects.get(attempt=attempt)
    assert decision.decision == "approved" and decision.decided_by == admin_user
    assert decision.reason == note
    assert "Approved 1 result: ranked again." in messages_of(response)
    # Decided: its page now leads to the attempt itself.
    again = admin_client.get(page_of(attempt))
    assert again.url == reverse("admin:games_attempt_change", args=[attempt.pk])


def test_disqualifying_from_the_page_needs_a_reason(admin_client, admin_user, results) -> None:
    attempt = results["rhythm"]
    response = admin_client.post(page_of(attempt), {"disqualify": "1", "reason": "  "})
    assert response.status_code == 200
    assert response.context["disqualify_form"].errors["reason"]
    attempt.refresh_from_db()
    assert attempt.review == Attempt.Review.HELD and not ReviewDecision.objects.exists()

    response = admin_client.post(page_of(attempt), {"disqualify": "1", "reason": "A timer bot."})
    assert response.status_code == 302
    attempt.refresh_from_db()
    assert attempt.disqualified and attempt.disqualified_reason == "A timer bot."
    assert not on_board(attempt)
    decision = ReviewDecision.objects.get(attempt=attempt)
    assert (decision.decision, decision.decided_by) == ("disqualified", admin_user)


def test_the_queue_actions(admin_client, results, django_capture_on_commit_callbacks) -> None:
    instant, rhythm = results["instant"], results["rhythm"]
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            reverse(QUEUE), {"action": "approve", "_selected_action": [instant.pk]}
        )
    assert response.status_code == 302 and len(callbacks) >= 1
    instant.refresh_from_db()
    assert instant.review == Attempt.Review.APPROVED and on_board(instant)

    data = {"action": "disqualify", "_selected_action": [rhythm.pk]}
    asked = admin_client.post(reverse(QUEUE), data)
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    done = admin_client.post(reverse(QUEUE), {**data, "apply": "1", "reason": "Bot."})
    assert done.status_code == 302
    rhythm.refresh_from_db()
    assert rhythm.disqualified and rhythm.disqualified_reason == "Bot."
    assert not Attempt.objects.held().exists()
    assert admin_client.get(reverse(QUEUE)).context["cl"].result_count == 0


def test_a_viewer_without_change_permission_cannot_decide(client, results, django_user_model):
    from django.contrib.auth.models import Permission

    viewer = django_user_model.objects.create_user("viewer", password="x", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_heldattempt"))
    client.force_login(viewer)
    attempt = results["instant"]
    page = client.get(page_of(attempt))
    assert page.status_code == 200 and b'name="approve"' not in page.content
    assert client.post(page_of(attempt), {"approve": "1"}).status_code == 403
    attempt.refresh_from_db()
    assert attempt.review == Attempt.Review.HELD


def test_the_chart_is_escaped_svg_without_moves_too() -> None:
    assert "No move" in timing_chart([], [])
    svg = timing_chart(["T1>T2", "U", "T1>T2"], [1000, 2000, 2500])
    assert svg.startswith("<svg") and "T1&gt;T2" in svg and 'fill="#c0392b"' in svg


def test_a_players_ranked_wins_leave_out_a_held_result(admin_client, results) -> None:
    """The players' list counts ranked wins by the board's rule: a win held for review is not
    one until it is approved."""
    held, human = results["instant"], results["human"]
    assert held.review == Attempt.Review.HELD and held.status == Attempt.Status.WON

    listed = admin_client.get(reverse("admin:games_player_changelist"))
    wins = {p.pk: p.win_count for p in listed.context["cl"].result_list}

    assert wins[held.player_id] == 0
    assert wins[human.player_id] == (1 if on_board(human) and human.status == "won" else 0)


def test_the_page_shows_the_attempts_that_may_be_the_same_persons(admin_client, dailies) -> None:
    """The probe that uncovered the deal and the bot that won it look unrelated by name; the
    page ties them by address and network, and the bot's earlier day by its browser."""
    from games import services
    from tests.games import factories

    daily = dailies("munger")
    probe_player, bot_player, stranger = (factories.player(n) for n in ("probe", "bot", "far"))
    probe, _ = services.attempt_start(
        player=probe_player, daily=daily, device="d1" * 32, address="203.0.113.5"
    )
    far, _ = services.attempt_start(
        player=stranger, daily=daily, device="d3" * 32, address="198.51.100.1"
    )
    bot, _ = services.attempt_start(
        player=bot_player, daily=daily, device="d2" * 32, address="203.0.113.9"
    )
    Attempt.objects.filter(pk=bot.pk).update(
        review=Attempt.Review.HELD, held_reasons=[{"rule": "too_fast", "detail": "..."}]
    )

    page = admin_client.get(page_of(bot)).content.decode()

    linked = page.split('id="pd-linked"', 1)[1].split("</table>", 1)[0]
    assert str(probe) in linked and "network" in linked
    assert str(far) not in linked
    assert "203.0.113.9" in page and "203.0.113.0/24" in page


def test_the_linked_attempts_show_their_timings_one_after_the_other(
    admin_client, dailies, fake_clock
) -> None:
    """A probe that uncovered the deal and the win that used it read as a timeline: each
    linked attempt of the same daily with when it started, how soon it moved, how it ended,
    its moves, play time and result, in the order they started, the held one among them."""
    import datetime as dt

    from games import services
    from tests.games import factories

    daily = dailies("munger")
    nine = fake_clock.at
    probe_player, bot_player = factories.player("probe"), factories.player("bot")
    probe, _ = services.attempt_start(
        player=probe_player, daily=daily, device="d1" * 32, address="203.0.113.5"
    )
    times = (2.5, 4.0, 9.0)
    for seq, (move, after) in enumerate(zip(daily.deal.certificate[:3], times, strict=True)):
        fake_clock.set(nine + dt.timedelta(seconds=after))
        services.attempt_play(attempt_id=probe.pk, player=probe_player, seq=seq, move=move)
    fake_clock.set(nine + dt.timedelta(minutes=5))
    bot, _ = services.attempt_start(
        player=bot_player, daily=daily, device="d2" * 32, address="203.0.113.9"
    )
    Attempt.objects.filter(pk=bot.pk).update(
        review=Attempt.Review.HELD, held_reasons=[{"rule": "too_fast", "detail": "..."}]
    )

    page = admin_client.get(page_of(bot)).content.decode()

    table = page.split('id="pd-linked"', 1)[1].split("</table>", 1)[0]
    header, rows = table.split("</thead>", 1)
    for column in ("started", "first move", "finished", "moves", "play time", "result"):
        assert f">{column}<" in header
    probe_row, bot_row = rows.split("</tr>")[:2]
    assert str(probe) in probe_row and "network" in probe_row
    assert "09:00:00" in probe_row and "+2.5 s" in probe_row and "playing" in probe_row
    assert "3 (0 undos)" in probe_row and "69 s" in probe_row and "ranked, " in probe_row
    assert "this result" in bot_row and "09:05:00" in bot_row and "no move" in bot_row
    assert "held" in bot_row


def test_the_queue_filters_by_the_rule_tripped(admin_client, results) -> None:
    listed = admin_client.get(reverse(QUEUE), {"rule": "instant_first_move"})
    shown = {a.pk for a in listed.context["cl"].result_list}

    expected = {
        a.pk
        for a in results.values()
        if a.review == Attempt.Review.HELD
        and any(r["rule"] == "instant_first_move" for r in a.held_reasons)
    }
    assert expected and shown == expected
