"""Display-name keys read look-alike capitals of other scripts too ("МАХ" is "max"): the keys
stored before are computed again. A key that another player already holds stays as it was
(the two names were taken before the rule; neither is renamed)."""

from django.db import migrations


def recompute(apps, schema_editor):
    from games.names import name_key

    Player = apps.get_model("games", "Player")
    for player in Player.objects.only("pk", "display_name", "name_key").iterator():
        key = name_key(player.display_name)
        if key == player.name_key or Player.objects.filter(name_key=key).exists():
            continue
        Player.objects.filter(pk=player.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [("games", "0014_difficulty_cuts")]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
