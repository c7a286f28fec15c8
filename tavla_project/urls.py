"""Top-level URLs: the admin, the versioned API and a health check for load balancers."""

from django.contrib import admin
from django.urls import include, path

from .views import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("matches.urls")),
    path("healthz", healthz, name="healthz"),
]
