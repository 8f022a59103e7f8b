"""Which strings of the page scripts (static/game/**/*.js) people would read unmarked.

A small tokenizer for the scripts as they are written (comments, strings, template literals
with their `${}` expressions, the odd regex literal) follows the calls, brackets and object
keys around every string. A string is *marked* when it is a literal argument of the catalog's
functions (gettext's first, ngettext's first two, pgettext's second), the only form xgettext
extracts. An unmarked string is reported when it looks like words (two words with a space
between, or a capitalised word), or when it is put on the page as text (a child of h()/svg(),
assigned to textContent or title, an aria-label), unless its place says it is for the
machine (ALLOWED_CALLS, ALLOWED_KEYS) or its shape does (ALLOWED_SHAPES).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "game"
# Not checked: the catalog's own module, and the help texts (their own helper marks them).
SKIPPED = {"i18n.js", "help.js"}

# Which arguments of each catalog function are messages (xgettext's keywords).
MESSAGE_ARGS = {"gettext": {0}, "ngettext": {0, 1}, "pgettext": {1}}
# pgettext's context is a key for translators, never shown.
CONTEXT_ARGS = {"pgettext": {0}}

# Calls whose string arguments are for the machine, by the name called.
ALLOWED_CALLS = {
    "getElementById", "querySelector", "querySelectorAll", "closest", "matches",  # selectors
    "addEventListener", "removeEventListener",  # event names
    "add", "remove", "toggle", "contains",  # classList tokens
    "setAttribute", "getAttribute", "removeAttribute", "hasAttribute",  # attribute names
    "getItem", "setItem", "removeItem",  # storage keys
    "matchMedia",  # media queries
    "fetch", "replaceState", "pushState",  # URLs
    "send", "seatCommand", "command", "startGame", "ask",  # protocol types, confirmation keys
    "play", "celebrate",  # sound and celebration kinds (celebrate's words are checked: args 1+)
    "createElement", "createElementNS", "h", "svg",  # tag names (h's children are checked)
    "importKey", "sign", "digest", "parseFromString", "encode", "Set", "join", "split",
}
# Which arguments of those calls are allowed (default: all).
ALLOWED_CALL_ARGS = {"h": {0}, "svg": {0}, "celebrate": {0}, "ask": {0}, "command": {0},
                     "seatCommand": {0}, "send": {0}, "setAttribute": {0}}

# Object keys whose string values are for the machine.
ALLOWED_KEYS = {
    "class", "type", "role", "id", "for", "value", "tabindex", "focusable", "viewBox",
    "text-anchor", "dy", "d", "aria-hidden", "aria-pressed", "aria-live", "aria-current",
    "cache", "credentials", "Accept", "headers", "name", "hash", "tag", "kind", "grade",
    "level", "code", "cursor", "scope", "block",
}
# Object keys, assignments and calls that put their string on the page as text.
TEXT_KEYS = {"aria-label", "title", "alt", "placeholder", "message", "yes", "body"}
TEXT_PROPERTIES = {"textContent", "title", "innerText", "placeholder"}
TEXT_CALLS = {"append", "prepend", "replaceChildren", "replaceWith", "after", "before"}

# Shapes of strings that are never words people read, wherever they are.
ALLOWED_SHAPES = [
    re.compile(r"^[\s\d.,:;+\-−–×·%/()?!✓✗✕★\u00a0]*$"),  # figures and signs only
    re.compile(r"^(Arrow(Up|Down|Left|Right)|Home|End|Escape|Enter)$"),  # key names
    re.compile(r"^(Notification|HMAC|SHA-256|AudioContext)$"),  # Web API names
    re.compile(r"^[a-z0-9_\-]+$"),  # a single lowercase token: a key, a kind, a class
    re.compile(r"^M$|^H$|^V$"),  # SVG path commands
    # CSS selectors: lowercase names with the signs of a selector, and a class, id or attribute
    re.compile(r"^(?=.*([#.][a-z]|\[[a-z]))[a-z0-9_\-#.\[\]=\"' ,>:*()\u2026]+$"),
]

WORDS = re.compile(r"[A-Za-z]{2,}[^\sA-Za-z]*\s+[^\s]*[A-Za-z]|^[\W\d]*[A-Z][a-z]")
LETTER = re.compile(r"[A-Za-z]")


@dataclass
class Token:
    kind: str  # "id", "punct", "string", "template", "number", "regex"
    text: str  # an identifier or punctuation; a string's value; a template's literal parts
    line: int
    parts: list[str] = field(default_factory=list)  # a template's literal parts


@dataclass
class Finding:
    path: str
    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why}: {self.text!r}"


_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "of", "in", "=>"}


class _Lexer:
    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0
        self.line = 1
        self.tokens: list[Token] = []

    def run(self, until_brace: bool = False) -> list[Token]:
        s = self.s
        depth = 0
        while self.i < len(s):
            c = s[self.i]
            if c == "\n":
                self.line += 1
                self.i += 1
            elif c.isspace():
                self.i += 1
            elif s.startswith("//", self.i):
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end
            elif s.startswith("/*", self.i):
                end = s.index("*/", self.i) + 2
                self.line += s.count("\n", self.i, end)
                self.i = end
            elif c in "'\"":
                self.tokens.append(Token("string", self._quoted(c), self.line))
            elif c == "`":
                self._template()
            elif c == "/" and self._regex_allowed():
                self._regex()
            elif c.isalpha() or c in "_$":
                m = re.compile(r"[\w$]+").match(s, self.i)
                assert m
                self.tokens.append(Token("id", m.group(), self.line))
                self.i = m.end()
            elif c.isdigit():
                m = re.compile(r"[\d.]+(e[+-]?\d+)?|0x[\da-fA-F]+").match(s, self.i)
                assert m
                self.tokens.append(Token("number", m.group(), self.line))
                self.i = m.end()
            else:
                if until_brace and c == "{":
                    depth += 1
                elif until_brace and c == "}":
                    if depth == 0:
                        self.i += 1
                        return self.tokens
                    depth -= 1
                if s.startswith("=>", self.i):
                    self.tokens.append(Token("punct", "=>", self.line))
                    self.i += 2
                else:
                    self.tokens.append(Token("punct", c, self.line))
                    self.i += 1
        return self.tokens

    def _regex_allowed(self) -> bool:
        if not self.tokens:
            return True
        last = self.tokens[-1]
        return last.kind in ("punct", "id") and last.text in _REGEX_AFTER

    def _quoted(self, quote: str) -> str:
        s = self.s
        out = []
        self.i += 1
        while s[self.i] != quote:
            if s[self.i] == "\\":
                nxt = s[self.i + 1]
                if nxt == "u":
                    out.append(chr(int(s[self.i + 2:self.i + 6], 16)))
                    self.i += 6
                    continue
                out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                self.i += 2
                continue
            if s[self.i] == "\n":
                raise SyntaxError(f"line {self.line}: a string runs past the end of its line")
            out.append(s[self.i])
            self.i += 1
        self.i += 1
        return "".join(out)

    def _template(self) -> None:
        s = self.s
        start_line = self.line
        parts: list[str] = []
        buf: list[str] = []
        inner: list[Token] = []
        self.i += 1
        while s[self.i] != "`":
            if s[self.i] == "\\":
                buf.append(s[self.i + 1])
                self.i += 2
            elif s.startswith("${", self.i):
                parts.append("".join(buf))
                buf = []
                sub = _Lexer(s)
                sub.i, sub.line = self.i + 2, self.line
                inner.extend(sub.run(until_brace=True))
                self.i, self.line = sub.i, sub.line
            else:
                if s[self.i] == "\n":
                    self.line += 1
                buf.append(s[self.i])
                self.i += 1
        parts.append("".join(buf))
        self.i += 1
        token = Token("template", "\u2026".join(parts), start_line, parts)
        self.tokens.append(token)
        # The expressions inside are checked as code of their own, after the template.
        self.tokens.append(Token("punct", "⟨", start_line))
        self.tokens.extend(inner)
        self.tokens.append(Token("punct", "⟩", start_line))

    def _regex(self) -> None:
        s = self.s
        self.i += 1
        in_class = False
        while True:
            c = s[self.i]
            if c == "\\":
                self.i += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                break
            self.i += 1
        self.i += 1
        m = re.compile(r"[a-z]*").match(s, self.i)
        assert m
        self.i = m.end()
        self.tokens.append(Token("regex", "", self.line))


def tokenize(source: str) -> list[Token]:
    return _Lexer(source).run()


@dataclass
class _Frame:
    opener: str  # "(", "[", "{", "⟨" (a template's expressions)
    callee: str | None  # the name called, for a call's "("
    arg: int = 0
    key: str | None = None  # in an object literal: the key whose value this is
    assign: str | None = None  # the property assigned in this statement (textContent...)


def check_source(source: str, path: str = "<script>") -> list[Finding]:
    """The unmarked strings of one script that look like, or are put on the page as, words."""
    tokens = tokenize(source)
    findings: list[Finding] = []
    stack: list[_Frame] = [_Frame("top", None)]
    for n, tok in enumerate(tokens):
        prev = tokens[n - 1] if n else None
        nxt = tokens[n + 1] if n + 1 < len(tokens) else None
        top = stack[-1]
        if tok.kind == "punct":
            if tok.text in "([{⟨":
                callee = None
                if tok.text == "(" and prev and prev.kind == "id":
                    callee = prev.text
                stack.append(_Frame(tok.text, callee))
            elif tok.text in ")]}⟩":
                if len(stack) > 1:
                    stack.pop()
            elif tok.text == ",":
                top.arg += 1
                top.key = None
                top.assign = None
            elif tok.text == ";":
                top.assign = None
            elif tok.text == ":" and top.opener == "{" and prev and prev.kind in ("id", "string"):
                top.key = prev.text
            elif (tok.text == "=" and prev and prev.kind == "id"
                  and (nxt is None or nxt.text != "=")):
                top.assign = prev.text
            continue
        if tok.kind not in ("string", "template"):
            continue
        # Compared with (`kind === "bot"`, `c !== "all"`): a value of the code, never shown.
        before = [t.text for t in tokens[max(0, n - 2):n]]
        after = [t.text for t in tokens[n + 1:n + 3]]
        compared = before in (["=", "="], ["!", "="]) or after in (["=", "="], ["!", "="])
        why = _unmarked(tok, prev, nxt, stack, compared)
        if why:
            findings.append(Finding(path, tok.line, tok.text, why))
    return findings


def _call_frame(stack: list[_Frame]) -> _Frame | None:
    """The innermost call around a place, through the arrays and groupings between."""
    for frame in reversed(stack):
        if frame.opener == "(" and frame.callee:
            return frame
        if frame.opener in ("{", "⟨", "top"):
            return None
    return None


def _unmarked(tok: Token, prev: Token | None, nxt: Token | None,
              stack: list[_Frame], compared: bool) -> str | None:
    top = stack[-1]
    alone = (prev is not None and prev.text in "(," and nxt is not None and nxt.text in "),")
    if top.opener == "(" and top.callee in MESSAGE_ARGS:
        if tok.kind == "template":
            return f"a template literal in {top.callee}() (xgettext extracts literals only)"
        if alone and (top.arg in MESSAGE_ARGS[top.callee]
                      or top.arg in CONTEXT_ARGS.get(top.callee, set())):
            return None
    text = tok.text if tok.kind == "string" else " ".join(p for p in tok.parts)
    if not LETTER.search(text):
        return None
    if compared:
        return None
    call = _call_frame(stack)
    if top.opener == "{" and top.key in ALLOWED_KEYS and top.key not in TEXT_KEYS:
        return None
    on_page = (
        (top.opener == "{" and top.key in TEXT_KEYS)
        or any(f.assign in TEXT_PROPERTIES for f in stack)
        or (call is not None and call.callee in ("h", "svg") and call.arg >= 2)
        or (call is not None and call.callee in TEXT_CALLS)
    )
    if not on_page and call and call.callee in ALLOWED_CALLS and (
            call.callee not in ALLOWED_CALL_ARGS or call.arg in ALLOWED_CALL_ARGS[call.callee]):
        return None
    stripped = " ".join(p.strip() for p in (tok.parts or [tok.text])).strip()
    if on_page:
        return "put on the page unmarked"
    if any(shape.match(stripped) for shape in ALLOWED_SHAPES):
        return None
    if WORDS.search(stripped):
        return "words unmarked"
    return None


def check_scripts(root: Path = SCRIPTS) -> list[Finding]:
    """Every finding of every page script."""
    findings: list[Finding] = []
    for path in sorted(root.rglob("*.js")):
        if path.name in SKIPPED:
            continue
        findings.extend(check_source(path.read_text(encoding="utf-8"),
                                     str(path.relative_to(root))))
    return findings


if __name__ == "__main__":
    for finding in check_scripts():
        print(finding)
