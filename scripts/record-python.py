#!/usr/bin/python3
"""Records what CPython answers for the tables of test/unit/core/recorded/python/<module>.json: each
file's `functions` map a function's name to cases `{name, given}`, and this fills every case's
`want` from the Python function the stub's src/core/python/<module>.ts imitates. Prints the file
with its answers as JSON; scripts/record-answers.ts writes it (`npm run record:answers -- python`).

  /usr/bin/python3 scripts/record-python.py test/unit/core/recorded/python/quote.json
"""

import base64
import binascii
import codecs
import io
import json
import platform
import re
import sys
from decimal import Decimal, InvalidOperation
from urllib.parse import parse_qs, parse_qsl, quote, quote_plus, unquote_plus, urlencode


def strict_constant(o):
    # rest_framework/utils/json.py: DRF's JSONParser refuses NaN and the infinities (STRICT_JSON).
    raise ValueError('Out of range float values are not JSON compliant: ' + repr(o))


def json_loads(text):
    try:
        return {'ok': True, 'value': json.loads(text, parse_constant=strict_constant)}
    except ValueError as e:  # JSONDecodeError, the constants, int()'s digit limit
        return {'ok': False, 'message': str(e)}


def read_utf8_stream(hex_):
    # DRF's JSONParser: codecs.getreader('utf-8')(stream).read()
    try:
        return {'ok': True, 'text': codecs.getreader('utf-8')(io.BytesIO(bytes.fromhex(hex_))).read()}
    except UnicodeDecodeError as e:
        return {'ok': False, 'message': str(e)}


def first_decode_error(given):
    data = bytes.fromhex(given['hex'])
    start = given['from']
    try:
        data[start:].decode('utf-8')
        return None
    except UnicodeDecodeError as e:
        return {'start': start + e.start, 'end': start + e.end, 'reason': e.reason}


def b64decode(given):
    # DRF's BasicAuthentication: b64decode of the header's bytes (latin-1), as UTF-8, else latin-1.
    try:
        data = base64.b64decode(given.encode('latin-1'))
    except binascii.Error:
        return None
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError:
        return data.decode('latin-1')


def python_int(given):
    try:
        return str(int(given))
    except ValueError:
        return None


def python_decimal(given):
    # django.forms.DecimalField and django-filter's NumberFilter read Decimal(value); NaN and the
    # infinities are read, then refused: the stub answers undefined for them.
    try:
        d = Decimal(given)
    except InvalidOperation:
        return None
    return float(d) if d.is_finite() else None


def too_many_fields(given):
    query = given['repeat'] * given['times'] + given.get('tail', '')
    try:
        parse_qsl(query, keep_blank_values=True, max_num_fields=given['max'])
        return False
    except ValueError:
        return True


FUNCTIONS = {
    'quote': lambda g: quote(g['text'], safe=g['safe']),
    'quote_bytes': lambda g: quote(bytes.fromhex(g['hex']), safe=g['safe']),
    'quote_plus': lambda g: quote_plus(g),
    'unquote_plus': lambda g: unquote_plus(g),
    'parse_qs': lambda g: [[k, v] for k, v in parse_qs(g, keep_blank_values=True).items()],
    'urlencode_sorted': lambda g: urlencode(sorted(parse_qs(g, keep_blank_values=True).items()), doseq=True),
    'too_many_fields': too_many_fields,
    'isspace': lambda g: [c for c in range(g['from'], g['to'] + 1) if chr(c).isspace()],
    'strip': lambda g: g.strip(),
    'str_of_json': lambda g: str(json.loads(g)),
    'capfirst': lambda g: g and g[0].upper() + g[1:],  # django.utils.text.capfirst
    'int': python_int,
    'decimal': python_decimal,
    'json_loads': json_loads,
    'read_utf8_stream': read_utf8_stream,
    'first_decode_error': first_decode_error,
    'b64decode': b64decode,
}


def main():
    with open(sys.argv[1], encoding='utf-8') as f:
        recording = json.load(f)
    functions = {}
    for name, cases in recording['functions'].items():
        fn = FUNCTIONS[name]
        functions[name] = [{'name': c['name'], 'given': c['given'], 'want': fn(c['given'])} for c in cases]
    out = {'about': recording['about'], 'python': platform.python_version(), 'functions': functions}
    text = json.dumps(out, ensure_ascii=False, allow_nan=False)
    # A lone surrogate (a value of json.loads('"\\ud800"')) cannot be UTF-8: written as its escape.
    sys.stdout.write(re.sub('[\ud800-\udfff]', lambda m: '\\u%04x' % ord(m.group()), text))


main()
