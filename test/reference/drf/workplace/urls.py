from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=False)
router.register('signature', views.SignatureViewSet)
router.register('teleworksignature', views.TeleworkSignatureViewSet)
router.register('viewedsecuritymessage', views.ViewedSecurityMessageViewSet)
router.register('responsibilitytags', views.ResponsibilityTagViewSet)
router.register('expense-statement', views.ExpenseStatementViewSet)
router.register('expense-month-lock', views.ExpenseMonthLockViewSet)
router.register('employee', views.EmployeeViewSet)
router.register('deskreservation', views.DeskReservationViewSet)
router.register('mealstop', views.MealStopViewSet)
router.register('expense', views.ExpenseViewSet)
router.register('desk', views.DeskViewSet)
router.register('teleworkapplication', views.TeleworkApplicationViewSet)
router.register('transitionchange', views.TransitionChangeViewSet)
router.register('timeoffrequest', views.TimeOffRequestViewSet)
router.register('expense-month', views.ExpenseMonthViewSet)
router.register('reviewnote', views.ReviewNoteViewSet)
router.register('stepchoice', views.StepChoiceViewSet)
router.register('review', views.ReviewViewSet)
router.register('jobtitle', views.JobTitleViewSet)
router.register('workflow', views.WorkflowViewSet)

# Planted faults (tests of the contract checker only; see faults.py).
from django.conf import settings  # noqa: E402

if settings.REF_FAULT.startswith('server-error:'):
    from .faults import break_collection

    break_collection(router, settings.REF_FAULT.split(':', 1)[1])
