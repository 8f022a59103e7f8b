"""The profile's charts: a histogram bar per bin from the lowest score's to the highest's, a
trend whose highest score is drawn at the top; numbers written as SVG reads them."""

from __future__ import annotations

from game.presenters.profile import BOTTOM, HEIGHT, TOP, histogram, trend


def test_the_histogram_has_a_bar_per_bin_empty_ones_included():
    bars = histogram([100, 110, 130, 180], bin_width=25)["bars"]
    assert [(b.low, b.high, b.count) for b in bars] == [
        (100, 124, 2), (125, 149, 1), (150, 174, 0), (175, 199, 1)]
    plot = HEIGHT - BOTTOM - TOP
    assert [float(b.height) for b in bars] == [plot, plot / 2, 0, plot / 2]
    assert [float(b.y) + float(b.height) for b in bars] == [HEIGHT - BOTTOM] * 4  # one baseline
    assert histogram([])["bars"] == []


def test_the_trend_draws_higher_scores_higher_with_dots_for_decimals():
    chart = trend([150, 300, 225])
    ys = [float(p.split(",")[1]) for p in chart["points"].split()]
    assert ys == [HEIGHT - BOTTOM, TOP, (TOP + HEIGHT - BOTTOM) / 2]
    assert chart["mean"] == 225 and float(chart["mean_y"]) == ys[2]
    assert "," not in chart["mean_y"] and all(p.count(",") == 1 for p in chart["points"].split())
