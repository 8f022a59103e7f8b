from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0005_room_turn_time"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="practice",
            field=models.BooleanField(default=False),
        ),
    ]
