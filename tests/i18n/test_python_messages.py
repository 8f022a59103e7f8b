"""The Python side's sentences, translatable without changing the English: refusals kept as
templates with params (translated at the edge, ``game.translated``), each socket's errors in
its own language. None of this needs the translated catalogs."""

from __future__ import annotations

import ast
import json
import pickle
import re
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import translation

from game.domain import translated
from game.protocol.inbound import BadMessage, parse_frame
from game.rules import YATZY, Scorecard, get_ruleset
from game.rules.errors import BoxLabel, CodedError, RulesetTitle, UnknownRuleset
from game.services.errors import ServiceError, no_room
from game.web.languages import language_of_scope
from tests.support.sockets import HOST, ORIGIN, TIMEOUT

GAME = Path(__file__).resolve().parents[2] / "game"
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def _error_classes() -> set[str]:
    found, todo = set(), [CodedError]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    # Subclasses defined in modules not imported here.
    return found | {"NoOptions", "ServiceError", "BadMessage", "InvalidSeed", "NoDecision"}


def _raises() -> list[tuple[str, int, ast.Call]]:
    names = _error_classes()
    calls = []
    for path in GAME.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in names:
                    calls.append((str(path.relative_to(GAME)), node.lineno, node))
    return calls


def test_no_refusal_is_built_from_an_f_string_or_a_concatenation():
    calls = _raises()
    assert len(calls) > 80  # the walk found the project's refusals
    for where, line, call in calls:
        for arg in call.args:
            assert not isinstance(arg, ast.JoinedStr | ast.BinOp), (where, line)


def test_every_template_has_its_params():
    """A template's placeholders are the keys of the params beside it, and a template
    without params has no placeholder (it is never %-formatted)."""
    checked = 0
    for where, line, call in _raises():
        templates = [a for a in call.args if isinstance(a, ast.Call)
                     and getattr(a.func, "id", "") == "gettext_noop"]
        if not templates:
            continue
        text = templates[0].args[0].value
        params = [a for a in call.args if isinstance(a, ast.Dict)]
        wanted = set(PLACEHOLDER.findall(text))
        given = {k.value for k in params[0].keys} if params else set()
        assert wanted == given, (where, line, text)
        checked += 1
    assert checked > 60


@pytest.mark.parametrize("make", [
    lambda: get_ruleset("nope"),
    lambda: YATZY.box("nope"),
    lambda: YATZY.find_box("zz"),
    lambda: get_ruleset("triple").check_column(7),
    lambda: parse_frame("x" * 5000),
    lambda: parse_frame("nope"),
])
def test_english_is_unchanged_and_filled(make):
    with pytest.raises(CodedError) as caught:
        make()
    exc = caught.value
    with translation.override("en"):
        text = translated.message(exc)
    assert text == exc.message == str(exc)
    assert "%(" not in text


def test_known_english_messages_stay_word_for_word():
    assert no_room("abc").message == "There is no room 'abc'."
    with pytest.raises(UnknownRuleset) as caught:
        get_ruleset("nope")
    assert caught.value.message == "Unknown ruleset 'nope'; choose one of: yahtzee, yatzy, triple."
    with pytest.raises(BadMessage) as bad:
        parse_frame("x" * 5000)
    assert bad.value.message == "Messages are at most 4096 bytes."
    assert bad.value.code == "too_large"


def test_box_labels_and_ruleset_titles_in_params_are_translated(monkeypatch):
    card = Scorecard(YATZY)
    card.fill("chance", 0, 20)
    with pytest.raises(CodedError) as caught:
        card.check_can_score((1, 2, 3, 4, 5), "chance")
    assert caught.value.message == "Chance is already filled."
    assert isinstance(caught.value.params["box"], BoxLabel)
    monkeypatch.setattr(translated, "pgettext", lambda context, text: f"[{context}] {text}")
    assert translated.message(caught.value) == "[box] Chance is already filled."
    with pytest.raises(CodedError) as column:
        get_ruleset("yatzy").check_column(2)
    assert isinstance(column.value.params["rules"], RulesetTitle)
    assert translated.message(column.value) == "[ruleset] Yatzy has a single column (column 0)."


