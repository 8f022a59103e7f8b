"""Names people can trust: what a nickname may be, and when two names are too alike.

A name is normalised (NFKC, runs of white space folded) before anything else. It is refused
when it holds letters nobody can see, when it looks blank, or when it imitates a label the site
itself shows (a computer player's "Bot …", "Free seat"). Two names are the same person's if
their *skeletons* match: case folded, accents dropped, and every character replaced by the
plainest character it can be mistaken for (Unicode's confusables: Cyrillic "А" for Latin "A",
"0" for "O", "1" for "l"; a small capital, and what reads as one, for its letter: "ʙᴏᴛ" and
Cyrillic "Вот" for "bot"). A nickname's words are each written in one script (or in the mixes
of Japanese, Chinese and Korean writing, UTS #39's "highly restrictive" level): Cyrillic "л" in
"Anл" passes for a Latin "n" in no other way.
"""

from __future__ import annotations

import gettext
import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs.categories import alias as script_of
from confusable_homoglyphs.confusables import confusables_data
from django.conf import settings
from django.utils import translation

from ..models import NICKNAME_MAX, Player
from .errors import ServiceError, gettext_noop

#: Characters that print nothing (or nothing visible) though they are not controls.
_BLANK_LOOKING = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # braille blank
    "\u034f"  # combining grapheme joiner
    "\u180e"  # Mongolian vowel separator
)
#: Unicode categories of characters nobody sees: format (zero-width, bidi), private, unassigned.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
#: Scripts one word may mix (UTS #39, "highly restrictive"): Japanese, Chinese and Korean
#: writing mix Han with their own scripts, and any of them with Latin.
_MIXABLE_SCRIPTS = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
                    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
                    frozenset({"LATIN", "HAN", "HANGUL"}))
_SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")
#: Labels the site shows on its own: a name must not pass for one of them.
_RESERVED = ("bot", "computer", "autoplay", "free seat", "admin", "staff", "system", "you")
#: The labels of computer players and free seats as the pages show them, in every language of
#: the site (their translations come from the catalogs, the pages' and the scripts'): "Dator
#: (lätt)" is a computer in Swedish. Pairs of a context ("" for none) and a message, each
#: marked for translation where the pages use it.
_TRANSLATED_LABELS = (("", "Computer"), ("move by", "Bot"), ("", "free seat"),
                      *(("rival", f"Computer ({level})")
                        for level in ("easy", "medium", "optimal", "plays to win")))
_SCRIPT_LABELS = ("Computer", "The computer")
#: How many characters a name may have as typed, per character it may have once normalised:
#: room for accents typed as combining marks and for runs of spaces, not for a flood.
RAW_LENGTH_FACTOR = 4


def _invisible(ch: str) -> bool:
    if ch in _BLANK_LOOKING or "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef":
        return True  # fillers and variation selectors
    return unicodedata.category(ch) in _INVISIBLE_CATEGORIES


#: Why a name is refused, whole sentences for each kind of name (``clean_name``'s ``what``).
_NAME_REFUSALS: dict[str, dict[str, str]] = {
    "nickname": {
        "text": gettext_noop("A nickname is text."),
        "length": gettext_noop("A nickname has 1 to %(max)d characters."),
        "invisible": gettext_noop("A nickname cannot contain invisible or control characters."),
        "letter": gettext_noop("A nickname needs at least one letter or digit."),
    },
    "room name": {
        "text": gettext_noop("A room name is text."),
        "length": gettext_noop("A room name has 1 to %(max)d characters."),
        "invisible": gettext_noop("A room name cannot contain invisible or control characters."),
        "letter": gettext_noop("A room name needs at least one letter or digit."),
    },
}


def clean_name(raw: object, *, what: str, max_length: int, code: str) -> str:
    """``raw`` as a name (``what``: "nickname" or "room name"), or ServiceError(code) saying
    why not."""
    refusals = _NAME_REFUSALS[what]
    if not isinstance(raw, str):
        raise ServiceError(code, refusals["text"])
    if len(raw) > max_length * RAW_LENGTH_FACTOR:
        # Before any work on it: NFKC makes up to 18 characters of one ("ﷺ"), so a megabyte
        # normalised holds the server's only core for seconds.
        raise ServiceError(code, refusals["length"], {"max": max_length})
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not 1 <= len(name) <= max_length:
        raise ServiceError(code, refusals["length"], {"max": max_length})
    if any(_invisible(ch) for ch in name):
        raise ServiceError(code, refusals["invisible"])
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise ServiceError(code, refusals["letter"])
    return name


def mixed_scripts(word: str) -> list[str]:
    """The scripts of the letters of ``word`` when they are not written together, else []."""
    scripts = {script_of(ch) for ch in word if unicodedata.category(ch)[0] == "L"}
    if len(scripts) > 1 and not any(scripts <= mix for mix in _MIXABLE_SCRIPTS):
        return sorted(scripts)
    return []


def bot_nickname(number: int, level: str) -> str:
    """The name the room's ``number``-th computer player sits under: "Bot 2 (to win)" (a
    person's nickname can never read so)."""
    return f"Bot {number} ({level.replace('_', ' ')})"


