from django.contrib import admin
from django.urls import include, path

from designer.fixtures import reset
from designer.urls import router

urlpatterns = [
    path('admin/', admin.site.urls),
    path('api/v1/', include(router.urls)),
    # test-only: the differential test resets the state between sequences of writes
    path('__ref/reset', reset),
]