def test_a_translation_that_lost_a_placeholder_falls_back_to_english(monkeypatch):
    monkeypatch.setattr(translated, "gettext", lambda text: "%(nothing)s")
    assert translated.message(no_room("abc")) == "There is no room 'abc'."


def test_refusals_cross_processes_with_their_template():
    error = ServiceError("bad_room", "A room has 1 to %(max)d seats.", {"max": 6})
    back = pickle.loads(pickle.dumps(error))
    assert (back.code, back.template, back.params, back.message) == (
        "bad_room", error.template, {"max": 6}, "A room has 1 to 6 seats.")
    rules = pickle.loads(pickle.dumps(UnknownRuleset("x %(a)s", {"a": 1})))
    assert (type(rules), rules.code, rules.message) == (UnknownRuleset, "unknown_ruleset", "x 1")


def test_every_box_label_and_ruleset_title_is_marked():
    from game.rules import RULESETS

    with translation.override("en"):
        labels = {str(label) for label in translated.BOX_LABELS}
        titles = {str(title) for title in translated.RULESET_TITLES}
    assert {b.label for r in RULESETS.values() for b in r.boxes} == labels
    assert {r.title for r in RULESETS.values()} == titles


def test_ruleset_data_keeps_names_and_translates_labels(monkeypatch):
    monkeypatch.setattr(translated, "pgettext", lambda context, text: f"[{context}] {text}")
    data = translated.ruleset_data("yatzy")
    assert data["title"] == "[ruleset] Yatzy"
    assert data["boxes"][0] == {**YATZY.to_dict()["boxes"][0], "label": "[box] Ones"}


def _scope(cookie: str = "", accept: str = "") -> dict:
    headers = [(b"accept-language", accept.encode())] if accept else []
    return {"cookies": {settings.LANGUAGE_COOKIE_NAME: cookie} if cookie else {},
            "headers": headers}


def test_language_of_scope_prefers_the_cookie_then_the_header_then_english():
    assert language_of_scope(_scope("da", "de-DE,de;q=0.9")) == "da"
    assert language_of_scope(_scope("", "de-DE,de;q=0.9")) == "de"
    assert language_of_scope(_scope("xx", "fr")) == "fr"  # an unknown cookie is ignored
    assert language_of_scope(_scope("", "ja, zh;q=0.5")) == "en"
    assert language_of_scope(_scope()) == "en"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("headers", "expected"), [
    ([(b"accept-language", b"sv-SE,sv;q=0.9")], "sv"),
    ([(b"accept-language", b"sv"), (b"cookie", f"{settings.LANGUAGE_COOKIE_NAME}=es".encode())],
     "es"),
    ([], "en"),
])
async def test_a_sockets_errors_are_worded_in_its_language(settings, monkeypatch, headers,
                                                             expected):
    from channels.db import database_sync_to_async

    from game import services
    from yahtzee_site.asgi import application

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    room = await database_sync_to_async(services.create_room)(
        name="Room", rules="yatzy", seats=[services.SeatSpec()], host_key="host")
    seen = []
    original = translated.message

    def spy(error):
        seen.append(translation.get_language())
        return original(error)

    monkeypatch.setattr(translated, "message", spy)
    comm = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/",
                                 headers=[ORIGIN, HOST, *headers])
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    try:
        await comm.send_to(text_data="not json")
        while (reply := json.loads(await comm.receive_from(timeout=TIMEOUT)))["type"] != "error":
            pass
        assert reply["code"] == "bad_json"
        assert reply["message"]  # English until the catalogs are translated
        assert seen == [expected]
    finally:
        await comm.disconnect()
