from django.db import migrations, models

#: The longest pause the clock counts (Attempt.MAX_PAUSE_MS when this was written).
MAX_PAUSE_MS = 60_000


def counted(move_times):
    total, previous = 0, 0
    for moment in move_times:
        total += min(MAX_PAUSE_MS, max(0, moment - previous))
        previous = moment
    return total


def fill(apps, schema_editor):
    Attempt = apps.get_model("games", "Attempt")
    for attempt in Attempt.objects.filter(move_count__gt=0).only("id", "moves", "move_times"):
        Attempt.objects.filter(pk=attempt.pk).update(
            counted_ms=counted(attempt.move_times), undo_count=attempt.moves.count("U")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_attempt_perfection"),
    ]

    operations = [
        migrations.AddField(
            model_name="attempt",
            name="counted_ms",
            field=models.PositiveBigIntegerField(
                blank=True,
                help_text="The clock up to the last move: the sum of the gaps between moves (the "
                "first from the start), each counted up to Attempt.MAX_PAUSE_MS (empty: no move "
                "yet).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="attempt",
            name="undo_count",
            field=models.PositiveIntegerField(
                blank=True, help_text="How many of the moves are undos (empty: no move yet).", null=True
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
