"""
The deployment profile (the default): the Workplace Administration Service configured as the
deployment the interface document was written from. Where the document speaks it decides; where it
is silent, the deployment's configuration does (authentication, permissions, pagination, CORS,
router layout). Stock settings come from settings_base.py. Knobs from the environment:

  REF_PAGE_SIZE        PAGE_SIZE of the default pagination (the deployment's: 100)
  REF_ALLOWED_HOSTS    ALLOWED_HOSTS, comma-separated (default *; production's are
                       app.team.lcog.org,api.team.lcog.org)
  REF_TRUST_PROXY=1    USE_X_FORWARDED_HOST and SECURE_PROXY_SSL_HEADER (the deployment sets neither)
  REF_FRONTEND_ORIGIN  the CORS origin every answer names (the deployment's FRONTEND_DOMAIN:
                       https://app.team.lcog.org in production); unset: no CORS headers
  REF_TOKENS           valid token keys, comma-separated, one user each (serve.py)
  REF_SESSIONS         valid session keys, comma-separated, one user each (serve.py)
  REF_FAULT            a planted fault, for tests of the contract checker (workplace/faults.py)
"""

import os

from .settings_base import *  # noqa: F401,F403

INSTALLED_APPS = [
    'django.contrib.admin',
    'django.contrib.auth',
    'django.contrib.contenttypes',
    'django.contrib.sessions',
    'django.contrib.messages',
    'django.contrib.staticfiles',
    'rest_framework',
    'rest_framework.authtoken',  # the Token model TokenAuthentication looks keys up in
    'workplace',
]

# The deployment's order. The CORS middleware sits inside CommonMiddleware and CsrfViewMiddleware, so
# the answers those two make themselves (a 301 of APPEND_SLASH, a 400 for a bad Host, raised in
# CommonMiddleware.process_request) carry no CORS headers; every answer from the url resolver or a
# view (404 pages, DRF's answers, CSRF failures inside DRF) does.
MIDDLEWARE = [
    'django.middleware.security.SecurityMiddleware',
    'django.contrib.sessions.middleware.SessionMiddleware',
    'django.middleware.common.CommonMiddleware',
    'django.middleware.csrf.CsrfViewMiddleware',
    'workplace.cors.FrontendCorsMiddleware',
    'django.contrib.auth.middleware.AuthenticationMiddleware',
    'django.contrib.messages.middleware.MessageMiddleware',
    'django.middleware.clickjacking.XFrameOptionsMiddleware',
]

X_FRAME_OPTIONS = 'SAMEORIGIN'
TIME_ZONE = 'America/Los_Angeles'  # "today" of a desk's held_today
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'  # 32-bit integer pks, as the deployment's

REF_FRONTEND_ORIGIN = os.environ.get('REF_FRONTEND_ORIGIN', '')

REST_FRAMEWORK = {
    # A token (`Authorization: Token <key>`) first, then the session: a bad token header is a 401
    # on every endpoint, open ones included (TokenAuthentication raises AuthenticationFailed, and
    # APIView.permission_denied is never reached); `Basic` and `Bearer` are not its keyword and pass
    # as anonymous.
    'DEFAULT_AUTHENTICATION_CLASSES': [
        'rest_framework.authentication.TokenAuthentication',
        'rest_framework.authentication.SessionAuthentication',
    ],
    'DEFAULT_PERMISSION_CLASSES': ['rest_framework.permissions.AllowAny'],
    'DEFAULT_PAGINATION_CLASS': 'rest_framework.pagination.PageNumberPagination',
    'PAGE_SIZE': int(os.environ.get('REF_PAGE_SIZE', '100')),
    # The deployment renders JSON and DRF's browsable API (text/html, format `api`). The document
    # decides that the browsable answer is the JSON one: the `api` renderer negotiates as text/html
    # and the negotiation hands its answer to the JSON renderer (workplace/negotiation.py).
    'DEFAULT_RENDERER_CLASSES': [
        'rest_framework.renderers.JSONRenderer',
        'workplace.renderers.BrowsableAsJSONRenderer',
    ],
    'DEFAULT_CONTENT_NEGOTIATION_CLASS': 'workplace.negotiation.BrowsableAsJSONNegotiation',
}

if REF_FAULT == 'count-lies':  # noqa: F405 (from settings_base)
    REST_FRAMEWORK['DEFAULT_PAGINATION_CLASS'] = 'workplace.faults.CountLiesPagination'
if REF_FAULT == 'other-host':  # noqa: F405
    MIDDLEWARE.append('workplace.faults.OtherHostMiddleware')
