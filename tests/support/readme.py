"""What the README tells an operator to run, read out of the README itself, so a test of the
recipe fails when the README and the site disagree."""

from __future__ import annotations

from benchmarks.load.services import REPO


def readme_production_env() -> dict[str, str]:
    """The ``export`` lines of the README's production section, with a real secret key."""
    env: dict[str, str] = {}
    for line in _production_block("sh").splitlines():
        if line.startswith("export "):
            env.update(pair.split("=", 1) for pair in line.removeprefix("export ").split())
    assert env.pop("SECRET_KEY") == "..."
    env["SECRET_KEY"] = "k" * 20 + "-a-long-random-production-key-" + "x" * 20
    return env


def _production_block(language: str) -> str:
    text = (REPO / "README.md").read_text()
    section = text[text.index("## Production"):]
    start = section.index(f"```{language}\n") + len(language) + 4
    return section[start:section.index("```", start)]


def readme_production_commands() -> list[str]:
    """The command lines of the README's production recipe (its ``sh`` block, no exports)."""
    return [line for line in _production_block("sh").splitlines()
            if line and not line.startswith("export ")]


def readme_nginx_config() -> str:
    """The nginx configuration of the README's production section, as written."""
    return _production_block("nginx")
