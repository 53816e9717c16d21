"""The 20 collections as the deployment serves them: all ModelViewSets (list, create, retrieve,
update, partial update, destroy), open to anyone (AllowAny), PageNumberPagination of PAGE_SIZE except
the two with LargePages. What an anonymous client sees is the deployment's: desks (active ones) and
desk reservations; every other queryset is empty without a user. A user (a token or a session) sees
every row. Docstrings are the document's one-line descriptions (OPTIONS answers them)."""

from django.http import Http404
from rest_framework import viewsets
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from . import models
from .serializers import DeskSerializer, without_fields


class PostgresLookups:
    """An integer pk outside 64 bits (99999999999999999999) matches no row on the deployment's
    PostgreSQL (a 404 from get_object_or_404); SQLite's driver raises OverflowError instead, which
    DRF's get_object_or_404 does not catch (generics.py: TypeError, ValueError, ValidationError)."""

    def get_object(self):
        try:
            return super().get_object()
        except OverflowError:
            raise Http404(f'No {self.get_queryset().model._meta.object_name} matches the given query.') from None


class LargePages(PageNumberPagination):
    """mealstop and jobtitle: 1,000 a page, and the client may ask for any page size (no maximum)."""

    page_size = 1000
    page_size_query_param = 'page_size'


class Collection(PostgresLookups, viewsets.ModelViewSet):
    """A collection whose items the document does not describe. `anonymous_model`: the model whose
    empty queryset an anonymous client gets (its name is in the 404 of an item: GenericAPIView.get_object
    → get_object_or_404 → "No <Model> matches the given query.")."""

    model = None
    anonymous_model = None

    def get_queryset(self):
        if self.request.user.is_authenticated:
            return self.model.objects.order_by('pk')
        return (self.anonymous_model or self.model).objects.none()

    def get_serializer_class(self):
        return without_fields(self.model)


def collection(name, model, doc, **attrs):
    """A Collection subclass named as the deployment's viewset (OPTIONS names a view after its class:
    "Tag List", "Performance Review Instance")."""
    # `queryset` gives the router its basename (the model's name in lower case).
    body = {'__doc__': doc, '__module__': __name__, 'model': model, 'queryset': model.objects.none(), **attrs}
    return type(name, (Collection,), body)


class DeskViewSet(PostgresLookups, viewsets.ModelViewSet):
    """Desks (listing described for desk reservations)"""

    queryset = models.Desk.active_desks.all()  # ordered by the model's Meta: building, floor, number
    serializer_class = DeskSerializer


class DeskReservationViewSet(Collection):
    """Desk reservations"""

    model = models.DeskReservation
    queryset = models.DeskReservation.objects.none()

    def get_queryset(self):
        # the one collection besides desk that an anonymous client sees in full
        return self.model.objects.order_by('pk')


class NoObjectPermission(AllowAny):
    """mealstop: the deployment's object permission answers nothing (None) for every request, so an
    existing stop's item is 403 to anyone who can see it (APIView.check_object_permissions)."""

    def has_object_permission(self, request, view, obj):
        return False


class PerformanceReviewViewSet(Collection):
    """Performance reviews"""

    model = models.PerformanceReview
    queryset = models.PerformanceReview.objects.none()

    def retrieve(self, request, *args, **kwargs):
        # The deployment answers an anonymous GET of any review, existing or not, with a bare 403:
        # Response(status=403), no data, so no body and no Content-Type (Response.rendered_content
        # drops the header for empty content).
        if not request.user.is_authenticated:
            return Response(status=403)
        return super().retrieve(request, *args, **kwargs)


class TeleworkApplicationViewSet(Collection):
    """Telework applications"""

    model = models.TeleworkApplication
    queryset = models.TeleworkApplication.objects.none()

    def get_queryset(self):
        # The deployment's retrieve looks an application up among all of them, not among the ones the
        # client may list: an existing application's item answers an anonymous client too.
        if self.action == 'retrieve':
            return self.model.objects.order_by('pk')
        return super().get_queryset()


M = models
SignatureViewSet = collection('SignatureViewSet', M.Signature, 'Signatures; described as creatable')
TeleworkSignatureViewSet = collection('TeleworkSignatureViewSet', M.TeleworkSignature, 'Telework signatures; described as creatable')
ViewedSecurityMessageViewSet = collection('ViewedSecurityMessageViewSet', M.ViewedSecurityMessage, 'Marking security messages as viewed')
TagViewSet = collection('TagViewSet', M.Tag, 'Tags; described as viewable or editable')
# expense-statement and expense-month give an anonymous client an empty queryset of Expense
ExpenseStatementViewSet = collection('ExpenseStatementViewSet', M.ExpenseStatement, 'Credit card expense statements', anonymous_model=M.Expense)
ExpenseMonthLockViewSet = collection('ExpenseMonthLockViewSet', M.ExpenseMonthLock, 'Locking of expense months')
EmployeeViewSet = collection('EmployeeViewSet', M.Employee, 'Employees; described as viewable or editable')
MealStopViewSet = collection('MealStopViewSet', M.Stop, 'Stops of a meals-delivery programme', pagination_class=LargePages, permission_classes=[NoObjectPermission])
ExpenseViewSet = collection('ExpenseViewSet', M.Expense, 'Credit card expenses')
TransitionChangeViewSet = collection('TransitionChangeViewSet', M.TransitionChange, 'Transition changes')
TimeOffRequestViewSet = collection('TimeOffRequestViewSet', M.TimeOffRequest, 'Time off requests')
ExpenseMonthViewSet = collection('ExpenseMonthViewSet', M.ExpenseMonth, 'Expense months', anonymous_model=M.Expense)
ReviewNoteViewSet = collection('ReviewNoteViewSet', M.ReviewNote, 'Review notes')
StepChoiceViewSet = collection('StepChoiceViewSet', M.StepChoice, 'Step choices')
JobTitleViewSet = collection('JobTitleViewSet', M.JobTitle, 'Job titles', pagination_class=LargePages)
WorkflowViewSet = collection('WorkflowViewSet', M.Workflow, 'Workflows')
