"""No template carries a user-facing string that is not marked for translation.

Each template is cut into tokens by Django's own lexer. The text between the template tags is
put back together with every tag and variable replaced by a placeholder without letters, and
read as HTML: visible text with a letter, or a user-facing attribute (title, alt, aria-label …)
with a literal letter, is a string that reached the page without {% translate %}. The text
inside {% blocktranslate %} and {% comment %} is not looked at; nor is the inside of
<script>, <style> and <code> (code, hashes and commands stay as they are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

#: Stands for a {{ variable }} or a {% tag %}: no letter, so it never counts as text.
PLACEHOLDER = "\ue000"

#: Texts allowed as they are, each for a reason.
ALLOWED_TEXTS = {
    # Keyboard shortcuts: the letters keyboard.js listens to, the same in every language.
    "R", "H", "S",
}

#: Attributes that people read (or hear, from a screen reader).
READ_ATTRIBUTES = {"title", "alt", "aria-label", "aria-description", "aria-roledescription",
                   "aria-valuetext", "placeholder"}
SILENT_ELEMENTS = {"script", "style", "code"}
#: Tags whose content is not the page's text (a comment, a translated block, verbatim text).
SKIPPED_BLOCKS = {"comment": "endcomment", "blocktranslate": "endblocktranslate",
                  "blocktrans": "endblocktrans", "verbatim": "endverbatim"}
#: base.html's blocks that fill a tag's attributes (a class name), not the page's text.
ATTRIBUTE_BLOCKS = {"main_attrs", "body_class"}
#: A literal string shown as it is: `|default:"A player"`, an include's `with empty="No room"`.
DEFAULT_LITERAL = re.compile(r"""\|default:(["'])([^"']*)\1""")
INCLUDE_LITERAL = re.compile(r"""\s\w+=(["'])([^"']*)\1""")


@dataclass(frozen=True)
class Unmarked:
    template: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.template}:{self.line}: {self.text!r}"


def _has_letter(text: str) -> bool:
    stripped = " ".join(text.replace(PLACEHOLDER, " ").split())
    return stripped not in ALLOWED_TEXTS and any(ch.isalpha() for ch in stripped)


def skeleton(source: str) -> tuple[str, list[tuple[int, str]]]:
    """The template's HTML with every tag and variable replaced by PLACEHOLDER, and the
    literal strings its tags show as they are (line, text)."""
    parts: list[str] = []
    literals: list[tuple[int, str]] = []
    skip_until: str | None = None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents.split() else ""
            if skip_until is not None:
                if name == skip_until:
                    skip_until = None
                    parts.append(PLACEHOLDER)
                continue
            if name in SKIPPED_BLOCKS:
                skip_until = SKIPPED_BLOCKS[name]
            elif name == "block" and token.contents.split()[1:2] in (
                    [b] for b in ATTRIBUTE_BLOCKS):
                skip_until = "endblock"
            shown = [*DEFAULT_LITERAL.finditer(token.contents)]
            if name == "include":
                shown += INCLUDE_LITERAL.finditer(token.contents)
            literals += [(token.lineno, m.group(2)) for m in shown if _has_letter(m.group(2))]
        elif token.token_type == TokenType.VAR:
            if skip_until is not None:
                continue
            literals += [(token.lineno, m.group(2))
                         for m in DEFAULT_LITERAL.finditer(token.contents)
                         if _has_letter(m.group(2))]
        elif token.token_type == TokenType.TEXT:
            if skip_until is None:
                parts.append(token.contents)
            continue
        else:  # a {# comment #}
            continue
        # Right after "<" a tag's name is expected: a name made of letters keeps it a tag.
        joined_tail = (parts[-1] if parts else "")
        parts.append("tpl" if joined_tail.endswith(("<", "</")) else PLACEHOLDER)
    return "".join(parts), literals


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.silent = 0
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name, value in values.items():
            shown = (name in READ_ATTRIBUTES
                     or (name == "content" and values.get("name") == "description")
                     or (name == "value" and tag in {"input", "button"}
                         and values.get("type") in {"submit", "button", "reset"}))
            if shown and _has_letter(value):
                self.found.append((self.getpos()[0], f'{name}="{value}"'))
        if tag in SILENT_ELEMENTS:
            self.silent += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SILENT_ELEMENTS and self.silent:
            self.silent -= 1

    def handle_data(self, data: str) -> None:
        if not self.silent and _has_letter(data):
            self.found.append((self.getpos()[0], " ".join(data.replace(PLACEHOLDER, " ").split())))


def unmarked_strings(source: str, name: str = "<string>") -> list[Unmarked]:
    """The user-facing strings of a template's source that are not marked for translation."""
    html, literals = skeleton(source)
    reader = _Reader()
    reader.feed(html)
    reader.close()
    # Line numbers of the skeleton are close to the template's (placeholders hold no newline
    # but the tags they replace may have): good enough to find the string.
    found = [Unmarked(name, line, text) for line, text in reader.found]
    found += [Unmarked(name, line, f"literal {text!r}") for line, text in literals]
    return found


def _templates() -> list[Path]:
    return sorted([*TEMPLATES.rglob("*.html"), *TEMPLATES.glob("account/email/*.txt")])


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_template_has_no_unmarked_string(path: Path) -> None:
    found = unmarked_strings(path.read_text(), str(path.relative_to(TEMPLATES)))
    assert not found, "Unmarked strings:\n" + "\n".join(map(str, found))


# --- the checker itself ------------------------------------------------------------------

@pytest.mark.parametrize("source", [
    "<p>Hello</p>",
    "<p>{% translate 'Hi' %} and more</p>",
    '<button title="Roll the dice">{% translate "Roll" %}</button>',
    '<img src="x.svg" alt="A die">',
    '<input type="submit" value="Send">',
    '<meta name="description" content="A game">',
    '<span aria-label="Turn {{ n }}">{{ n }}</span>',
    "{% block title %}Lobby · {{ site }}{% endblock %}",
    "<svg><title>Final scores</title></svg>",
    '{{ name|default:"A player" }}',
    '{% include "x.html" with empty="Nobody yet." %}',
    "Hello {{ username }},\n",
])
def test_checker_finds_a_planted_unmarked_string(source: str) -> None:
    assert unmarked_strings(source)


@pytest.mark.parametrize("source", [
    "{% load i18n %}<p>{% translate 'Hello' %}</p>",
    "<p>{% blocktranslate trimmed with n=x %}Hello {{ n }}{% endblocktranslate %}</p>",
    '<p title="{% translate "Hi" %}" class="big note" data-x="abc">{{ x }}</p>',
    "<script>const a = 'text';</script><style>.a{content:'x'}</style>",
    "{% comment %}Just a note{% endcomment %}{# another #}<!-- html comment -->",
    "<p>{{ a }} · {{ b }} &nbsp;&times; 12 – ±</p>",
    "<code>manage.py analyse</code> <kbd>R</kbd>",
    '<{% if href %}a href="{{ href }}"{% else %}button{% endif %} class="btn">{{ x }}'
    '</{% if href %}a{% else %}button{% endif %}>',
    '{{ name|default:_("A player") }} {% include "x.html" with empty=_("Nobody yet.") %}',
    '<input type="text" value="abc" name="q">',
    '{% element button type="submit" tags="prominent" %}{% translate "Go" %}{% endelement %}',
])
def test_checker_passes_marked_or_silent_text(source: str) -> None:
    assert unmarked_strings(source) == []
