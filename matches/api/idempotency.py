"""Idempotency-Key for writes: a repeated request returns the first response, writes nothing.

How: the record (user, key) is inserted first, in the same transaction as the command.
- A later repeat finds the stored record and gets its response back (header
  `Idempotent-Replayed: true`).
- A concurrent repeat blocks on the unique (user, key) index until the first transaction
  commits, then reads the stored response. If the first one failed with a server error its
  transaction (record included) rolled back and the repeat simply runs.
- The same key with a different request (method, path or body) is refused with
  `idempotency_key_reused`.
Refusals (4xx) are stored too: a repeat of a refused request is refused the same way.

A record keeps no more than a replay needs: the sha256 of the key (the client's string is not
stored), the request's fingerprint, and the response (status, body, ETag/Location). Records
expire: the beat task `matches.api.expire_idempotency` deletes those older than
`TAVLA_IDEMPOTENCY_SECONDS` (a day by default), so the table does not grow with every write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.response import Response

from .errors import ApiError, error_response
from .models import IdempotencyRecord

HEADER = "Idempotency-Key"
KEPT_HEADERS = ("ETag", "Location")  # the body is JSON: its type is not worth storing
MAX_KEY = 255


def fingerprint(request: Any) -> str:
    """sha256 of method, full path and raw body (read before DRF parses it)."""
    return fingerprint_of(request.method, request.get_full_path(), request._request.body)


def fingerprint_of(method: str, path: str, body: bytes) -> str:
    """The fingerprint of a request by its parts (a socket's command is the POST it stands
    for: matches/streams/commands.py)."""
    digest = hashlib.sha256()
    digest.update(method.encode())
    digest.update(b"\0")
    digest.update(path.encode())
    digest.update(b"\0")
    digest.update(body)
    return digest.hexdigest()


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def expire(older_than: datetime) -> int:
    """Delete the records made before `older_than`; how many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=older_than).delete()
    return deleted


def _replay(record: IdempotencyRecord, fp: str) -> Response:
    if record.fingerprint != fp:
        raise ApiError(
            "idempotency_key_reused",
            "This Idempotency-Key was already used for a different request: use a new key.",
        )
    headers = dict(record.headers or {})
    headers["Idempotent-Replayed"] = "true"
    headers.pop("Content-Type", None)
    return Response(record.body, status=record.status_code, headers=headers)


def run_write(request: Any, handler: Callable[[], Response], *, atomic: bool = True) -> Response:
    """Run a write handler, honouring an Idempotency-Key if one is sent.

    With a key, the handler and the stored response share one transaction. Without one the
    handler runs in a transaction of its own if `atomic` (several writes that belong
    together); `atomic=False` is for a handler whose single service call is its own
    transaction (then no savepoints are needed)."""
    return keyed_write(
        request.user,
        request.headers.get(HEADER),
        lambda: fingerprint(request),
        handler,
        atomic=atomic,
    )


def keyed_write(
    user: Any,
    key: str | None,
    request_fingerprint: Callable[[], str],
    handler: Callable[[], Response],
    *,
    atomic: bool = True,
) -> Response:
    """`run_write` by its parts: the user, the key sent (or None) and the request's
    fingerprint (computed only when there is a key)."""
    if key is None or not (user and user.is_authenticated):
        if not atomic:
            return handler()
        with transaction.atomic():
            return handler()
    key = key.strip()
    if not key or len(key) > MAX_KEY or not key.isprintable():
        raise ApiError(
            "invalid_request",
            f"The {HEADER} header must be 1 to {MAX_KEY} printable characters.",
            {HEADER: ["invalid"]},
        )
    key = key_digest(key)
    fp = request_fingerprint()
    existing = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if existing is not None:
        return _replay(existing, fp)
    try:
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(user=user, key=key, fingerprint=fp)
            except IntegrityError:
                raise _Duplicate from None
            try:
                with transaction.atomic():
                    response = handler()
            except Exception as exc:
                known = error_response(exc)
                if known is None or known.status_code >= 500:
                    raise
                response = known
            record.status_code = response.status_code
            record.body = response.data
            record.headers = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
            record.save(update_fields=["status_code", "body", "headers"])
            return response
    except _Duplicate:
        # A concurrent twin committed first (we waited for it on the unique index).
        return _replay(IdempotencyRecord.objects.get(user=user, key=key), fp)


class _Duplicate(Exception):
    pass
