"""Planted faults, chosen by REF_FAULT, for tests of the contract checker. None is active by default.

  missing-field          the desk serializer drops held_today
  wrong-type             a desk's floor is rendered as a string
  other-host             item urls and pagination links name http://elsewhere.invalid
  server-error:<name>    that collection raises (Django's HTML 500)
  count-lies             the paginator's count is one more than the collection holds
"""

from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination


def fault_desk_serializer(base, fault):
    meta = base.Meta
    if fault == 'missing-field':
        fields = [f for f in meta.fields if f != 'held_today']
        return type('DeskSerializer', (base,), {'Meta': type('Meta', (meta,), {'fields': fields}), '__module__': base.__module__})
    if fault == 'wrong-type':
        return type('DeskSerializer', (base,), {'floor': serializers.CharField(), 'Meta': meta, '__module__': base.__module__})
    return base


class CountLiesPagination(PageNumberPagination):
    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        response.data['count'] = self.page.paginator.count + 1
        return response


class OtherHostMiddleware:
    """Every absolute url built from the request (build_absolute_uri) names another host."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request._current_scheme_host = 'http://elsewhere.invalid'
        return self.get_response(request)


def break_collection(router, resource):
    for prefix, viewset, _basename in router.registry:
        if prefix in (resource, f'v1/{resource}'):
            def list(self, request, *args, **kwargs):  # noqa: A001
                raise RuntimeError(f'planted fault: the {resource} collection fails')

            viewset.list = list
            return
    raise SystemExit(f'REF_FAULT: no collection {resource!r}')
