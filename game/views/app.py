"""The site as an installable app: its web app manifest, its service worker (at the site's
root, so that it serves every page) and the page it shows offline."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: The site's colours (static/game/shared/site.css): the header's navy, the page's paper.
THEME_COLOUR = "#1d3557"
BACKGROUND_COLOUR = "#f6f4ef"
OFFLINE_URL = "/offline"
#: The files the offline page needs besides itself, cached with it.
OFFLINE_ASSETS = ("game/shared/site.css", "game/shared/favicon.svg")


@require_GET
@cache_control(no_cache=True)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest (https://www.w3.org/TR/appmanifest/), in the reader's language."""
    data = {
        "id": "/",
        "name": _("Yahtzee with friends"),
        "short_name": "Yahtzee",
        "description": _("Play Yahtzee, Yatzy and Triple Yahtzee in your browser with friends "
                         "or against the computer: no sign-up, dice anyone can verify."),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("game/shared/icons/icon-192.png"), "sizes": "192x192",
             "type": "image/png", "purpose": "any"},
            {"src": static("game/shared/icons/icon-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "any"},
            {"src": static("game/shared/icons/icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Type"] = "application/manifest+json"
    return response


@cache
def _worker_source(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/game/shared/sw.js at /sw.js, its scope the whole site, after one line of settings:
    the offline page, its cache (named after what it holds, so a new stylesheet or icon makes
    the worker new and the cache fresh), the notification icon, the site's name. Never from
    a cache without asking (a browser checks for a new worker on every visit anyway)."""
    path = finders.find("game/shared/sw.js")
    if not isinstance(path, str):
        raise FileNotFoundError("static/game/shared/sw.js")
    source = _worker_source(path) if not settings.DEBUG else _worker_source.__wrapped__(path)
    assets = [static(name) for name in OFFLINE_ASSETS]
    config = {"offline": OFFLINE_URL, "assets": assets,
              "icon": static("game/shared/icons/icon-192.png"), "name": _("Yahtzee with friends")}
    version = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:12]
    config["cache"] = f"yahtzee-offline-{get_language()}-{version}"
    script = f"self.swConfig = {json.dumps(config)};\n{source}"
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@cache_control(no_cache=True)
def offline(request: HttpRequest) -> HttpResponse:
    """What a page opened without a connection shows (the service worker keeps a copy)."""
    return render(request, "game/offline.html",
                  {"theme_colour": THEME_COLOUR, "assets": OFFLINE_ASSETS})
