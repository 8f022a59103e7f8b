"""Websocket load generator: rooms of bot players and watchers against real Daphne processes.

Run ``python -m benchmarks.load --help``; docs/benchmarks.md explains the figures.
"""
