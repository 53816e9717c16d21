from django.conf import settings
from rest_framework.routers import DefaultRouter

from . import views

# One router for the whole API, mounted at api/ (refsite/urls.py) with `v1/<name>` prefixes: its root
# view is /api/ (keys "v1/desk" and the like), /api answers APPEND_SLASH's 301 to it, and /api/v1/ is
# no route at all. No trailing slashes. Registered in the deployment's order (the root lists them so).
router = DefaultRouter(trailing_slash=False)
router.register('v1/employee', views.EmployeeViewSet)
router.register('v1/jobtitle', views.JobTitleViewSet)
router.register('v1/responsibilitytags', views.TagViewSet)
router.register('v1/desk', views.DeskViewSet)
router.register('v1/deskreservation', views.DeskReservationViewSet)
router.register('v1/expense', views.ExpenseViewSet)
router.register('v1/expense-month', views.ExpenseMonthViewSet)
router.register('v1/expense-month-lock', views.ExpenseMonthLockViewSet)
router.register('v1/expense-statement', views.ExpenseStatementViewSet)
router.register('v1/review', views.PerformanceReviewViewSet)
router.register('v1/signature', views.SignatureViewSet)
router.register('v1/reviewnote', views.ReviewNoteViewSet)
router.register('v1/teleworkapplication', views.TeleworkApplicationViewSet)
router.register('v1/teleworksignature', views.TeleworkSignatureViewSet)
router.register('v1/viewedsecuritymessage', views.ViewedSecurityMessageViewSet)
router.register('v1/timeoffrequest', views.TimeOffRequestViewSet)
router.register('v1/stepchoice', views.StepChoiceViewSet)
router.register('v1/workflow', views.WorkflowViewSet)
router.register('v1/transitionchange', views.TransitionChangeViewSet)
router.register('v1/mealstop', views.MealStopViewSet)

# Planted faults (tests of the contract checker only; see faults.py).
if settings.REF_FAULT.startswith('server-error:'):
    from .faults import break_collection

    break_collection(router, settings.REF_FAULT.split(':', 1)[1])
