from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer

from .renderers import BrowsableAsJSONRenderer


class BrowsableAsJSONNegotiation(DefaultContentNegotiation):
    """DRF's own negotiation (format suffix, then `?format=`, then Accept; 406 where nothing matches:
    rest_framework/negotiation.py select_renderer), except that where it picks the browsable API the
    answer is JSON: `?format=api` and a browser's `Accept: text/html` get the JSON envelope, never a
    page and never a 406. Response.rendered_content takes the Content-Type from the renderer chosen
    here, so the answer says application/json."""

    def select_renderer(self, request, renderers, format_suffix=None):
        renderer, media_type = super().select_renderer(request, renderers, format_suffix)
        if isinstance(renderer, BrowsableAsJSONRenderer):
            return JSONRenderer(), JSONRenderer.media_type
        return renderer, media_type
