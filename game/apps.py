from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Yahtzee"

    def ready(self) -> None:
        from django.conf import settings

        from game.ai import set_strategy_dir

        # Strategy tables live where the settings say (game.ai itself knows no Django).
        set_strategy_dir(getattr(settings, "STRATEGY_DIR", None))
