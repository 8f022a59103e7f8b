"""The Python script that docs/fairness.md gives readers to check a game's dice, read out of
the doc and run as they would run it (a subprocess on a dice.json file)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def doc_script() -> str:
    """The Python script of docs/fairness.md (its one ```python block)."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    assert len(blocks) == 1
    return blocks[0]


def run_doc_script(tmp_path: Path, data: dict) -> subprocess.CompletedProcess:
    script = tmp_path / "verify.py"
    script.write_text(doc_script())
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(data))
    return subprocess.run([sys.executable, str(script), str(path)], capture_output=True,
                          text=True, timeout=60)
