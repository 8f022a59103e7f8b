"""A press is never lost to the socket's rate limit: the room page sends a command again, with
the same id, when the server refused a frame for speed or dropped it in a flood (found by the
dark-mode test, whose keyboard game outran 8 frames/s and lost its last score to the limit)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE
from .pages import cell, client_state, create_room, last_seq, roll, start_game, wait_seq

pytestmark = pytest.mark.browser

#: 60 hold toggles and a click on the box that scores most (no second tap asked), in one task
#: of the page: the socket's budget (20 frames at once, then 8 per second) goes on the holds,
#: so the server refuses one frame and drops the others, the score among them; the score's only
#: way in is being sent again. Forty frames over the budget take five seconds to refill: a
#: server slowed by a busy machine still reads the score before its budget is back. Returns the
#: box.
FLOOD_THEN_SCORE = """() => {
  for (let i = 0; i < 60; i += 1) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "1" }));
  }
  const best = window.yahtzeeRoom.state.game.options.filter((o) => o.allowed)
    .reduce((a, b) => (b.points > a.points ? b : a));
  document.querySelector(`#scorecard button.option[data-box="${best.box}"]`).click();
  return best.box;
}"""


def sent_frames(page: Page) -> list[str]:
    return page.evaluate("window.sentFrames")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_score_dropped_by_the_rate_limit_is_sent_again_and_counts_once(daphne_server,
                                                                          new_context,
                                                                          screenshots, device):
    page = (new_context(DESKTOP) if device == "desktop"
            else new_context(PHONE, is_mobile=True, has_touch=True)).new_page()
    # Every frame the page sends, as sent (the socket's own send, wrapped before any script).
    page.add_init_script("""
      window.sentFrames = [];
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        window.sentFrames.push(data);
        send.call(this, data);
      };
    """)
    create_room(page, daphne_server, name="Fast fingers", rules="yatzy", seats=["human"],
                nickname="Quick")
    start_game(page)
    roll(page)
    round_before, seq_before = client_state(page)["round"], last_seq(page)

    box = page.evaluate(FLOOD_THEN_SCORE)
    expect(page.locator("#confirm")).to_be_hidden()  # the best box: nothing to confirm
    page.wait_for_function(
        "box => window.yahtzeeRoom.state.game.scorecards[0].columns[0].boxes[box] !== null",
        arg=box, timeout=20_000)

    scores = [f for f in sent_frames(page) if '"type":"score"' in f]
    assert len(scores) >= 2, "the score was answered at once: the flood did not reach the limit"
    assert len(set(scores)) == 1, "a resend is the same frame, with the same id"
    # Applied once: one scored event and the next turn, nothing more.
    wait_seq(page, seq_before + 2)
    game = client_state(page)
    assert game["round"] == round_before + 1 and game["seq"] == seq_before + 2
    assert sum(v is not None for v in game["scorecards"][0]["columns"][0]["boxes"].values()) == 1
    # The refusal was the page's business: the player saw no error.
    expect(page.locator("#error")).to_be_hidden()
    cell(page, 0, box).scroll_into_view_if_needed()  # on a phone: the box it went in
    page.screenshot(path=str(screenshots / f"room-resent-score-{device}.png"))


def test_only_commands_the_server_applies_once_are_sent_again(daphne_server, new_context):
    """A seat or start command sent twice could act twice (the server remembers only the ids
    of rolls and scores): after `rate_limited` the page sends a roll again, never those."""
    page = new_context(DESKTOP).new_page()
    page.goto(daphne_server.url + "/")
    answers = page.evaluate("""async () => {
      const { CommandSender } = await import("/static/game/room/connection.js");
      const sent = [];
      const conn = { send: (type, fields, { id }) => { sent.push([type, id]); return id; } };
      const sender = new CommandSender(conn, () => {});
      const answers = {};
      for (const type of ["roll", "score", "add_seat", "start", "seed"]) {
        sender.send(type, {});
        answers[type] = sender.refused();
      }
      sender.settle();
      return { answers, sent };
    }""")
    assert answers["answers"] == {"roll": True, "score": True, "add_seat": False,
                                  "start": False, "seed": False}
    assert [t for t, _ in answers["sent"]] == ["roll", "score", "add_seat", "start", "seed"]
