"""The models load no numpy and no bot: a migration, the admin's field choices and the wire
format's checks do not pay for the AI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "yahtzee_site.settings"
from django.conf import settings
settings.INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "game"]
import django
django.setup()
import game.models, game.protocol.inbound
heavy = sorted(m for m in sys.modules if m == "numpy" or m.startswith(("game.ai.solver",
               "game.ai.advice", "game.services", "game.selectors")))
print(",".join(heavy))
"""


def test_importing_the_models_loads_no_numpy_and_no_bot() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.strip() == "", done.stdout
