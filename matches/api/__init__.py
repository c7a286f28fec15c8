"""The public REST API, v1 (mounted at /api/v1/): views, serializers, permissions, auth,
throttles, idempotency, and the few tables only the API needs (player kinds, lobby data,
idempotency records). A Django app of its own (label `tavla_api`) so the store stays as it is.
"""
