"""Two web processes sharing a Redis (tests/streams' cluster): pushes between processes."""

from tests.streams.conftest import _transactional, cluster

__all__ = ["_transactional", "cluster"]
