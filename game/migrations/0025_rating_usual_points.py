from django.db import migrations, models
from django.db.models import Count, F, Sum


def sum_own_rated_games(apps, schema_editor):
    """Each rating's sums from the results it counted already (the person's own play only)."""
    GameResult = apps.get_model("game", "GameResult")
    PlayerRating = apps.get_model("game", "PlayerRating")
    own = (GameResult.objects.filter(rated=True, autoplay=False, player__isnull=False)
           .values("player_id", "rules")
           .annotate(n=Count("id"), points=Sum(F("final") - F("luck")),
                     loss=Sum("graded_loss")))
    for row in own:
        PlayerRating.objects.filter(player_id=row["player_id"], ruleset=row["rules"]).update(
            own_games=row["n"], points_sum=row["points"] or 0.0, loss_sum=row["loss"] or 0.0)


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0024_player_plays_over_days"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerrating",
            name="own_games",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="playerrating",
            name="points_sum",
            field=models.FloatField(default=0.0),
        ),
        migrations.AddField(
            model_name="playerrating",
            name="loss_sum",
            field=models.FloatField(default=0.0),
        ),
        migrations.RunPython(sum_own_rated_games, migrations.RunPython.noop),
    ]
