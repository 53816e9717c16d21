#!/usr/bin/python3
"""Serves the reference deployment: a temporary SQLite database with the project's fixtures, behind
wsgiref's server (threaded, HEAD answered without a body, quiet).

  /usr/bin/python3 test/reference/drf/serve.py --port 0
  -> listening on http://127.0.0.1:PORT

Environment: see refsite/settings.py; also REF_FIXTURES (default: test/reference/fixtures/, desks as
the deployment holds them), REF_VERBOSE=1 (a request log on stderr) and REF_PROFILE: `default` (the
deployment the interface document was written from: refsite/settings.py, workplace/) or `designer`
(the designer's edit of the spec: refsite/settings_designer.py, designer/).
"""

import argparse
import os
import signal
import socketserver
import sys
import tempfile
import threading
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]

class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True

    def server_bind(self):
        # HTTPServer.server_bind resolves the FQDN of the address (a DNS query); SERVER_NAME is the
        # address itself here, as gunicorn's would be.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = host
        self.server_port = port
        self.setup_environ()

    def handle_error(self, request, client_address):
        if os.environ.get('REF_VERBOSE') == '1':
            super().handle_error(request, client_address)


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        if os.environ.get('REF_VERBOSE') == '1':
            super().log_message(format, *args)

    def get_environ(self):
        env = super().get_environ()
        # wsgiref (and so Django's runserver) gives a request without Content-Type the CONTENT_TYPE
        # `text/plain` (email.message's default); gunicorn and uWSGI, what a deployment runs, give none,
        # and DRF then names "" in its 415. Both profiles parse bodies: serve as those servers do.
        if self.headers.get('content-type') is None:
            env.pop('CONTENT_TYPE', None)
        return env


def head_without_body(app):
    """A HEAD request answers the GET's status and headers (Content-Length included), with no body.
    (Django 3.2's runserver and a bare wsgiref send the body; gunicorn, uWSGI and Django 5's runserver do not.)"""

    def wrapped(environ, start_response):
        result = app(environ, start_response)
        if environ.get('REQUEST_METHOD') != 'HEAD':
            return result
        try:
            for _ in result:
                pass
        finally:
            close = getattr(result, 'close', None)
            if close:
                close()
        return []

    return wrapped


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--port', type=int, default=8000)
    parser.add_argument('--exit-with-stdin', action='store_true', help='exit when stdin closes (the parent died)')
    args = parser.parse_args()

    sys.path.insert(0, str(HERE))
    profile = os.environ.get('REF_PROFILE') or 'default'
    if profile not in ('default', 'designer'):
        raise SystemExit(f'REF_PROFILE: no profile {profile!r} (default, designer)')
    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'refsite.settings_designer' if profile == 'designer' else 'refsite.settings')
    fd, db = tempfile.mkstemp(prefix='workplace-ref-', suffix='.sqlite3')
    os.close(fd)
    os.environ['REF_DB'] = db

    def cleanup(*_):
        try:
            os.unlink(db)
        except OSError:
            pass

    def bye(*_):
        cleanup()
        os._exit(0)

    signal.signal(signal.SIGTERM, bye)
    signal.signal(signal.SIGINT, bye)
    try:
        import django
        from django.core.management import call_command

        django.setup()
        call_command('migrate', run_syncdb=True, verbosity=0, interactive=False)
        if profile == 'designer':
            from designer.fixtures import load_fixtures as load_designer_fixtures

            load_designer_fixtures(os.environ.get('REF_FIXTURES') or REPO / 'test' / 'fixtures' / 'designer' / 'fixtures')
        else:
            from workplace.state import load_fixtures, load_users

            load_fixtures(os.environ.get('REF_FIXTURES') or REPO / 'test' / 'reference' / 'fixtures')
            load_users()

        from refsite.wsgi import application

        httpd = make_server(args.host, args.port, head_without_body(application), server_class=ThreadingWSGIServer, handler_class=QuietHandler)
    except BaseException:
        cleanup()
        raise

    if args.exit_with_stdin:
        def watch():
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            finally:
                bye()

        threading.Thread(target=watch, daemon=True).start()

    print(f'listening on http://{args.host}:{httpd.server_port}', flush=True)
    try:
        httpd.serve_forever()
    finally:
        cleanup()


if __name__ == '__main__':
    main()
