from django.db import migrations, models

# Added with ALTER TABLE ... ADD COLUMN and a database default, on SQLite as on PostgreSQL:
# Django's own AddField of a NOT NULL column rebuilds the table on SQLite, which would break the
# triggers of migration 0002 that name it. The database keeps the default (0), harmlessly: the
# ORM always writes the value.
ADD = (
    'ALTER TABLE "games_attempt" ADD COLUMN "hints" integer DEFAULT 0 NOT NULL '
    'CHECK ("hints" >= 0)'
)
DROP = 'ALTER TABLE "games_attempt" DROP COLUMN "hints"'


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_deal_par_proof"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(ADD, DROP)],
            state_operations=[
                migrations.AddField(
                    model_name="attempt",
                    name="hints",
                    field=models.PositiveIntegerField(
                        default=0,
                        help_text="Hints given (games/services/hints.py): practice only.",
                    ),
                ),
            ],
        ),
    ]
