from django.conf import settings
from rest_framework.routers import DefaultRouter

from . import views

# The three paths of the designer's spec, in its order. (REF_DESIGNER_OTHERS=1 adds the other 17
# collections of the default profile, empty, as workplace/urls.py registers them under `v1/`.)
router = DefaultRouter(trailing_slash=False)
router.register('desk', views.DeskViewSet)
router.register('employee', views.EmployeeViewSet)
router.register('signature', views.SignatureViewSet)

if settings.REF_DESIGNER_OTHERS:
    from workplace.urls import router as workplace_router

    for prefix, viewset, basename in workplace_router.registry:
        name = prefix.removeprefix('v1/')
        if name not in ('desk', 'employee', 'signature'):
            router.register(name, viewset, basename)
