"""A room's invite link as a QR code, drawn on the server as inline SVG (no script, no style
attribute: the site's Content-Security-Policy allows neither inline)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def invite_qr_svg(url: str) -> SafeString:
    """``url`` as an SVG QR code that scales with its box (dark modules on white, a quiet zone
    of 4 modules, so phones read it in either colour theme)."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=4, dark="#000", light="#fff", svgclass="qr-code",
                          lineclass=None, omitsize=True, title=_("QR code of the invite link"))
    # segno writes only its own elements and the escaped title: safe to insert as markup.
    return mark_safe(svg)  # noqa: S308
