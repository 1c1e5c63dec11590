from django.db import migrations, models

# Added with ALTER TABLE ... ADD COLUMN and a database default, on SQLite as on PostgreSQL, as
# migration 0011 adds `hints`: Django's own AddField of a NOT NULL column rebuilds the table on
# SQLite. The database keeps the default (""), harmlessly: the ORM always writes the value.
ADD = 'ALTER TABLE "games_attempt" ADD COLUMN "client_network56" varchar(64) DEFAULT \'\' NOT NULL'
DROP = 'ALTER TABLE "games_attempt" DROP COLUMN "client_network56"'


def fill(apps, schema_editor):
    """The /56 of every IPv6 address kept so far (addresses are kept 30 days)."""
    import ipaddress

    Attempt = apps.get_model("games", "Attempt")
    kept = Attempt.objects.filter(client_address__contains=":").only("id", "client_address")
    for attempt in kept.iterator():
        ip = ipaddress.ip_address(attempt.client_address)
        if ip.ipv4_mapped is None:
            wide = str(ipaddress.ip_network(f"{ip}/56", strict=False))
            Attempt.objects.filter(pk=attempt.pk).update(client_network56=wide)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_attempt_ranked_by_network"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(ADD, DROP)],
            state_operations=[
                migrations.AddField(
                    model_name="attempt",
                    name="client_network56",
                    field=models.CharField(
                        blank=True,
                        default="",
                        help_text="An IPv6 address's /56: what a provider gives one customer, "
                        "whose router hands out /64s from it (games/addresses.py); empty for "
                        "IPv4.",
                        max_length=64,
                    ),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="attempt",
            index=models.Index(
                condition=models.Q(("ranked", True)),
                fields=["daily", "client_network56"],
                name="attempt_ranked_by_network56",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
