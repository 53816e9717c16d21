from django.conf import settings


class FrontendCorsMiddleware:
    """The deployment's own CORS handling (not django-cors-headers): every answer that passes through
    it names one fixed origin, the frontend's, whatever the request's Origin; the allowed headers and
    methods are fixed too. No Access-Control-Allow-Credentials, no Vary: Origin. A preflight is no
    special case: OPTIONS reaches the view, which answers it (DRF's metadata, 200).
    Off unless REF_FRONTEND_ORIGIN is set."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        origin = settings.REF_FRONTEND_ORIGIN
        if origin:
            response['Access-Control-Allow-Origin'] = origin
            response['Access-Control-Allow-Headers'] = 'Content-Type, Authorization'
            response['Access-Control-Allow-Methods'] = 'GET, POST, PATCH, PUT, DELETE, OPTIONS'
        return response
