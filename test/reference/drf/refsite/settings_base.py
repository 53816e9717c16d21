"""
Stock settings shared by both profiles: `django-admin startproject refsite`, with the DRF app added.
The deployment profile (refsite/settings.py) and the designer profile (refsite/settings_designer.py)
build on these. Knobs come from the environment:

  REF_PAGE_SIZE      PAGE_SIZE of PageNumberPagination (default 100)
  REF_ALLOWED_HOSTS  ALLOWED_HOSTS, comma-separated (default *)
  REF_TRUST_PROXY=1  USE_X_FORWARDED_HOST and SECURE_PROXY_SSL_HEADER
  REF_DB             the SQLite file (serve.py makes a temporary one)
  REF_FAULT          a planted fault, for tests of the contract checker (see workplace/faults.py)
"""

import os
from pathlib import Path

# Build paths inside the project like this: BASE_DIR / 'subdir'.
BASE_DIR = Path(__file__).resolve().parent.parent


# SECURITY WARNING: keep the secret key used in production secret!
SECRET_KEY = 'django-insecure-reference-deployment-of-the-workplace-administration-service'

# SECURITY WARNING: don't run with debug turned on in production!
DEBUG = False

ALLOWED_HOSTS = [h.strip() for h in os.environ.get('REF_ALLOWED_HOSTS', '*').split(',') if h.strip()]

if os.environ.get('REF_TRUST_PROXY') == '1':
    USE_X_FORWARDED_HOST = True
    SECURE_PROXY_SSL_HEADER = ('HTTP_X_FORWARDED_PROTO', 'https')


# Application definition

INSTALLED_APPS = [
    'django.contrib.admin',
    'django.contrib.auth',
    'django.contrib.contenttypes',
    'django.contrib.sessions',
    'django.contrib.messages',
    'django.contrib.staticfiles',
    'rest_framework',
    'workplace',
]

MIDDLEWARE = [
    'django.middleware.security.SecurityMiddleware',
    'django.contrib.sessions.middleware.SessionMiddleware',
    'django.middleware.common.CommonMiddleware',
    'django.middleware.csrf.CsrfViewMiddleware',
    'django.contrib.auth.middleware.AuthenticationMiddleware',
    'django.contrib.messages.middleware.MessageMiddleware',
    'django.middleware.clickjacking.XFrameOptionsMiddleware',
]

ROOT_URLCONF = 'refsite.urls'

TEMPLATES = [
    {
        'BACKEND': 'django.template.backends.django.DjangoTemplates',
        'DIRS': [],
        'APP_DIRS': True,
        'OPTIONS': {
            'context_processors': [
                'django.template.context_processors.debug',
                'django.template.context_processors.request',
                'django.contrib.auth.context_processors.auth',
                'django.contrib.messages.context_processors.messages',
            ],
        },
    },
]

WSGI_APPLICATION = 'refsite.wsgi.application'


# Database

DATABASES = {
    'default': {
        'ENGINE': 'django.db.backends.sqlite3',
        'NAME': os.environ.get('REF_DB') or BASE_DIR / 'db.sqlite3',
    }
}


# Password validation

AUTH_PASSWORD_VALIDATORS = [
    {
        'NAME': 'django.contrib.auth.password_validation.UserAttributeSimilarityValidator',
    },
    {
        'NAME': 'django.contrib.auth.password_validation.MinimumLengthValidator',
    },
    {
        'NAME': 'django.contrib.auth.password_validation.CommonPasswordValidator',
    },
    {
        'NAME': 'django.contrib.auth.password_validation.NumericPasswordValidator',
    },
]


# Internationalization

LANGUAGE_CODE = 'en-us'

TIME_ZONE = 'UTC'

USE_I18N = True

USE_L10N = True

USE_TZ = True


# Static files (CSS, JavaScript, Images)

STATIC_URL = '/static/'

# Default primary key field type

DEFAULT_AUTO_FIELD = 'django.db.models.BigAutoField'


# Django REST framework

REST_FRAMEWORK = {
    'DEFAULT_PAGINATION_CLASS': 'rest_framework.pagination.PageNumberPagination',
    'PAGE_SIZE': int(os.environ.get('REF_PAGE_SIZE', '100')),
    # The documented requests carry format=api and answer the JSON envelope: `api` is a JSON format here.
    'DEFAULT_RENDERER_CLASSES': [
        'rest_framework.renderers.JSONRenderer',
        'workplace.renderers.JSONFormatAPIRenderer',
    ],
}

REF_FAULT = os.environ.get('REF_FAULT', '')

if REF_FAULT == 'count-lies':
    REST_FRAMEWORK['DEFAULT_PAGINATION_CLASS'] = 'workplace.faults.CountLiesPagination'
if REF_FAULT == 'other-host':
    MIDDLEWARE.append('workplace.faults.OtherHostMiddleware')