def clean_nickname(raw: object, max_length: int = NICKNAME_MAX) -> str:
    """A person's nickname: a clean name that does not pass for one of the site's labels,
    with no word mixing scripts."""
    name = clean_name(raw, what="nickname", max_length=max_length, code="bad_nickname")
    for word in name.split():
        if scripts := mixed_scripts(word):
            alphabets = " and ".join(script.title() for script in scripts)
            raise ServiceError(
                "bad_nickname",
                # Translators: alphabets are Unicode script names joined by "and" ("Latin
                # and Cyrillic"), left in English.
                gettext_noop("“%(word)s” mixes the letters of %(alphabets)s; write each word in "
                             "one alphabet."),
                {"word": word, "alphabets": alphabets})
    if passes_for_a_label(name):
        raise ServiceError("bad_nickname",
                           gettext_noop("“%(name)s” looks like a label of the site (a computer "
                                        "player, a free seat); choose another nickname."),
                           {"name": name})
    return name


def clean_shown_name(raw: object, player: Player | None) -> str:
    """A name shown for ``player`` (None: a player not made yet): a nickname that reads as no
    other player's account name, in any case or look-alike letters ("ALICE3846", "A1ice3846"
    for the account "Alice3846"). An account's own name is its own to show."""
    name = clean_nickname(raw)
    accounts = Player.objects.filter(account_key__in=name_keys(name)).exclude(user_id=None)
    if player is not None:
        accounts = accounts.exclude(pk=player.pk)
    if accounts.exists():
        raise ServiceError("bad_nickname",
                           gettext_noop("“%(name)s” reads as the name of someone’s account; "
                                        "choose another nickname."), {"name": name})
    return name


@lru_cache(maxsize=1)
def _label_skeletons() -> tuple[str, ...]:
    """The skeletons of the site's own labels in every language, longest first."""
    labels = {skeleton(label) for label in _RESERVED}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            labels.update(skeleton(translation.pgettext(context, label) if context
                                   else translation.gettext(label))
                          for context, label in _TRANSLATED_LABELS)
        scripts = gettext.translation("djangojs", settings.LOCALE_PATHS[0], [code],
                                      fallback=True)
        labels.update(skeleton(scripts.gettext(label)) for label in _SCRIPT_LABELS)
    return tuple(sorted(labels - {""}, key=len, reverse=True))


def _char_skeletons(name: str) -> list[tuple[str, str]]:
    """Each character of ``name`` (decomposed, accents dropped) with its part of the
    skeleton: :func:`skeleton` one character at a time, so that what follows a label can be
    read as it was written ("1" is a digit there, though its skeleton is "l")."""
    text = unicodedata.normalize("NFKD", name)
    out = []
    for ch in text:
        if unicodedata.combining(ch):
            continue
        part = ch
        for _ in range(2):
            part = "".join(_prototype(c) for c in part).casefold()
        out.append((ch, part))
    return out


def passes_for_a_label(name: str) -> bool:
    """Whether ``name`` reads as one of the site's labels, in any of its languages: it starts
    with one (as a skeleton: "B0T", "Вот") followed by nothing or by anything but a letter
    ("Bot1 (optimal)", "Bot_1", "Dator (lätt)"; "Botanist" is a name)."""
    parts = _char_skeletons(name)
    for label in _label_skeletons():
        read = ""
        for i, (_ch, part) in enumerate(parts):
            read += part
            if read == label:
                after = parts[i + 1][0] if i + 1 < len(parts) else ""
                if not after or unicodedata.category(after)[0] != "L":
                    return True
                break
            if not label.startswith(read):
                break
    return False


def _small_capital(ch: str) -> str:
    """The ASCII letter a Latin small capital ("ᴛ") is, or ""."""
    found = _SMALL_CAPITAL.fullmatch(unicodedata.name(ch, ""))
    return found[1].lower() if found else ""


@lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    """The plainest character ``ch`` can be mistaken for: an ASCII letter before a digit or a
    sign, lower case first ("0" reads as "O", "I" and "1" as "l"); else the letter of a small
    capital it is or reads as (Cyrillic "т" reads as "ᴛ", a small capital "t"); ``ch`` if
    nothing is plainer."""
    looks = [c for c in (ch, *(g["c"].strip("\u200e\u200f") for g in confusables_data.get(ch, ())))
             if len(c) == 1]
    plain = [c for c in looks if c.isascii()] or [c for c in map(_small_capital, looks) if c]
    return min(plain, key=lambda c: (not c.isalpha(), not c.islower(), c)) if plain else ch


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing names: equal skeletons read as the same name."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    # Look-alikes first, then case (as UTS #39 compares without case); twice, because folding
    # the case can make a letter that has a plainer look-alike again.
    for _ in range(2):
        text = "".join(_prototype(ch) for ch in text).casefold()
    return " ".join(text.split())


def name_keys(name: str) -> set[str]:
    """The skeletons ``name`` may be compared by with an account's (``Player.account_key``):
    its own, and those of it in one case. A skeleton keeps some case ("I" reads as "l", "i"
    does not), so "ALICE" and "Alice" have different ones, though a sign-in takes either."""
    return {skeleton(name), skeleton(name.lower()), skeleton(name.upper())}


def look_alike(name: str, others: list[str]) -> str | None:
    """The first of ``others`` that reads as ``name``, if any."""
    key = skeleton(name)
    return next((other for other in others if skeleton(other) == key), None)
