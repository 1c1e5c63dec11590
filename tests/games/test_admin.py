"""Admin curation: deals, the calendar of dailies, attempts and players.

Every write the admin makes goes through `games.services`; a refusal shows as a message or a
form error, never as a 500, and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import re
from html import escape

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.urls import reverse

from games import clock, services
from games.engine import deal as deal_for_seed
from games.models import Attempt, DailyChallenge, Deal, Player
from games.state import attempt_state
from tests.games import factories

pytestmark = pytest.mark.django_db

MONDAY = dt.datetime(2030, 1, 7, 12, 0, tzinfo=dt.UTC)


def url(name: str, *args: object) -> str:
    return reverse(f"admin:games_{name}", args=args)


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def pile_cards(page: str, pile: str) -> list[tuple[str, bool]]:
    """The cards drawn in one pile of a page: (code, face down), bottom to top."""
    body = re.search(rf'data-pile="{pile}">(.*?)</div>\s*</div>', page, re.S).group(1)
    found = re.findall(r'class="([^"]*)" data-card="(\w\w)"', body)
    return [(code, "pd-down" in classes.split()) for classes, code in found]


def act(client, model: str, action: str, objects, **extra):
    """Run a changelist action on `objects`, as the action bar does."""
    data = {"action": action, "_selected_action": [o.pk for o in objects], **extra}
    return client.post(url(f"{model}_changelist"), data)


@pytest.fixture
def eager_celery():
    """Run Celery tasks inline even when REDIS_URL configures a real broker."""
    from config.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture
def monday(travel):
    travel(MONDAY)
    return MONDAY.date()


@pytest.fixture
def played_today(alice):
    """Today's masterpiece daily, which alice has started (and so played)."""
    daily = factories.daily("masterpiece")
    services.attempt_start(player=alice, daily=daily)
    return daily


def start_attempt(player, daily, moves=()):
    attempt, _ = services.attempt_start(player=player, daily=daily)
    for seq, move in enumerate(moves):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    attempt.refresh_from_db()
    return attempt


# -- every page renders ---------------------------------------------------------------------


def test_changelists_and_change_pages_render_for_every_model(admin_client, alice):
    daily = factories.daily("munger")
    attempt = start_attempt(alice, daily)
    candidate = services.deal_create(game="masterpiece", seed=5)

    for model in ("deal", "dailychallenge", "attempt", "player"):
        assert admin_client.get(url(f"{model}_changelist")).status_code == 200
    for model, obj in [
        ("deal", daily.deal),
        ("deal", candidate),
        ("dailychallenge", daily),
        ("attempt", attempt),
        ("player", alice),
    ]:
        assert admin_client.get(url(f"{model}_change", obj.pk)).status_code == 200
    assert admin_client.get(url("deal_add")).status_code == 200
    assert admin_client.get(url("dailychallenge_add")).status_code == 200


def test_applied_difficulty_cuts_are_listed_read_only(admin_client):
    services.difficulty_cuts_apply(game="munger", cuts=[0.5, 0.55, 0.6, 0.65], days=31)

    page = admin_client.get(url("difficultycuts_changelist"))

    assert page.status_code == 200 and "0.55" in page.content.decode()
    assert admin_client.get(url("difficultycuts_add")).status_code == 403


def test_deal_list_shows_status_par_difficulty_curation_and_scheduled_dates(admin_client):
    daily = factories.daily("masterpiece")

    page = admin_client.get(url("deal_changelist")).content.decode()

    assert "pd-status-solved" in page and "pd-status-approved" in page
    assert str(daily.deal.par) in page
    assert daily.date.isoformat() in page


def test_deal_search_finds_a_seed_and_a_run_of_the_deal_string(admin_client):
    wanted = services.deal_create(game="munger", seed=41)
    services.deal_create(game="munger", seed=42)

    by_seed = admin_client.get(url("deal_changelist"), {"q": "41"})
    run = " ".join(wanted.deal_string.split()[10:14]).lower()  # codes in lower case are fine here
    by_cards = admin_client.get(url("deal_changelist"), {"q": run})

    assert list(by_seed.context["cl"].result_list) == [wanted]
    assert list(by_cards.context["cl"].result_list) == [wanted]


# -- adding deals -----------------------------------------------------------------------------


