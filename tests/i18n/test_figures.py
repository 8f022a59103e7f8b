"""Numbers Python writes for people follow the reader's notation; rounding as before."""

from django.utils import translation

from game.domain.translated import figure


def test_a_figure_is_rounded_as_python_rounds_it_and_written_the_readers_way():
    assert figure(0.00450000001, 3) == "0.005"  # rounded, not cut
    assert figure(12.5, 2) == "12.50" and figure(1.234, 2, signed=True) == "+1.23"
    assert figure(-1.5, 1, signed=True) == "-1.5"
    with translation.override("de"):
        assert figure(12.5, 1) == "12,5" and figure(0.25, 2, signed=True) == "+0,25"
