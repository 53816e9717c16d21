from rest_framework.renderers import JSONRenderer


class JSONFormatAPIRenderer(JSONRenderer):
    """The designer profile: `?format=api` is one more name of the JSON format."""

    format = 'api'


class BrowsableAsJSONRenderer(JSONRenderer):
    """The deployment profile: stands where DRF's BrowsableAPIRenderer stands (media type text/html,
    format `api`), so that negotiation picks it exactly where the deployment picks the browsable API;
    BrowsableAsJSONNegotiation then answers with the JSON renderer instead (the document's decision).
    Its media type also appears as the deployment's does in an OPTIONS answer's `renders`."""

    media_type = 'text/html'
    format = 'api'
