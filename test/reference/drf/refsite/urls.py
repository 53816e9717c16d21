from django.contrib import admin
from django.urls import include, path
from django.views.generic.base import RedirectView

from workplace.state import reset
from workplace.urls import router

urlpatterns = [
    # the deployment sends its bare origin to the API root (a temporary redirect)
    path('', RedirectView.as_view(url='/api/', permanent=False)),
    path('api/', include(router.urls)),
    path('admin/', admin.site.urls),
    # the deployment's favicon lives with its static files (a temporary redirect)
    path('favicon.ico', RedirectView.as_view(url='/static/favicon.ico', permanent=False)),
    # test-only: the differential test resets the state between sequences of writes
    path('__ref/reset', reset),
]
