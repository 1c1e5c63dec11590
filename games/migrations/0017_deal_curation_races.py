"""A curation of its own for the deals dealt for races (`Deal.Curation.RACES`): never approved,
never a daily. The scheduler's spares that races took before (marked by a note, never
scheduled) join them, so that no deal players raced can become a daily later.

Only the field's choices change: nothing is altered in the tables (and SQLite's triggers stay).
"""

from django.db import migrations, models

#: The note `deal_take_spare` (removed) wrote on a spare it took for a race.
TAKEN_NOTE = "Dealt to players outside the daily schedule (a challenge); never to be scheduled."


def taken_spares_to_races(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    Deal.objects.filter(
        notes__contains=TAKEN_NOTE, curation="candidate", dailies__isnull=True
    ).update(curation="races")


def races_to_candidates(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    Deal.objects.filter(curation="races").update(curation="candidate")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_deal_solver_lines"),
    ]

    operations = [
        migrations.AlterField(
            model_name="deal",
            name="curation",
            field=models.CharField(
                choices=[
                    ("candidate", "Candidate"),
                    ("approved", "Approved"),
                    ("rejected", "Rejected"),
                    ("races", "Dealt for races"),
                ],
                default="candidate",
                max_length=10,
            ),
        ),
        migrations.RunPython(taken_spares_to_races, races_to_candidates),
    ]
