"""A backup is one only once it restores: `make backup` dumps the database into a folder outside
the checkout, `make restore` loads a dump into a new database and replays every finished ranked
result from it (`verify_attempts`), every history verified."""

from __future__ import annotations

import subprocess
import uuid

import pytest
from django.db import connection

from games import services
from games.models import Attempt
from tests.config.support import strong_key
from tests.games import factories
from tests.support import ROOT, clean_env, database_url

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def make(target: str, **variables: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", target, *(f"{k}={v}" for k, v in variables.items())],
        cwd=ROOT,
        env=clean_env(SECRET_KEY=strong_key()),
        capture_output=True,
        text=True,
        timeout=300,
    )


def psql(url: str, sql: str) -> str:
    done = subprocess.run(["psql", url, "-Atc", sql], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_a_dump_restores_into_a_new_database_and_every_history_verifies(tmp_path):
    alice, bob = factories.player("alice"), factories.player("bob")
    daily = factories.daily("masterpiece")
    won, _ = services.attempt_start(player=alice, daily=daily)
    for seq, move in enumerate(daily.deal.certificate):
        services.attempt_play(attempt_id=won.pk, player=alice, seq=seq, move=move)
    resigned, _ = services.attempt_start(player=bob, daily=daily)
    services.attempt_play(attempt_id=resigned.pk, player=bob, seq=0, move=daily.deal.certificate[0])
    services.attempt_resign(attempt_id=resigned.pk, player=bob)
    assert Attempt.objects.filter(verified=True).count() == 2

    source = database_url()
    backups = tmp_path / "backups"
    done = make("backup", DATABASE_URL=source, BACKUP_DIR=str(backups))
    assert done.returncode == 0, done.stderr
    [dump] = list(backups.glob("patience-*.dump"))

    restored_name = f"{connection.settings_dict['NAME']}_restored_{uuid.uuid4().hex[:6]}"
    restored = source.rsplit("/", 1)[0] + f"/{restored_name}"
    psql(source, f'CREATE DATABASE "{restored_name}"')
    try:
        done = make("restore", DATABASE_URL=restored, DUMP=str(dump))
        assert done.returncode == 0, done.stdout + done.stderr
        assert "checked 2, failed 0" in done.stdout
        assert psql(restored, "SELECT count(*) FROM games_attempt") == "2"
        assert psql(restored, "SELECT count(*) FROM games_attempt WHERE verified") == "2"
    finally:
        psql(source, f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)')


def test_a_backup_is_never_written_into_the_checkout():
    done = make("backup", DATABASE_URL=database_url(), BACKUP_DIR=str(ROOT / "backups"))
    assert done.returncode == 2 and "outside the checkout" in done.stderr
    assert not (ROOT / "backups").exists()