def test_add_a_deal_by_seed(admin_client):
    response = admin_client.post(url("deal_add"), {"game": "munger", "seed": "77", "notes": ""})

    deal = Deal.objects.get()
    assert response.status_code == 302 and response.url == url("deal_change", deal.pk)
    assert (deal.game, deal.seed, deal.deal_string) == ("munger", "77", deal_for_seed("munger", 77))
    assert deal.curation == Deal.Curation.CANDIDATE


def test_add_a_deal_by_pasting_its_string_across_lines(admin_client):
    text = deal_for_seed("masterpiece", 3)
    pasted = text[:80] + "\n  " + text[81:] + "\n"

    response = admin_client.post(url("deal_add"), {"game": "masterpiece", "deal_string": pasted})

    deal = Deal.objects.get()
    assert response.status_code == 302
    assert deal.deal_string == text and deal.seed is None


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"deal_string": "AC 2C 3C"}, "a deal has 52 cards, this one has 3"),
        (
            {"deal_string": deal_for_seed("munger", 1).replace("7D", "7d", 1)},
            "card codes are upper case",
        ),
        (
            {"seed": "7", "deal_string": deal_for_seed("munger", 7)},
            "Give either a seed or a deal string.",
        ),
        ({}, "Give either a seed or a deal string."),
    ],
)
def test_a_bad_deal_shows_the_error_on_the_form_and_creates_nothing(admin_client, data, error):
    response = admin_client.post(url("deal_add"), {"game": "munger", **data})

    assert response.status_code == 200
    assert error in response.content.decode()
    assert response.context["adminform"].form.errors
    assert not Deal.objects.exists()


def test_adding_the_same_deal_twice_is_refused_with_a_link_to_it(admin_client):
    first = services.deal_create(game="munger", seed=5)

    response = admin_client.post(
        url("deal_add"), {"game": "munger", "deal_string": first.deal_string}
    )

    assert "This deal exists already" in response.content.decode()
    assert url("deal_change", first.pk) in response.content.decode()
    assert Deal.objects.count() == 1


# -- the deal's page: layout, progress ----------------------------------------------------------


def test_munger_change_page_draws_face_down_cards_with_their_codes(admin_client):
    deal = services.deal_create(game="munger", seed=1)
    codes = deal.deal_string.split()

    page = admin_client.get(url("deal_change", deal.pk)).content.decode()

    # T1 bottom to top holds deal cards 1, 8, 15 and 22; cards 1 and 15 lie face down.
    assert pile_cards(page, "T1") == [
        (codes[0], True),
        (codes[7], False),
        (codes[14], True),
        (codes[21], False),
    ]
    assert pile_cards(page, "R") == [(code, False) for code in codes[28:35]]
    assert pile_cards(page, "S") == [(code, True) for code in codes[35:]]  # next card first


def test_masterpiece_change_page_draws_foundations_main_rows_auxiliary_rows_and_cellar(
    admin_client,
):
    deal = services.deal_create(game="masterpiece", seed=1)
    codes = deal.deal_string.split()

    page = admin_client.get(url("deal_change", deal.pk)).content.decode()

    for pile in ("M1", "M5", "M8", "A1", "A2", "C", "F" + codes[0][1]):
        assert f'data-pile="{pile}"' in page
    assert [code for code, _ in pile_cards(page, "M1")] == codes[4:9]
    assert [code for code, _ in pile_cards(page, "A2")] == codes[48:52]


def test_a_deal_being_solved_shows_progress_and_reloads_itself(admin_client):
    deal = services.deal_create(game="masterpiece", seed=1)
    Deal.objects.filter(pk=deal.pk).update(solve_requested_at=clock.now())

    waiting = admin_client.get(url("deal_change", deal.pk)).content.decode()
    Deal.objects.filter(pk=deal.pk).update(solver_status="solving", solve_started_at=clock.now())
    solving = admin_client.get(url("deal_change", deal.pk)).content.decode()
    solved = admin_client.get(url("deal_change", factories.certified_deal().pk)).content.decode()

    assert '<meta http-equiv="refresh" content="3">' in waiting
    assert "Waiting for the solver" in waiting
    assert '<meta http-equiv="refresh"' in solving and "Solving" in solving
    assert '<meta http-equiv="refresh"' not in solved
    assert "Par: <strong>" in solved and "Replay the certificate" in solved


# -- actions on deals ---------------------------------------------------------------------------


