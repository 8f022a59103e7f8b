"""Benchmarks: figures about speed, never pass/fail tests (see docs/benchmarks.md)."""
