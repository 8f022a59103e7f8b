"""Where the strategy tables are kept. Apart from ``storage`` (numpy and the solver), so that
pointing the tables somewhere costs nothing at start-up."""

from __future__ import annotations

import os
from pathlib import Path

_strategy_dir: Path | None = None


def set_strategy_dir(path: str | os.PathLike[str] | None) -> None:
    """Where tables are kept from now on (``None``: back to the environment's default)."""
    global _strategy_dir
    _strategy_dir = Path(path) if path is not None else None


def strategy_dir() -> Path:
    if _strategy_dir is not None:
        return _strategy_dir
    return Path(os.environ.get("STRATEGY_DIR") or Path("var") / "strategy")
