"""The database itself refuses a daily whose deal is not approved with a certificate, and a
change that would leave a scheduled deal without approval or certificate.

Django cannot express a check across two tables, so these are triggers, written for each
database the project runs on (PostgreSQL in production and CI, SQLite for `make run`).
"""

from django.db import migrations

READY = "{t}.curation = 'approved' AND {t}.solver_status = 'solved' AND {length}({t}.certificate) > 0"

POSTGRES = [
    f"""
    CREATE OR REPLACE FUNCTION games_daily_deal_is_schedulable() RETURNS trigger AS $$
    BEGIN
        IF NOT EXISTS (
            SELECT 1 FROM games_deal d
            WHERE d.id = NEW.deal_id AND {READY.format(t="d", length="jsonb_array_length")}
        ) THEN
            RAISE EXCEPTION 'deal % is not approved with a certificate', NEW.deal_id
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER games_daily_deal_is_schedulable
    BEFORE INSERT OR UPDATE OF deal_id ON games_dailychallenge
    FOR EACH ROW EXECUTE FUNCTION games_daily_deal_is_schedulable();
    """,
    f"""
    CREATE OR REPLACE FUNCTION games_scheduled_deal_stays_ready() RETURNS trigger AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM games_dailychallenge c WHERE c.deal_id = NEW.id)
           AND NOT ({READY.format(t="NEW", length="jsonb_array_length")}) THEN
            RAISE EXCEPTION 'deal % is scheduled: it must stay approved with a certificate',
                NEW.id USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER games_scheduled_deal_stays_ready
    BEFORE UPDATE ON games_deal
    FOR EACH ROW EXECUTE FUNCTION games_scheduled_deal_stays_ready();
    """,
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS games_daily_deal_is_schedulable ON games_dailychallenge;",
    "DROP FUNCTION IF EXISTS games_daily_deal_is_schedulable();",
    "DROP TRIGGER IF EXISTS games_scheduled_deal_stays_ready ON games_deal;",
    "DROP FUNCTION IF EXISTS games_scheduled_deal_stays_ready();",
]

_SQLITE_DAILY_CHECK = f"""
    WHEN NOT EXISTS (
        SELECT 1 FROM games_deal d
        WHERE d.id = NEW.deal_id AND {READY.format(t="d", length="json_array_length")}
    )
    BEGIN SELECT RAISE(ABORT, 'deal is not approved with a certificate'); END;
"""
SQLITE = [
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
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS games_daily_deal_is_schedulable_insert;",
    "DROP TRIGGER IF EXISTS games_daily_deal_is_schedulable_update;",
    "DROP TRIGGER IF EXISTS games_scheduled_deal_stays_ready;",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        statements = statements_by_vendor.get(schema_editor.connection.vendor)
        if statements is None:
            raise RuntimeError(f"no schedulable-deal triggers for {schema_editor.connection.vendor}")
        with schema_editor.connection.cursor() as cursor:
            for statement in statements:  # no parameters: '%' in PL/pgSQL stays as it is
                cursor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRES_REVERSE, "sqlite": SQLITE_REVERSE}),
        )
    ]
