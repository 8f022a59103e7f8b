from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0003_game_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="turn_time",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
