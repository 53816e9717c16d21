"""The deployment profile's data: fixtures, users, sessions, and the test-only reset."""

import json
import os
from pathlib import Path

from django.db import IntegrityError, connection, transaction
from django.http import HttpResponse, HttpResponseNotAllowed
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from . import models

# resource path -> model (the deployment's model names)
RESOURCES = {
    'signature': models.Signature,
    'teleworksignature': models.TeleworkSignature,
    'viewedsecuritymessage': models.ViewedSecurityMessage,
    'responsibilitytags': models.Tag,
    'expense-statement': models.ExpenseStatement,
    'expense-month-lock': models.ExpenseMonthLock,
    'employee': models.Employee,
    'deskreservation': models.DeskReservation,
    'mealstop': models.Stop,
    'expense': models.Expense,
    'desk': models.Desk,
    'teleworkapplication': models.TeleworkApplication,
    'transitionchange': models.TransitionChange,
    'timeoffrequest': models.TimeOffRequest,
    'expense-month': models.ExpenseMonth,
    'reviewnote': models.ReviewNote,
    'stepchoice': models.StepChoice,
    'review': models.PerformanceReview,
    'jobtitle': models.JobTitle,
    'workflow': models.Workflow,
}
DESK_FIELDS = ('building', 'floor', 'number', 'active', 'lead', 'ergonomic')

_directory = None


def load_fixtures(directory):
    """`<resource>.json` of the folder, each a JSON array: desks with their fields (a hold for today
    where `held_today` is true), any other resource's items as bare rows of their pk."""
    global _directory
    directory = Path(directory)
    if not directory.is_dir():
        raise SystemExit(f'REF_FIXTURES: no folder {directory}')
    _directory = directory
    for resource, model in RESOURCES.items():
        path = directory / f'{resource}.json'
        if not path.is_file():
            continue
        items = json.loads(path.read_text(encoding='utf-8'))
        if not isinstance(items, list):
            raise SystemExit(f'{path}: not a JSON array')
        pks = [item.get('pk', item.get('id', n)) if isinstance(item, dict) else n for n, item in enumerate(items, 1)]
        if resource != 'desk':
            model.objects.bulk_create([model(id=pk) for pk in pks])
            continue
        try:
            with transaction.atomic():
                model.objects.bulk_create([model(id=pk, **{f: item[f] for f in DESK_FIELDS}) for pk, item in zip(pks, items)])
        except IntegrityError as e:
            raise SystemExit(f'{path}: the deployment\'s desk model cannot hold these desks ({e}; `number` is unique)') from e
        today = timezone.localdate()
        models.DeskHold.objects.bulk_create([models.DeskHold(desk_id=pk, day=today) for pk, item in zip(pks, items) if item.get('held_today')])


def env_keys(name):
    return [k.strip() for k in os.environ.get(name, '').split(',') if k.strip()]


def load_users():
    """REF_TOKENS: token keys, one user each (`Authorization: Token <key>`). REF_SESSIONS: session keys
    (`Cookie: sessionid=<key>`), one user each, logged in as django.contrib.auth.login would leave a
    session: user id, backend, and the session hash of the user's password."""
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from rest_framework.authtoken.models import Token

    for n, key in enumerate(env_keys('REF_TOKENS'), 1):
        Token.objects.create(user=User.objects.create_user(f'token-user-{n}'), key=key)
    for n, key in enumerate(env_keys('REF_SESSIONS'), 1):
        user = User.objects.create_user(f'session-user-{n}')
        session = SessionStore()
        session['_auth_user_id'] = str(user.pk)
        session['_auth_user_backend'] = 'django.contrib.auth.backends.ModelBackend'
        session['_auth_user_hash'] = user.get_session_auth_hash()
        # the key after the data: SessionStore.load() forgets a key it does not find in the table
        session._session_key = key
        session.save(must_create=True)


@csrf_exempt
def reset(request):
    """POST /__ref/reset (outside /api/, test-only): every resource back to the fixtures, AUTOINCREMENT
    sequences too (the next created pk is the fixtures' highest + 1 again): 204. Users stay."""
    if request.method != 'POST':
        return HttpResponseNotAllowed(['POST'])
    with transaction.atomic():
        tables = [models.DeskHold._meta.db_table] + [m._meta.db_table for m in RESOURCES.values()]
        models.DeskHold.objects.all().delete()
        for model in RESOURCES.values():
            model.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute('DELETE FROM sqlite_sequence WHERE name IN (%s)' % ', '.join('%s' for _ in tables), tables)
        load_fixtures(_directory)
    return HttpResponse(status=204)
