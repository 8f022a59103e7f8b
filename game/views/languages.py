"""The language menu: read the site in another language from now on; the scripts' words in
each language, at an address that changes with them (cached as long as the scripts)."""

from __future__ import annotations

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import services
from ..web.languages import catalog_script, catalog_version, set_cookie, supported
from ..web.players import current_player

#: How long a browser keeps a catalog whose address names its content: as long as the
#: hashed static files (yahtzee_site/static_files.py).
FOREVER = 365 * 24 * 60 * 60
#: A catalog asked for by an older address (a page cached across a new release): today's
#: words, kept briefly.
BRIEFLY = 3600


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher: read the site in ``language`` from now on, then back to ``next``."""
    code = supported(request.POST.get("language", ""))
    if code is None:
        return HttpResponseBadRequest(_("That language is not one of this site’s."),
                                      content_type="text/plain; charset=utf-8")
    next_url = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    set_cookie(response, code)
    request._language_chosen = True
    player = current_player(request)
    if player is not None and player.user_id is not None:
        services.set_language(player, code)
    return response


@require_GET
def catalog(request: HttpRequest, language: str, version: str) -> HttpResponse:
    """The scripts' catalog of ``language`` (base.html asks for it at its ``version``, a hash
    of its content): the same address always answers the same bytes, kept a year."""
    if supported(language) is None:
        raise Http404("No such language.")
    response = HttpResponse(catalog_script(language), content_type="text/javascript; charset=utf-8")
    if version == catalog_version(language):
        patch_cache_control(response, public=True, max_age=FOREVER, immutable=True)
    else:
        patch_cache_control(response, public=True, max_age=BRIEFLY)
    return response