def test_solve_now_runs_the_solver_and_stores_a_certificate(
    admin_client, eager_celery, django_capture_on_commit_callbacks
):
    deal = services.deal_create(game="masterpiece", seed=1)

    with django_capture_on_commit_callbacks(execute=True):
        response = act(admin_client, "deal", "solve_now", [deal])

    deal.refresh_from_db()
    assert response.status_code == 302
    assert deal.solver_status == Deal.SolverStatus.SOLVED
    assert deal.certificate and deal.par == len(deal.certificate)
    assert any("went to the solver" in m for m in messages_of(response))


def test_solve_now_on_an_approved_deal_is_refused_with_a_message(admin_client):
    deal = factories.certified_deal()

    response = act(admin_client, "deal", "solve_now", [deal])

    assert messages_of(response) == [f"{deal}: This deal is approved; its certificate stays."]
    assert Deal.objects.get(pk=deal.pk).solver_status == Deal.SolverStatus.SOLVED


def test_approve_and_reject_actions_change_the_curation(admin_client):
    solved = factories.certified_deal(approve=False)
    other = factories.certified_deal(approve=False)
    admin = User.objects.get(username="admin")

    approved = act(admin_client, "deal", "approve", [solved])
    rejected = act(admin_client, "deal", "reject", [other])

    solved.refresh_from_db()
    other.refresh_from_db()
    assert (solved.curation, solved.curated_by) == (Deal.Curation.APPROVED, admin)
    assert (other.curation, other.curated_by) == (Deal.Curation.REJECTED, admin)
    assert messages_of(approved) == [f"{solved} is approved."]
    assert messages_of(rejected)[-1] == f"{other} is rejected."
    assert LogEntry.objects.filter(change_message="Approved", object_id=str(solved.pk)).exists()


def test_approving_an_unsolved_deal_is_refused_with_a_message_per_deal(admin_client):
    unsolved = services.deal_create(game="munger", seed=3)
    solved = factories.certified_deal(approve=False)

    response = act(admin_client, "deal", "approve", [unsolved, solved])

    assert f"{unsolved}: Only a solved deal with a certificate can be approved." in (
        messages_of(response)
    )
    assert f"{solved} is approved." in messages_of(response)
    assert Deal.objects.get(pk=unsolved.pk).curation == Deal.Curation.CANDIDATE


def test_rejecting_a_scheduled_deal_is_refused(admin_client):
    daily = factories.daily("masterpiece")

    response = act(admin_client, "deal", "reject", [daily.deal])

    assert "unschedule it before rejecting it" in messages_of(response)[0]
    assert Deal.objects.get(pk=daily.deal_id).curation == Deal.Curation.APPROVED


def test_the_buttons_on_a_deal_page_approve_and_need_a_post(admin_client):
    deal = factories.certified_deal(approve=False)

    assert admin_client.get(url("deal_approve", deal.pk)).status_code == 405
    response = admin_client.post(url("deal_approve", deal.pk))

    assert response.url == url("deal_change", deal.pk)
    assert Deal.objects.get(pk=deal.pk).curation == Deal.Curation.APPROVED


# -- schedule on date -----------------------------------------------------------------------------


def test_schedule_on_date_asks_the_date_then_creates_the_daily(admin_client, monday):
    deal = factories.certified_deal("munger")
    day = monday + dt.timedelta(days=3)

    asked = act(admin_client, "deal", "schedule_on_date", [deal])
    form = admin_client.get(asked.url)
    done = admin_client.post(asked.url, {"date": day.isoformat()})

    assert asked.url == url("deal_schedule", deal.pk)
    assert form.status_code == 200 and form.context["form"].initial["date"] == monday
    assert done.url == url("dailychallenge_calendar")
    daily = DailyChallenge.objects.get()
    assert (daily.game, daily.date, daily.deal, daily.scheduled_by.username) == (
        "munger",
        day,
        deal,
        "admin",
    )


def test_scheduling_a_candidate_deal_is_refused_with_a_message(admin_client, monday):
    candidate = factories.certified_deal("masterpiece", approve=False)

    response = admin_client.post(url("deal_schedule", candidate.pk), {"date": "2030-01-08"})

    assert response.status_code == 200
    assert messages_of(response) == [
        f"{candidate}: Only an approved deal with a certificate can be scheduled."
    ]
    assert not DailyChallenge.objects.exists()


