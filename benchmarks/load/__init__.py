"""Websocket load generator: rooms of bot players and watchers against real Daphne processes.

Run ``python -m benchmarks.load --help``; docs/benchmarks.md explains the figures.
"""

import os

import django

# The generator reads frames with game.protocol, whose package loads the models: Django first.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django.setup()
