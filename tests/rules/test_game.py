"""A game: turns, rolls, scoring, bonuses as events, the end, and every illegal action."""

import random

import pytest

from game.rules import (
    BonusAwarded,
    BoxFilled,
    Game,
    GameFinished,
    GameOver,
    HoldBeforeFirstRoll,
    InvalidColumn,
    InvalidDiePosition,
    InvalidEvent,
    InvalidPlayers,
    JokerForbids,
    NoRollsLeft,
    NotRolledYet,
    NotYourTurn,
    Roll,
    Rolled,
    Score,
    Scored,
    TurnStarted,
    UnknownBox,
    UnknownRuleset,
    event_from_dict,
)

from .dice_scripts import ScriptedDice


def scripted_game(rules="yahtzee", players=("Ann",)):
    dice = ScriptedDice()
    return Game(rules, list(players), rng=dice), dice


def play_turn(game, dice, faces, box, column=0):
    dice.push(*faces)
    game.roll()
    return game.score(box, column)


def test_a_new_game_starts_with_the_first_players_turn():
    game = Game("yahtzee", ["Ann", "Bob"], rng=random.Random(1))
    assert [e.kind for e in game.events] == ["game_started", "turn_started"]
    assert game.current_player == 0 and game.round == 1
    assert game.dice is None and game.rolls_left == 3


def test_rolls_rerolls_and_holds():
    game, dice = scripted_game()
    dice.push(1, 2, 3, 4, 5)
    [rolled] = game.roll()
    assert rolled == Rolled(player=0, dice=(1, 2, 3, 4, 5), held=(), roll=1)
    dice.push(6, 6)
    game.roll(hold=[0, 2, 4])
    assert game.dice == (1, 6, 3, 6, 5) and game.rolls_left == 1
    dice.push(2)
    game.roll(hold=[4, 3, 2, 0])
    assert game.dice == (1, 2, 3, 6, 5) and game.rolls_left == 0


def test_scoring_passes_the_turn_and_counts_rounds():
    game, dice = scripted_game(players=("Ann", "Bob"))
    events = play_turn(game, dice, (2, 2, 3, 4, 5), "twos")
    assert events == [Scored(0, "twos", 0, 4, False), TurnStarted(player=1, round=1)]
    play_turn(game, dice, (2, 2, 3, 4, 5), "chance")
    assert (game.current_player, game.round) == (0, 2)


def test_illegal_actions_raise_specific_errors_and_change_nothing():
    game, dice = scripted_game(players=("Ann", "Bob"))
    cases = [
        (lambda: game.score("chance"), NotRolledYet),
        (lambda: game.roll(hold=[0]), HoldBeforeFirstRoll),
        (lambda: game.roll(player=1), NotYourTurn),
    ]
    for action, error in cases:
        before = game.to_dict()
        with pytest.raises(error) as exc:
            action()
        assert exc.value.message and exc.value.code
        assert game.to_dict() == before and len(game.events) == 2
    dice.push(1, 1, 1, 2, 2)
    game.roll()
    more = [
        (lambda: game.roll(hold=[5]), InvalidDiePosition),
        (lambda: game.roll(hold=[-1]), InvalidDiePosition),
        (lambda: game.roll(hold=[1, 1]), InvalidDiePosition),
        (lambda: game.roll(hold=["0"]), InvalidDiePosition),
        (lambda: game.score("pair"), UnknownBox),
        (lambda: game.score("chance", column=1), InvalidColumn),
        (lambda: game.score("chance", player=1), NotYourTurn),
    ]
    for action, error in more:
        before = game.to_dict()
        with pytest.raises(error):
            action()
        assert game.to_dict() == before
    dice.push(1, 1, 1, 1, 1, 2, 2, 2, 2, 2)
    game.roll()
    game.roll()
    before = game.to_dict()
    with pytest.raises(NoRollsLeft):
        game.roll()
    assert game.to_dict() == before
    with pytest.raises(NoRollsLeft):
        game.roll()


def test_a_filled_box_cannot_be_used_again():
    game, dice = scripted_game()
    play_turn(game, dice, (1, 2, 3, 4, 6), "chance")
    dice.push(1, 2, 3, 4, 6)
    game.roll()
    with pytest.raises(BoxFilled):
        game.score("chance")


def test_several_yahtzee_bonuses_in_one_game():
    game, dice = scripted_game()
    play_turn(game, dice, (4,) * 5, "yahtzee")
    events = play_turn(game, dice, (4,) * 5, "fours")
    assert BonusAwarded(0, 0, "yahtzee", 100) in events
    events = play_turn(game, dice, (4,) * 5, "full_house")  # Joker: fours filled
    assert Scored(0, "full_house", 0, 25, True) in events
    assert BonusAwarded(0, 0, "yahtzee", 100) in events
    dice.push(*(2,) * 5)
    game.roll()
    with pytest.raises(JokerForbids):
        game.score("chance")
    game.score("twos")
    card = game.scorecards[0]
    assert card.bonus("yahtzee") == 300
    assert card.total == 50 + 20 + 25 + 10 + 300