def test_schedule_on_date_takes_exactly_one_deal(admin_client):
    deals = [factories.certified_deal(), factories.certified_deal()]

    response = act(admin_client, "deal", "schedule_on_date", deals)

    assert messages_of(response) == ["Schedule on date works on one deal: select exactly one."]


def test_a_past_day_cannot_be_scheduled(admin_client, monday):
    deal = factories.certified_deal()

    response = admin_client.post(url("deal_schedule", deal.pk), {"date": "2030-01-06"})

    assert messages_of(response) == [f"{deal}: That day is over; its daily cannot change."]
    assert not DailyChallenge.objects.exists()


# -- daily challenges: calendar, swap, unschedule ------------------------------------------------


def test_the_calendar_shows_the_coming_days_with_their_deals_and_the_gaps(admin_client, monday):
    scheduled = factories.daily("masterpiece", monday + dt.timedelta(days=2))

    response = admin_client.get(url("dailychallenge_calendar"))
    page = response.content.decode()

    masterpiece, munger = response.context["games"][1], response.context["games"][0]
    assert len(masterpiece["gaps"]) == 27 and len(munger["gaps"]) == 28
    assert "27 gaps" in page and "28 gaps" in page
    assert page.count("pd-gap-label") == 55
    section = page[page.index('data-game="masterpiece"') :]
    cell = re.search(r'data-date="2030-01-09">(.*?)</td>', section, re.S).group(1)
    assert url("deal_change", scheduled.deal_id) in cell
    assert f"par {scheduled.deal.par}" in cell


def test_the_calendar_is_linked_from_the_dailies_list(admin_client):
    page = admin_client.get(url("dailychallenge_changelist")).content.decode()

    assert url("dailychallenge_calendar") in page


def test_swapping_the_deal_of_an_unplayed_day(admin_client, monday):
    tomorrow = factories.daily("masterpiece", monday + dt.timedelta(days=1))
    was = tomorrow.deal
    other = factories.certified_deal("masterpiece")
    day_url = url("dailychallenge_day", "masterpiece", "2030-01-08")

    form = admin_client.get(day_url)
    response = admin_client.post(day_url, {"deal": other.pk})

    assert list(form.context["form"].fields["deal"].queryset) == [other]
    assert response.url == url("dailychallenge_calendar")
    tomorrow.refresh_from_db()
    assert tomorrow.deal == other
    assert messages_of(response) == [
        f"The Masterpiece 2030-01-08 daily is {other} now (was {was})."
    ]


def test_swapping_a_played_day_is_refused_with_a_message(admin_client, played_today):
    other = factories.certified_deal("masterpiece")
    before = played_today.deal_id

    response = admin_client.post(
        url("dailychallenge_day", "masterpiece", played_today.date.isoformat()),
        {"deal": other.pk},
    )

    assert response.status_code == 200
    assert any("People have played this daily already" in m for m in messages_of(response))
    played_today.refresh_from_db()
    assert played_today.deal_id == before


def test_filling_a_gap_from_the_calendar(admin_client, monday):
    deal = factories.certified_deal("munger")

    admin_client.post(url("dailychallenge_day", "munger", "2030-01-10"), {"deal": deal.pk})

    assert DailyChallenge.objects.get(game="munger", date=dt.date(2030, 1, 10)).deal == deal


def test_deleting_a_played_day_is_refused_and_the_daily_stays(admin_client, played_today):
    response = admin_client.post(url("dailychallenge_delete", played_today.pk), {"post": "yes"})

    assert response.url == url("dailychallenge_change", played_today.pk)
    assert messages_of(response) == [
        f"{played_today}: People have played this daily already; it cannot be removed."
    ]
    assert DailyChallenge.objects.filter(pk=played_today.pk).exists()
    assert not LogEntry.objects.exists()


def test_deleting_an_unplayed_day_unschedules_it(admin_client, monday):
    daily = factories.daily("munger", monday + dt.timedelta(days=1))

    response = admin_client.post(url("dailychallenge_delete", daily.pk), {"post": "yes"})

    assert response.url == url("dailychallenge_changelist")
    assert not DailyChallenge.objects.exists()


