"""A DRF view whose handlers are coroutines: the HTTP streams wait without holding a thread.

Authentication, permissions and throttles (`initial`) run in a database thread, the handler on
the event loop; errors go through the API's exception handler like every other view's, and
drf-spectacular documents these views like the others.
"""

from __future__ import annotations

import inspect
from typing import Any

from rest_framework.views import APIView

from .db import in_thread


class AsyncAPIView(APIView):
    async def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        self.args = args
        self.kwargs = kwargs
        request = self.initialize_request(request, *args, **kwargs)
        self.request = request
        self.headers = self.default_response_headers
        try:
            await in_thread(self.initial, request, *args, **kwargs)
            method = str(request.method).lower()
            handler: Any = self.http_method_not_allowed
            if method in self.http_method_names:
                handler = getattr(self, method, self.http_method_not_allowed)
            response = handler(request, *args, **kwargs)
            if inspect.isawaitable(response):
                response = await response
        except Exception as exc:
            response = self.handle_exception(exc)
        self.response = self.finalize_response(request, response, *args, **kwargs)
        return self.response
