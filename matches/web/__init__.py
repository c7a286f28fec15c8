"""The site's web client: one HTML shell and plain ES modules that use the public API only.

Delivery layer, beside `matches.api`: it imports neither the API nor the core. Everything the
page does goes through `/api/v1/` like any third-party client (docs/web.md).
"""
