"""``manage.py`` commands run in the test's own process, as ``manage.py`` runs them: the same
``ManagementUtility`` parses the same argv, writes to ``sys.stdout``/``sys.stderr`` and exits
with the same code. A new Python per call cost 2-3 s of imports and table loads, for commands
that touch no database (advise, simulate, play); a test of each command still starts a real
``manage.py`` process."""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

from django.core.management import ManagementUtility


def manage_here(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``manage.py *args`` with ``stdin`` as its input: its exit code and what it wrote."""
    out, err = io.StringIO(), io.StringIO()
    code: int = 0
    real_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            ManagementUtility(["manage.py", *args]).execute()
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else 0 if leaving.code is None else 1
    finally:
        sys.stdin = real_stdin
    return subprocess.CompletedProcess(["manage.py", *args], code, out.getvalue(), err.getvalue())
