"""Loading (and, for the differential test, re-loading) the designer profile's fixtures."""

import json
from pathlib import Path

from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseNotAllowed
from django.views.decorators.csrf import csrf_exempt

from . import models

# resource path -> model; fields are the model's own (the pk from "pk", else "id", else the position)
RESOURCES = {'desk': models.Desk, 'employee': models.Employee, 'signature': models.Signature}

_directory = None


def load_fixtures(directory):
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
        names = [f.name for f in model._meta.fields if not f.primary_key]
        rows = []
        for n, item in enumerate(items, 1):
            pk = item.get('pk', item.get('id', n))
            rows.append(model(id=pk, **{f: item[f] for f in names if f in item}))
        model.objects.bulk_create(rows)


@csrf_exempt
def reset(request):
    """POST /__ref/reset (outside /api/, test-only): every designer table back to the fixtures, its
    AUTOINCREMENT sequence too (so the next created pk is the fixtures' highest + 1 again): 204."""
    if request.method != 'POST':
        return HttpResponseNotAllowed(['POST'])
    with transaction.atomic():
        tables = [m._meta.db_table for m in RESOURCES.values()]
        for model in RESOURCES.values():
            model.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute(
                'DELETE FROM sqlite_sequence WHERE name IN (%s)' % ', '.join('%s' for _ in tables), tables
            )
        load_fixtures(_directory)
    return HttpResponse(status=204)
