import doctest

import game.rules


def test_the_package_docstring_example_runs():
    result = doctest.testmod(game.rules)
    assert result.attempted > 0 and result.failed == 0
