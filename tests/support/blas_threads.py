"""One BLAS thread per test process (loaded with ``-p`` before Django imports numpy).

numpy's OpenBLAS gives each matrix product a thread per core, and its threads spin while
they wait for one another: with two xdist workers, the servers and browsers they start and
other work on two cores, a yatzy table took 91 s of CPU instead of 48 s (64 s of wall time
instead of 49 s on a quiet machine). The strategy tables, the bots and the chances do their
products one state chunk at a time, so one thread loses nothing. Subprocesses (servers,
``manage.py``) inherit the setting; a value already in the environment is kept.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
