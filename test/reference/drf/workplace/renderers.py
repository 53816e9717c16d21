from rest_framework.renderers import JSONRenderer


class APIRenderer(JSONRenderer):
    """`?format=api`: the documented requests use it and answer the JSON envelope."""

    format = 'api'
