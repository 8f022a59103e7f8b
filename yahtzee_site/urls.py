from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_page
from django.views.i18n import JavaScriptCatalog

from game.views import languages
from game.web.accounts import AdminSignInForm

# The admin's sign-in counts failures per address as the site's does (game.web.accounts).
admin.site.login_form = AdminSignInForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/language", languages.set_language, name="set_language"),
    # The scripts' words in the page's language: a script of its own (the CSP allows no inline
    # script). Pages ask for it at an address naming its language and a hash of its content,
    # kept a year like the hashed static files; the plain address (the page's language,
    # LocaleMiddleware varies it) stays for pages cached before.
    path("i18n/<str:language>/<str:version>/catalog.js", languages.catalog,
         name="javascript-catalog-versioned"),
    path("i18n/catalog.js", cache_page(3600)(JavaScriptCatalog.as_view()),
         name="javascript-catalog"),
    path("", include("game.urls")),
]