def test_the_unschedule_action_confirms_then_keeps_played_days(admin_client, played_today):
    future = factories.daily("munger", clock.today() + dt.timedelta(days=2))

    confirm = act(admin_client, "dailychallenge", "unschedule", [played_today, future])
    done = act(admin_client, "dailychallenge", "unschedule", [played_today, future], confirm="yes")

    assert confirm.status_code == 200 and "Yes, unschedule" in confirm.content.decode()
    assert list(DailyChallenge.objects.all()) == [played_today]
    assert f"{played_today}: People have played this daily already; it cannot be removed." in (
        messages_of(done)
    )
    listed = admin_client.get(url("dailychallenge_changelist")).context["action_form"]
    assert "delete_selected" not in [name for name, _ in listed.fields["action"].choices]


def test_adding_a_daily_goes_through_the_schedule_rules(admin_client, monday):
    candidate = factories.certified_deal("munger", approve=False)
    approved = factories.certified_deal("munger")

    refused = admin_client.post(
        url("dailychallenge_add"),
        {"game": "masterpiece", "date": "2030-01-09", "deal": approved.pk},
    )
    added = admin_client.post(
        url("dailychallenge_add"), {"game": "munger", "date": "2030-01-09", "deal": approved.pk}
    )

    assert "is not a masterpiece deal" in refused.content.decode()
    assert added.status_code == 302
    assert DailyChallenge.objects.get().deal == approved
    assert candidate not in refused.context["adminform"].form.fields["deal"].queryset


# -- replays ------------------------------------------------------------------------------------


def test_the_certificate_replay_shows_step_k_and_its_move(admin_client):
    deal = factories.certified_deal("masterpiece", 1)
    replay_url = url("deal_replay", deal.pk)
    k = 3

    response = admin_client.get(replay_url, {"step": k})
    page = response.content.decode()

    assert f"Step {k} of {len(deal.certificate)}" in page
    assert f"Move {k}: <code>{escape(deal.certificate[k - 1])}</code>" in page
    for step in (0, k - 1, k + 1, len(deal.certificate)):
        assert f'href="{replay_url}?step={step}"' in page
    assert "pd-moved" in page
    assert response.context["replay"].board["game"] == "masterpiece"


def test_the_last_step_of_a_certificate_is_won(admin_client):
    deal = factories.certified_deal("munger")

    page = admin_client.get(url("deal_replay", deal.pk), {"step": 10_000}).content.decode()

    assert f"Step {len(deal.certificate)} of {len(deal.certificate)}" in page
    assert "52/52 on the foundations" in page and "<strong>won</strong>" in page


def test_an_attempt_replay_steps_through_undo(admin_client, alice):
    daily = factories.daily("munger")
    first = attempt_state(start_attempt(alice, daily)).legal[0]
    attempt = start_attempt(alice, daily, [first, "U"])

    page = admin_client.get(url("attempt_replay", attempt.pk), {"step": 2}).content.decode()

    assert "Step 2 of 2" in page
    assert "Move 2: <code>U</code> — undo; moved" in page


def test_custom_views_send_a_non_staff_user_to_the_login(client, alice):
    deal = factories.certified_deal()
    attempt = start_attempt(alice, factories.daily(deal=deal))
    client.force_login(User.objects.create_user("carol", password="not-staff-1"))

    for view in [
        url("dailychallenge_calendar"),
        url("dailychallenge_day", "masterpiece", "2030-01-01"),
        url("deal_replay", deal.pk),
        url("deal_schedule", deal.pk),
        url("attempt_replay", attempt.pk),
        url("attempt_disqualify", attempt.pk),
    ]:
        response = client.get(view)
        assert response.status_code == 302
        assert response.url.startswith(reverse("admin:login"))


# -- attempts -----------------------------------------------------------------------------------


def test_attempts_cannot_be_added_changed_or_deleted(admin_client, alice):
    attempt = start_attempt(alice, factories.daily())

    assert admin_client.get(url("attempt_add")).status_code == 403
    assert admin_client.post(url("attempt_delete", attempt.pk), {"post": "yes"}).status_code == 403
    page = admin_client.get(url("attempt_change", attempt.pk))
    assert page.context["has_change_permission"] is False
    assert page.context["has_add_permission"] is False
    listed = admin_client.get(url("attempt_changelist")).context["action_form"]
    assert [name for name, _ in listed.fields["action"].choices][1:] == ["disqualify"]
    assert Attempt.objects.filter(pk=attempt.pk).exists()


