"""
The designer profile (REF_PROFILE=designer): the designer's edit of the spec
(test/fixtures/designer/openapi.yaml) as a Django developer implements it with stock DRF and
django-filter: a ModelViewSet of desks (field filters, search, ordering, page_size), read-only
employees with an item route, creatable signatures. Everything else as refsite/settings.py.

  REF_DESIGNER_OTHERS=1  also route the other 17 collections of the default profile (empty);
                         off by default, since the designer's spec declares three paths only.
"""

import os

from .settings_base import *  # noqa: F401,F403
from .settings_base import INSTALLED_APPS

INSTALLED_APPS = [app for app in INSTALLED_APPS if app != 'workplace'] + ['django_filters', 'designer']

REF_DESIGNER_OTHERS = os.environ.get('REF_DESIGNER_OTHERS') == '1'
if REF_DESIGNER_OTHERS:
    INSTALLED_APPS.append('workplace')

ROOT_URLCONF = 'refsite.urls_designer'
