"""How production serves static files: WhiteNoise, hashed names, a year's cache."""

from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """A file whose name carries its content's hash never changes: browsers keep it a year (the
    customary longest: HTTP/1.1 capped "Expires" at a year; WhiteNoise's own is ten)."""

    FOREVER = 365 * 24 * 60 * 60


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Compressed copies and hashed names (collectstatic), the modules' imports included: room.js
    must import the same hashed dom.js that the page preloads and browsers keep for a year."""

    support_js_module_import_aggregation = True
