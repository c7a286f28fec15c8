"""Top-level URLs: the front door (the web client in a browser), the admin, the versioned API
and a health check."""

from django.contrib import admin
from django.urls import include, path

from .views import healthz, index

urlpatterns = [
    path("", index, name="index"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("matches.urls")),
    path("healthz", healthz, name="healthz"),
]

# Errors outside a view's own handling: JSON for API clients, 503 when the database is lost.
handler400 = "tavla_project.errorpages.bad_request"
handler403 = "tavla_project.errorpages.permission_denied"
handler404 = "tavla_project.errorpages.page_not_found"
handler500 = "tavla_project.errorpages.server_error"
