"""What the README tells an operator to run, read out of the README itself, so a test of the
recipe fails when the README and the site disagree."""

from __future__ import annotations

from benchmarks.load.services import REPO


def readme_production_env() -> dict[str, str]:
    """The ``export`` lines of the README's production section, with a real secret key."""
    text = (REPO / "README.md").read_text()
    section = text[text.index("## Production"):]
    block = section[section.index("```sh"):section.index("```", section.index("```sh") + 5)]
    env: dict[str, str] = {}
    for line in block.splitlines():
        if line.startswith("export "):
            env.update(pair.split("=", 1) for pair in line.removeprefix("export ").split())
    assert env.pop("SECRET_KEY") == "..."
    env["SECRET_KEY"] = "k" * 20 + "-a-long-random-production-key-" + "x" * 20
    return env
