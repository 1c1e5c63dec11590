"""Names that say what they hold (deal strings, an attempt's daily), resignation instead of
"stuck" (a position with no card move no longer ends an attempt), scheduler spares marked by a
field, revocable player tokens, display-name keys, and per-move server times."""

from django.db import migrations, models
import django.db.models.deletion

from games.names import name_key
from games.triggers import drop_sqlite_triggers, reinstall_sqlite_triggers

SCHEDULER_NOTE = "Dealt by the daily scheduler."


def forwards(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    Attempt = apps.get_model("games", "Attempt")
    Player = apps.get_model("games", "Player")
    Deal.objects.filter(notes=SCHEDULER_NOTE).update(dealt_by_scheduler=True, notes="")
    # A dead end no longer ends an attempt: those attempts are open again.
    Attempt.objects.filter(status="stuck").update(
        status="playing", finished_at=None, verified=False, verified_at=None
    )
    Attempt.objects.filter(status="abandoned").update(status="resigned")
    seen = set()
    for player in Player.objects.order_by("pk"):
        key = name_key(player.display_name)
        if key in seen:  # look-alike names made before keys existed: the later one is renamed
            player.display_name = f"Player {player.pk}"
            key = name_key(player.display_name)
        seen.add(key)
        player.name_key = key
        player.save(update_fields=["display_name", "name_key"])


def backwards(apps, schema_editor):
    Attempt = apps.get_model("games", "Attempt")
    Deal = apps.get_model("games", "Deal")
    Attempt.objects.filter(status="resigned").update(status="abandoned")
    Deal.objects.filter(dealt_by_scheduler=True).update(notes=SCHEDULER_NOTE)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_schedulable_deal_triggers"),
        migrations.swappable_dependency("auth.User"),
    ]

    operations = [
        migrations.RunPython(drop_sqlite_triggers, reinstall_sqlite_triggers),
        migrations.RemoveConstraint(model_name="deal", name="deal_unique_per_game"),
        migrations.RenameField(model_name="deal", old_name="deal", new_name="deal_string"),
        migrations.AlterField(
            model_name="deal",
            name="deal_string",
            field=models.CharField(
                help_text="The deal string (docs/rules.md, deal strings).", max_length=155
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                fields=("game", "deal_string"), name="deal_unique_per_game"
            ),
        ),
        migrations.AddField(
            model_name="deal",
            name="dealt_by_scheduler",
            field=models.BooleanField(
                default=False,
                help_text="A candidate the scheduler dealt; solved ones are its spares for "
                "other days.",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="attempt", name="attempt_one_ranked_per_player_and_daily"
        ),
        migrations.RemoveConstraint(model_name="attempt", name="attempt_ranked_only_on_a_daily"),
        migrations.RemoveIndex(model_name="attempt", name="games_attem_challen_463d5e_idx"),
        migrations.RenameField(model_name="attempt", old_name="challenge", new_name="daily"),
        migrations.RenameField(model_name="attempt", old_name="deal", new_name="deal_string"),
        migrations.AddConstraint(
            model_name="attempt",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ranked", True)),
                fields=("player", "daily"),
                name="attempt_one_ranked_per_player_and_daily",
            ),
        ),
        migrations.AddConstraint(
            model_name="attempt",
            constraint=models.CheckConstraint(
                condition=~models.Q(ranked=True) | models.Q(daily__isnull=False),
                name="attempt_ranked_only_on_a_daily",
            ),
        ),
        migrations.AddIndex(
            model_name="attempt",
            index=models.Index(
                fields=["daily", "ranked", "status"], name="games_attem_daily_i_a648fc_idx"
            ),
        ),
        migrations.AlterField(
            model_name="attempt",
            name="moves",
            field=models.JSONField(
                blank=True, default=list, help_text="The history: move tokens (docs/rules.md)."
            ),
        ),
        migrations.AddField(
            model_name="attempt",
            name="move_times",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Per move, the server's milliseconds since the start (replay ignores "
                "them).",
            ),
        ),
        migrations.AddField(
            model_name="attempt",
            name="last_move_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="attempt",
            name="status",
            field=models.CharField(
                choices=[("playing", "Playing"), ("won", "Won"), ("resigned", "Resigned")],
                default="playing",
                max_length=10,
            ),
        ),
        migrations.RemoveConstraint(model_name="player", name="player_display_name_unique_ci"),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(max_length=96, null=True),
        ),
        migrations.AlterField(
            model_name="player",
            name="last_seen_at",
            field=models.DateTimeField(
                blank=True, null=True, help_text="The last request that named this player."
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(
                help_text="The name folded for comparison (games/names.py): two names that look "
                "alike have the same key, so only one of them can exist.",
                max_length=96,
                unique=True,
            ),
        ),
        migrations.CreateModel(
            name="PlayerToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key_hash", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tokens",
                        to="games.player",
                    ),
                ),
            ],
        ),
        migrations.RunPython(reinstall_sqlite_triggers, drop_sqlite_triggers),
    ]