def test_disqualify_asks_for_a_reason_and_keeps_the_record(admin_client, alice, bob):
    daily = factories.daily()
    cheat, fair = start_attempt(alice, daily), start_attempt(bob, daily)

    asked = act(admin_client, "attempt", "disqualify", [cheat])
    blank = act(admin_client, "attempt", "disqualify", [cheat], apply="1", reason="  ")
    done = act(admin_client, "attempt", "disqualify", [cheat], apply="1", reason="Shared moves")

    assert asked.status_code == 200 and "reason" in asked.context["form"].fields
    assert blank.status_code == 200 and blank.context["form"].errors["reason"]
    assert done.status_code == 302
    cheat.refresh_from_db()
    assert cheat.disqualified and cheat.disqualified_reason == "Shared moves"
    assert cheat.disqualified_by.username == "admin" and cheat.disqualified_at is not None
    assert not Attempt.objects.get(pk=fair.pk).disqualified
    assert messages_of(done) == ["Disqualified 1 attempt: off the leaderboards, the records stay."]


def test_disqualify_from_the_attempt_page(admin_client, alice):
    attempt = start_attempt(alice, factories.daily())

    refused = admin_client.post(url("attempt_disqualify", attempt.pk), {"reason": ""})
    done = admin_client.post(url("attempt_disqualify", attempt.pk), {"reason": "Bot"})

    assert refused.status_code == 200 and refused.context["form"].errors
    assert done.url == url("attempt_change", attempt.pk)
    assert Attempt.objects.get(pk=attempt.pk).disqualified_reason == "Bot"


def test_attempts_filter_by_game_status_ranked_verified_and_disqualified(admin_client, alice):
    start_attempt(alice, factories.daily("munger"))
    query = {
        "game": "munger",
        "status": "playing",
        "ranked__exact": "1",
        "verified__exact": "0",
        "disqualified__exact": "0",
    }

    response = admin_client.get(url("attempt_changelist"), query)

    assert response.status_code == 200 and response.context["cl"].result_count == 1


# -- players ------------------------------------------------------------------------------------


def test_a_player_is_renamed_through_the_service_rules(admin_client, alice, bob):
    taken = admin_client.post(url("player_change", alice.pk), {"display_name": "BOB"})
    renamed = admin_client.post(url("player_change", alice.pk), {"display_name": "Alice  Smith"})

    assert "That name is taken" in taken.content.decode()
    assert renamed.status_code == 302
    assert Player.objects.get(pk=alice.pk).display_name == "Alice Smith"


def test_a_player_page_links_to_their_attempts(admin_client, alice):
    start_attempt(alice, factories.daily())

    page = admin_client.get(url("player_change", alice.pk)).content.decode()
    attempts = admin_client.get(url("attempt_changelist"), {"player__id__exact": alice.pk})

    assert f"{url('attempt_changelist')}?player__id__exact={alice.pk}" in page
    assert attempts.context["cl"].result_count == 1
    assert admin_client.get(url("player_add")).status_code == 403


def test_the_deals_offered_for_a_day_are_the_schedulable_ones():
    """The swap and add forms offer `Deal.objects.schedulable()`: approved, solved, with a
    certificate (a solved deal whose certificate is gone is not offered)."""
    from games.admin.forms import approved_deals

    offered = factories.certified_deal("masterpiece")
    emptied = factories.certified_deal("masterpiece")
    Deal.objects.filter(pk=emptied.pk).update(certificate=[])

    assert set(approved_deals("masterpiece")) == set(Deal.objects.schedulable())
    assert offered in approved_deals("masterpiece")
    assert emptied not in approved_deals("masterpiece")


@pytest.mark.parametrize("object_id", ["abc", "99999999", "1%2F2"])
def test_every_admin_page_of_one_object_answers_an_id_that_is_no_object(admin_client, object_id):
    from django.apps import apps
    from django.contrib import admin

    seen = 0
    for model in apps.get_models():
        if not admin.site.is_registered(model):
            continue
        for pattern in admin.site.get_model_admin(model).get_urls():
            if "object_id" not in str(pattern.pattern) or not pattern.name:
                continue
            seen += 1
            address = reverse(f"admin:{pattern.name}", args=[object_id])
            for page in (admin_client.get(address), admin_client.post(address)):
                assert page.status_code in (302, 403, 404, 405), (pattern.name, page.status_code)
    assert seen >= 10
