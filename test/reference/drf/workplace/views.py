from django.conf import settings
from rest_framework import mixins, viewsets

from . import models, serializers

# The interface document shows a detail path for desk only; REF_DETAIL_ROUTES names more resources
# that get one (for specs that declare more detail paths).
DETAIL_ROUTES = {'desk', *settings.REF_DETAIL_ROUTES}


def read_only(resource):
    """The bases of a resource's viewset: list and retrieve, or list only."""
    if resource in DETAIL_ROUTES:
        return (viewsets.ReadOnlyModelViewSet,)
    return (mixins.ListModelMixin, viewsets.GenericViewSet)


class SignatureViewSet(*read_only('signature')):
    queryset = models.Signature.objects.order_by('pk')
    serializer_class = serializers.SignatureSerializer


class TeleworkSignatureViewSet(*read_only('teleworksignature')):
    queryset = models.TeleworkSignature.objects.order_by('pk')
    serializer_class = serializers.TeleworkSignatureSerializer


class ViewedSecurityMessageViewSet(*read_only('viewedsecuritymessage')):
    queryset = models.ViewedSecurityMessage.objects.order_by('pk')
    serializer_class = serializers.ViewedSecurityMessageSerializer


class ResponsibilityTagViewSet(*read_only('responsibilitytags')):
    queryset = models.ResponsibilityTag.objects.order_by('pk')
    serializer_class = serializers.ResponsibilityTagSerializer


class ExpenseStatementViewSet(*read_only('expense-statement')):
    queryset = models.ExpenseStatement.objects.order_by('pk')
    serializer_class = serializers.ExpenseStatementSerializer


class ExpenseMonthLockViewSet(*read_only('expense-month-lock')):
    queryset = models.ExpenseMonthLock.objects.order_by('pk')
    serializer_class = serializers.ExpenseMonthLockSerializer


class EmployeeViewSet(*read_only('employee')):
    queryset = models.Employee.objects.order_by('pk')
    serializer_class = serializers.EmployeeSerializer


class DeskReservationViewSet(*read_only('deskreservation')):
    queryset = models.DeskReservation.objects.order_by('pk')
    serializer_class = serializers.DeskReservationSerializer


class MealStopViewSet(*read_only('mealstop')):
    queryset = models.MealStop.objects.order_by('pk')
    serializer_class = serializers.MealStopSerializer


class ExpenseViewSet(*read_only('expense')):
    queryset = models.Expense.objects.order_by('pk')
    serializer_class = serializers.ExpenseSerializer


class DeskViewSet(*read_only('desk')):
    queryset = models.Desk.objects.order_by('pk')
    serializer_class = serializers.DeskSerializer


class TeleworkApplicationViewSet(*read_only('teleworkapplication')):
    queryset = models.TeleworkApplication.objects.order_by('pk')
    serializer_class = serializers.TeleworkApplicationSerializer


class TransitionChangeViewSet(*read_only('transitionchange')):
    queryset = models.TransitionChange.objects.order_by('pk')
    serializer_class = serializers.TransitionChangeSerializer


class TimeOffRequestViewSet(*read_only('timeoffrequest')):
    queryset = models.TimeOffRequest.objects.order_by('pk')
    serializer_class = serializers.TimeOffRequestSerializer


class ExpenseMonthViewSet(*read_only('expense-month')):
    queryset = models.ExpenseMonth.objects.order_by('pk')
    serializer_class = serializers.ExpenseMonthSerializer


class ReviewNoteViewSet(*read_only('reviewnote')):
    queryset = models.ReviewNote.objects.order_by('pk')
    serializer_class = serializers.ReviewNoteSerializer


class StepChoiceViewSet(*read_only('stepchoice')):
    queryset = models.StepChoice.objects.order_by('pk')
    serializer_class = serializers.StepChoiceSerializer


class ReviewViewSet(*read_only('review')):
    queryset = models.Review.objects.order_by('pk')
    serializer_class = serializers.ReviewSerializer


class JobTitleViewSet(*read_only('jobtitle')):
    queryset = models.JobTitle.objects.order_by('pk')
    serializer_class = serializers.JobTitleSerializer


class WorkflowViewSet(*read_only('workflow')):
    queryset = models.Workflow.objects.order_by('pk')
    serializer_class = serializers.WorkflowSerializer
