"""Random legal games for the property tests: every choice drawn by Hypothesis."""

import random

from hypothesis import strategies as st

from game.rules import RULESETS, Game

rulesets = st.sampled_from(sorted(RULESETS))


def play_random_game(data, rules: str, players: int) -> Game:
    game = Game(rules, [f"p{i}" for i in range(players)],
                rng=random.Random(data.draw(st.integers(0, 2**32))))
    while not game.is_over:
        game.roll(hold=data.draw(st.sets(st.integers(0, 4))) if game.dice else ())
        while game.rolls_left and data.draw(st.booleans()):
            game.roll(hold=data.draw(st.sets(st.integers(0, 4))))
        slot = data.draw(st.sampled_from(game.legal_slots()))
        game.score(slot.box, slot.column)
    return game
