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
