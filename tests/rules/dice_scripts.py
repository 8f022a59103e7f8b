"""A random source that returns dice chosen by the test, so a test can reach any position."""

from __future__ import annotations

from collections.abc import Iterable


class ScriptedDice:
    """``randint`` answers from a script of faces, in order; running out is a test bug."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self.faces = list(faces)

    def push(self, *faces: int) -> ScriptedDice:
        self.faces.extend(faces)
        return self

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        if not self.faces:
            raise AssertionError("the test's dice script ran out")
        return self.faces.pop(0)
