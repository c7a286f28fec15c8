"""Settings for the test suite: real PostgreSQL, plus an SQLite alias for backend-specific tests.

`default` is PostgreSQL at TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tavla unless
set); pytest-django creates and drops `test_<name>` there. The `sqlite` alias is only for tests
that must prove something on both backends (they ask for it with
`@pytest.mark.django_db(databases=["default", "sqlite"])`); its test database lives in memory.
"""

from .dbcheck import DEFAULT_TEST_DATABASE_URL
from .settings import *  # noqa: F403
from .settings import BASE_DIR, database_from_url, env

TEST_DATABASE_URL = env.str("TEST_DATABASE_URL", default=DEFAULT_TEST_DATABASE_URL)

DATABASES = {
    "default": database_from_url(TEST_DATABASE_URL),
    "sqlite": database_from_url(f"sqlite:///{BASE_DIR / 'var' / 'test-alias.sqlite3'}"),
}
for _db in DATABASES.values():
    _db["CONN_MAX_AGE"] = 0  # tests that use threads must not keep connections around

# Fast hashing: tests create users, they do not need bcrypt-strength passwords.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_ALWAYS_EAGER = False

# Tasks the tests send stay in this process (kombu's in-memory transport): the development
# broker in var/broker.sqlite3 never receives the suite's messages. Tests that need a real worker
# start one on a broker of their own (tests/clock/test_worker_clock.py,
# tests/api/test_computer_worker.py).
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT = None  # not the embedded broker's (settings.py sets it for var/)
CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
BROKER_FILE = None

# Async views' database work runs in the test's own thread and connection (matches/streams/db.py),
# and Server-Sent Events streams end soon (the test client reads a stream to its end).
TAVLA_STREAM_DB_THREADS = 0
TAVLA_STREAM_MAX_SECONDS = 2.0

# django-axes needs the request at every authenticate(); the test client's login() has none.
# The lockouts are tested against the deployed-like servers (tests/security), where it is on.
AXES_ENABLED = False
# Anonymous reads and the rules service: the suite reads far more than a client may.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        **REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],  # noqa: F405
        "anon_read": "100000/min",
        "rules": "100000/min",
    },
}
# Every in-process client is the same address: streams are capped in tests/security instead.
TAVLA_STREAMS_PER_CLIENT = 100000

# Fair play (docs/ratings.md): the suite's matches end at once (a forfeit, a resignation) and
# the same players meet many times, to test the formula and the projection. The minimum of play
# and the pairs' daily cap are tested with their own values (override_settings) in
# tests/ratings/test_fair_play.py, and with the defaults against the deployed-like service
# (tests/security/test_fair_play.py).
TAVLA_RATED_MIN_MOVES = 0
TAVLA_RATED_PAIR_PER_DAY = 0
TAVLA_STREAMS_PER_ADDRESS = 100000