def test_a_scratched_yahtzee_box_gives_the_joker_without_bonus():
    game, dice = scripted_game()
    play_turn(game, dice, (1, 2, 3, 4, 6), "yahtzee")
    events = play_turn(game, dice, (5,) * 5, "fives")
    assert not any(isinstance(e, BonusAwarded) for e in events)
    events = play_turn(game, dice, (5,) * 5, "large_straight")
    assert Scored(0, "large_straight", 0, 40, True) in events


def test_upper_bonus_is_awarded_once_when_the_subtotal_reaches_63():
    game, dice = scripted_game()
    for face, box in zip(range(1, 7), ("ones", "twos", "threes", "fours", "fives", "sixes"),
                         strict=True):
        events = play_turn(game, dice, (face, face, face, 1 if face > 1 else 2, 6), box)
    upper_bonuses = [e for e in game.events if isinstance(e, BonusAwarded) and e.bonus == "upper"]
    assert upper_bonuses == [BonusAwarded(0, 0, "upper", 35)]
    assert upper_bonuses[0] in events  # on the turn that crossed 63
    assert game.scorecards[0].upper_subtotal() == 63 + 6 + 1 - 1


def test_game_ends_with_winners_and_ties_share_the_win():
    game, dice = scripted_game("yatzy", players=("Ann", "Bob", "Cy"))
    boxes = game.ruleset.box_names
    for box in boxes:
        for player in range(3):
            faces = (6, 6, 6, 6, 6) if player < 2 else (1, 1, 2, 2, 3)
            play_turn(game, dice, faces, box)
    assert game.is_over and isinstance(game.events[-1], GameFinished)
    totals = [c.total for c in game.scorecards]
    assert totals[0] == totals[1] > totals[2]
    assert game.winners == (0, 1)
    with pytest.raises(GameOver):
        game.roll()


def test_triple_columns_and_multipliers_in_a_game():
    game, dice = scripted_game("triple")
    play_turn(game, dice, (6, 6, 6, 6, 6), "yahtzee", column=2)
    events = play_turn(game, dice, (6, 6, 6, 6, 6), "sixes", column=2)
    assert BonusAwarded(0, 2, "yahtzee", 100) in events
    play_turn(game, dice, (6, 6, 6, 6, 6), "full_house", column=0)  # no joker in column 0
    card = game.scorecards[0]
    assert card.points("full_house", 0) == 0
    assert card.column_total(2) == 50 + 30 + 100
    assert card.total == 3 * 180


@pytest.mark.parametrize("players", [[], ["a"] * 7, [""], ["x" * 41]])
def test_bad_player_lists(players):
    with pytest.raises(InvalidPlayers):
        Game("yahtzee", players)


def test_unknown_ruleset():
    with pytest.raises(UnknownRuleset):
        Game("poker", ["Ann"])


def test_events_round_trip_through_dicts_and_rebuild_the_game():
    game = Game("triple", ["Ann", "Bob"], rng=random.Random(3))
    game.roll()
    game.roll(hold=[1, 3])
    game.score(game.legal_slots()[-1].box, game.legal_slots()[-1].column)
    stored = [e.to_dict() for e in game.events]
    rebuilt = Game.from_events(event_from_dict(d) for d in stored)
    assert rebuilt == game and rebuilt.to_dict() == game.to_dict()


def test_corrupt_histories_are_refused():
    with pytest.raises(InvalidEvent):
        Game.from_events([])
    with pytest.raises(InvalidEvent):
        Game.from_events([TurnStarted(0, 1)])
    with pytest.raises(InvalidEvent):
        event_from_dict({"kind": "teleported"})
    game = Game("yahtzee", ["Ann", "Bob"])
    with pytest.raises(InvalidEvent):
        game.apply(Rolled(player=1, dice=(1, 1, 1, 1, 1), held=(), roll=1))


def test_options_mark_joker_forbidden_boxes():
    game, dice = scripted_game()
    play_turn(game, dice, (2,) * 5, "yahtzee")
    dice.push(*(2,) * 5)
    game.roll()
    options = {o["box"]: o for o in game.to_dict()["options"]}
    assert options["twos"] == {"box": "twos", "column": 0, "points": 10, "allowed": True}
    assert options["full_house"]["allowed"] is False
    assert options["full_house"]["points"] == 25


def test_play_applies_action_values():
    game, dice = scripted_game(players=("Ann", "Bob"))
    dice.push(6, 6, 6, 1, 2, 3, 4)
    assert game.play(Roll()) == [Rolled(0, (6, 6, 6, 1, 2), (), 1)]
    assert game.play(Roll(hold=(0, 1, 2))) == [Rolled(0, (6, 6, 6, 3, 4), (0, 1, 2), 2)]
    with pytest.raises(NotYourTurn):
        game.play(Score("sixes"), player=1)
    assert game.play(Score("sixes"))[0] == Scored(0, "sixes", 0, 18, False)
    with pytest.raises(TypeError):
        game.play("roll")
