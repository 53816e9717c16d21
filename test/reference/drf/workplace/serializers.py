from django.conf import settings
from rest_framework import serializers

from . import models


class DeskSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = models.Desk
        fields = ['url', 'pk', 'building', 'floor', 'number', 'active', 'lead', 'ergonomic', 'held_today']


def _empty(model):
    """A serializer of a resource whose fields the interface document does not describe: items are `{}`."""
    meta = type('Meta', (), {'model': model, 'fields': []})
    return type(f'{model.__name__}Serializer', (serializers.HyperlinkedModelSerializer,), {'Meta': meta, '__module__': __name__})


SignatureSerializer = _empty(models.Signature)
TeleworkSignatureSerializer = _empty(models.TeleworkSignature)
ViewedSecurityMessageSerializer = _empty(models.ViewedSecurityMessage)
ResponsibilityTagSerializer = _empty(models.ResponsibilityTag)
ExpenseStatementSerializer = _empty(models.ExpenseStatement)
ExpenseMonthLockSerializer = _empty(models.ExpenseMonthLock)
EmployeeSerializer = _empty(models.Employee)
DeskReservationSerializer = _empty(models.DeskReservation)
MealStopSerializer = _empty(models.MealStop)
ExpenseSerializer = _empty(models.Expense)
TeleworkApplicationSerializer = _empty(models.TeleworkApplication)
TransitionChangeSerializer = _empty(models.TransitionChange)
TimeOffRequestSerializer = _empty(models.TimeOffRequest)
ExpenseMonthSerializer = _empty(models.ExpenseMonth)
ReviewNoteSerializer = _empty(models.ReviewNote)
StepChoiceSerializer = _empty(models.StepChoice)
ReviewSerializer = _empty(models.Review)
JobTitleSerializer = _empty(models.JobTitle)
WorkflowSerializer = _empty(models.Workflow)


# Planted faults (tests of the contract checker only; see faults.py).
if settings.REF_FAULT in ('missing-field', 'wrong-type'):
    from .faults import fault_desk_serializer

    DeskSerializer = fault_desk_serializer(DeskSerializer, settings.REF_FAULT)
