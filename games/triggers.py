"""The database triggers that keep every daily on a schedulable deal (see migration 0002).

SQLite drops a table's triggers when Django rebuilds the table (it does so to add most
columns), so any migration that alters `games_deal` or `games_dailychallenge` on SQLite must
install them again: such a migration runs `drop_sqlite_triggers` first (SQLite refuses to
rebuild a table that a trigger names) and `reinstall_sqlite_triggers` last.
"""

from __future__ import annotations

from typing import Any

READY = (
    "{t}.curation = 'approved' AND {t}.solver_status = 'solved' AND {length}({t}.certificate) > 0"
)

_SQLITE_DAILY_CHECK = f"""
    WHEN NOT EXISTS (
        SELECT 1 FROM games_deal d
        WHERE d.id = NEW.deal_id AND {READY.format(t="d", length="json_array_length")}
    )
    BEGIN SELECT RAISE(ABORT, 'deal is not approved with a certificate'); END;
"""

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_daily_deal_is_schedulable_insert;",
    "DROP TRIGGER IF EXISTS games_daily_deal_is_schedulable_update;",
    "DROP TRIGGER IF EXISTS games_scheduled_deal_stays_ready;",
]

SQLITE = [
    *SQLITE_DROP,
    "CREATE TRIGGER games_daily_deal_is_schedulable_insert BEFORE INSERT ON games_dailychallenge"
    + _SQLITE_DAILY_CHECK,
    "CREATE TRIGGER games_daily_deal_is_schedulable_update BEFORE UPDATE OF deal_id"
    " ON games_dailychallenge" + _SQLITE_DAILY_CHECK,
    f"""
    CREATE TRIGGER games_scheduled_deal_stays_ready BEFORE UPDATE ON games_deal
    WHEN EXISTS (SELECT 1 FROM games_dailychallenge c WHERE c.deal_id = NEW.id)
         AND NOT ({READY.format(t="NEW", length="json_array_length")})
    BEGIN SELECT RAISE(ABORT, 'a scheduled deal must stay approved with a certificate'); END;
    """,
]


def reinstall_sqlite_triggers(apps: Any, schema_editor: Any) -> None:
    """A migration step: on SQLite, (re)create the triggers; elsewhere nothing."""
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        for statement in SQLITE:
            cursor.execute(statement)


def drop_sqlite_triggers(apps: Any, schema_editor: Any) -> None:
    """A migration step: on SQLite, drop the triggers before tables are rebuilt."""
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        for statement in SQLITE_DROP:
            cursor.execute(statement)
