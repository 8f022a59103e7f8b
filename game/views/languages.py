"""The language menu: read the site in another language from now on."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..web.languages import set_cookie, supported
from ..web.players import current_player


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher: read the site in ``language`` from now on, then back to ``next``."""
    code = supported(request.POST.get("language", ""))
    if code is None:
        return HttpResponseBadRequest(_("That language is not one of this site's."),
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
