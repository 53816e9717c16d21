from django.conf import settings
from rest_framework import serializers

from . import models


class DeskSerializer(serializers.HyperlinkedModelSerializer):
    """The document's nine fields. `url` is the HyperlinkedIdentityField of view `desk-detail`; `pk`
    maps to the AutoField (read-only, label "ID"); `held_today`, a property, a ReadOnlyField."""

    class Meta:
        model = models.Desk
        fields = ['url', 'pk', 'building', 'floor', 'number', 'active', 'lead', 'ergonomic', 'held_today']


def without_fields(model):
    """The serializer of a resource whose fields the document does not describe: a ModelSerializer
    with an empty field list. Items render as `{}`, any body validates, and a create answers 201 `{}`
    without Location (CreateModelMixin.get_success_headers finds no `url` in the data)."""
    meta = type('Meta', (), {'model': model, 'fields': []})
    return type(f'{model.__name__}Serializer', (serializers.ModelSerializer,), {'Meta': meta, '__module__': __name__})


# Planted faults (tests of the contract checker only; see faults.py).
if settings.REF_FAULT in ('missing-field', 'wrong-type'):
    from .faults import fault_desk_serializer

    DeskSerializer = fault_desk_serializer(DeskSerializer, settings.REF_FAULT)
