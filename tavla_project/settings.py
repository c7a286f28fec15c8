"""Settings, all from environment variables (12-factor), read with django-environ.

With no environment at all the service runs on one machine: SQLite in var/tavla.sqlite3 and a
Celery broker in the SQLite file var/broker.sqlite3 (no server needed). DATABASE_URL and
CELERY_BROKER_URL switch to PostgreSQL and Redis or RabbitMQ. A `.env` file at the repository
root is read if present. README.md lists every variable.
"""

import warnings
from pathlib import Path

import environ
from corsheaders.defaults import default_headers as default_cors_headers
from django.core.exceptions import ImproperlyConfigured

from . import broker

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

# The embedded database and broker, the beat's schedule (git-ignored var/ unless TAVLA_VAR_DIR
# says otherwise: benchmarks/soak.py runs a whole stack in a folder of its own).
VAR_DIR = Path(env.str("TAVLA_VAR_DIR", default=str(BASE_DIR / "var")))

DEV_SECRET_KEY = "django-insecure-tavla-development-only"

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default=DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
if env.bool("BEHIND_TLS_PROXY", default=False):
    # The load balancer terminates TLS and says so in X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "axes",  # failed logins per username and per address (API login and the admin)
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from the package (offline)
    "corsheaders",
    "games",
    "matches",
    "matches.api",
    "matches.web",
]

# Benchmarks only (benchmarks/api_bench.py --public): the overrides of libraries' private
# internals to leave out, each replaced by the library's public path, to measure what each one
# saves (docs/private-internals.md): cache, rows, render, wsgi_pool, publish.
TAVLA_PUBLIC_PATHS = frozenset(env.list("TAVLA_PUBLIC_PATHS", default=[]))

MIDDLEWARE = [
    "tavla_project.errorpages.BodyLimitMiddleware",  # 413 before a byte of a long body is read
    "django.middleware.security.SecurityMiddleware",
    "corsheaders.middleware.CorsMiddleware",  # before anything that may answer (preflights)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the language from Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # a locked-out login's answer (errorpages.locked_out)
]

ROOT_URLCONF = "tavla_project.urls"
WSGI_APPLICATION = "tavla_project.wsgi.application"
ASGI_APPLICATION = "tavla_project.asgi.application"  # what the web processes serve
# Threads per web process for ordinary (synchronous) requests; streams and sockets need none.
WEB_THREADS = env.int("WEB_THREADS", default=8)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------------

EMBEDDED_DATABASE_URL = f"sqlite:///{VAR_DIR / 'tavla.sqlite3'}"


def database_from_url(url: str) -> dict:
    """django-environ's parse of a database URL plus the options this service wants."""
    db = env.db_url_config(url)
    if db["ENGINE"] == "django.db.backends.sqlite3":
        if db["NAME"] != ":memory:":
            Path(db["NAME"]).parent.mkdir(parents=True, exist_ok=True)
        # web, worker and beat share one file: WAL lets readers run beside the writer, and
        # IMMEDIATE transactions make writers queue (busy timeout) instead of failing to upgrade.
        db.setdefault("OPTIONS", {}).update(
            {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            }
        )
    else:
        db["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
        # A SELECT 1 before the first query of each request on a kept connection: one round
        # trip per request for an error page less after a database restart.
        db["CONN_HEALTH_CHECKS"] = env.bool("DATABASE_HEALTH_CHECKS", default=True)
        # The values sent apart from the statement (psycopg's server-side binding) and a
        # statement run often on a connection prepared there (psycopg's prepare_threshold,
        # which Django leaves off): no quoting of a command's 30-odd values into its SQL, and
        # PostgreSQL parses and plans the compare-and-set and the row read once per
        # connection, half of its CPU per command (docs/performance.md, 2026-12-04, fifth
        # session). DATABASE_PREPARE_THRESHOLD=off behind a pooler that cannot keep prepared
        # statements (PgBouncer in transaction mode before 1.21, or without
        # max_prepared_statements).
        options = db.setdefault("OPTIONS", {})
        options["server_side_binding"] = env.bool("DATABASE_SERVER_SIDE_BINDING", default=True)
        threshold = env.str("DATABASE_PREPARE_THRESHOLD", default="5").strip().lower()
        options["prepare_threshold"] = None if threshold in ("off", "") else int(threshold)
    return db


DATABASES = {"default": database_from_url(env.str("DATABASE_URL", default=EMBEDDED_DATABASE_URL))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    if "cache" not in TAVLA_PUBLIC_PATHS:  # (benchmarks: Django's own, with the same options)
        CACHES["default"]["BACKEND"] = "tavla_project.cache.RedisCache"  # one pool per process
    # The cache is never waited for long (matches/api/cacheguard.py: a Redis that hangs is an
    # outage, skipped for a few seconds like one that refuses connections).
    _cache_timeout = env.float("CACHE_SOCKET_TIMEOUT", default=0.5)
    CACHES["default"].setdefault("OPTIONS", {})
    CACHES["default"]["OPTIONS"].setdefault("socket_timeout", _cache_timeout)
    CACHES["default"]["OPTIONS"].setdefault("socket_connect_timeout", _cache_timeout)
# Tokens' accounts are kept in this cache (matches/api/authentication.py) only when every process
# shares it (Redis): a logout must reach them all at once. Empty: read the database each time.
_SHARED_CACHE = not CACHES["default"]["BACKEND"].endswith(("LocMemCache", "DummyCache"))
TAVLA_TOKEN_CACHE = env.str("TAVLA_TOKEN_CACHE", default="default" if _SHARED_CACHE else "")
TAVLA_TOKEN_CACHE_SECONDS = env.int("TAVLA_TOKEN_CACHE_SECONDS", default=300)
# Tokens (stored hashed, matches/api/authentication.py): seconds a token lives after it was
# issued (0: forever), and how many sign-ins one account keeps (the oldest are dropped).
TAVLA_TOKEN_MAX_AGE = env.int("TAVLA_TOKEN_MAX_AGE", default=90 * 24 * 3600)
TAVLA_TOKENS_PER_USER = env.int("TAVLA_TOKENS_PER_USER", default=10)

# --- Auth, i18n, static -------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# Messages to players (API errors, rule explanations) in these languages, chosen by the
# request's Accept-Language; the translations are in matches/locale/ (README "Languages").
LANGUAGES = [("en", "English"), ("sr-latn", "Srpski (latinica)"), ("tr", "Türkçe")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# The files collectstatic gathered (compressed), else the apps' own: without collectstatic (a
# checkout run with DEBUG=false) the web client still gets its scripts, and the start-up says
# so once (tavla_project/asgi.py; the image runs collectstatic when it is built).
STATIC_COLLECTED = Path(STATIC_ROOT).is_dir()
WHITENOISE_USE_FINDERS = DEBUG or not STATIC_COLLECTED
if not STATIC_COLLECTED:  # WhiteNoise's own warning, twice per process: asgi.py says it once
    warnings.filterwarnings("ignore", "No directory at", UserWarning)

# --- REST API (matches/api; README "API") ---------------------------------------------------------

REST_FRAMEWORK = {
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "matches.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["matches.api.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["matches.api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "matches.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        # Per user (per IP for anonymous callers); the cache (CACHE_URL) holds the counters,
        # so set CACHE_URL to Redis for limits shared by every web process.
        "auth": env.str("API_THROTTLE_AUTH", default="30/min"),
        "match_create": env.str("API_THROTTLE_CREATE", default="60/min"),
        "match_write": env.str("API_THROTTLE_WRITE", default="600/min"),
        # Reads without a token, per client address; the stateless rules service, per
        # account or address (it computes: 1,749 plays of one position are 240 ms of CPU).
        "anon_read": env.str("API_THROTTLE_ANON_READ", default="300/min"),
        # Reads with a guest's token, per client address too (guests are free: one address
        # taking new ones must not read without bound).
        "guest_read": env.str("API_THROTTLE_GUEST_READ", default="600/min"),
        "rules": env.str("API_THROTTLE_RULES", default="120/min"),
        # Chat lines per user (matches/services/chat.py), HTTP and WebSocket together.
        "chat": env.str("API_THROTTLE_CHAT", default="20/min"),
    },
    "DEFAULT_THROTTLE_CLASSES": ["matches.api.throttling.AnonReadThrottle"],
}

# --- CORS: browser clients on other origins (README "Configuration") ----------------------------
# Only the API; only the origins listed (none by default). A preflight is answered by the
# middleware before authentication, so it never gets 401.
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = (*default_cors_headers, "if-match", "idempotency-key", "tavla-lag")
CORS_EXPOSE_HEADERS = ["ETag", "Location", "Idempotent-Replayed", "Retry-After"]

SPECTACULAR_SETTINGS = {
    # Swagger UI and Redoc from drf-spectacular-sidecar's static files: no CDN, works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TITLE": "tavla API",
    "DESCRIPTION": "Balkan tavla (backgammon): matches, moves, rules. See README.md, section API.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Two choice sets are both called "ended_by": a game's or a match's (the rules' words:
    # bearoff, ...) and a tournament board's (played, ...).
    "ENUM_NAME_OVERRIDES": {
        "GameEndedByEnum": "matches.selectors.shapes.ENDED_BY",
        # An account's kind (no "named" seat) and a match's status keep their names beside
        # the other sets called "kind" and "status" (a seek's status).
        "UserKindEnum": "matches.selectors.shapes.ACCOUNT_KINDS",
        "StatusEnum": "matches.selectors.shapes.MATCH_STATUSES",
        "SeekStatusEnum": "matches.selectors.shapes.SEEK_STATUSES",
        "TournamentStatusEnum": "matches.selectors.tournaments.TOURNAMENT_STATUSES",
        # a match's and a direct challenge's request share it (matches/api/requests.py)
        "MatchCreateBackgammonValueEnum": [(3, "3"), (2, "2")],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "matches.api.schema.hooks.add_error_table",
    ],
}

# --- Limits against abuse (README "Limits") ----------------------------------------------------
# Request bodies: larger ones get 413 before they are read (tavla_project/errorpages.py).
TAVLA_MAX_BODY_BYTES = env.int("TAVLA_MAX_BODY_BYTES", default=256 * 1024)
TAVLA_IMPORT_MAX_BYTES = env.int("TAVLA_IMPORT_MAX_BYTES", default=512 * 1024)
# A .mat import: at most this many games and actions (rolls, plays, cube actions). It runs in
# the request: about 6 ms per action (772 actions in 4.6 s at load 4), so 2,000 keep it near
# 12 s; a 7-point match is about 800, a 25-point one 2,000-5,000 (too long: not imported).
TAVLA_IMPORT_MAX_GAMES = env.int("TAVLA_IMPORT_MAX_GAMES", default=32)
TAVLA_IMPORT_MAX_ACTIONS = env.int("TAVLA_IMPORT_MAX_ACTIONS", default=2000)
DATA_UPLOAD_MAX_MEMORY_SIZE = max(TAVLA_MAX_BODY_BYTES, TAVLA_IMPORT_MAX_BYTES)
FILE_UPLOAD_MAX_MEMORY_SIZE = TAVLA_IMPORT_MAX_BYTES
# Retry-After of a 503 while the database cannot be reached.
TAVLA_RETRY_AFTER_SECONDS = env.int("TAVLA_RETRY_AFTER_SECONDS", default=5)

# Long-poll of GET /api/v1/matches/{id}/events?wait=N: the longest wait allowed (seconds).
TAVLA_LONG_POLL_MAX = env.int("API_LONG_POLL_MAX", default=30)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- Celery (read by tavla_project/celery.py through the CELERY_ namespace) ---------------------

# The embedded broker: kombu's SQLAlchemy transport on an SQLite file of its own (var/), safe
# with web, worker and beat writing at once (tavla_project/broker.py says why; README "The
# embedded broker" has the measurements).
EMBEDDED_BROKER_URL = f"sqlite:///{VAR_DIR / 'broker.sqlite3'}"

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=EMBEDDED_BROKER_URL)
if CELERY_BROKER_URL.startswith("filesystem:"):
    raise ImproperlyConfigured(
        "CELERY_BROKER_URL=filesystem:// is not supported: kombu's filesystem transport lets a"
        " worker read a message another process has not finished writing (celery/kombu#1551)."
        " Leave CELERY_BROKER_URL unset for the embedded SQLite broker, or use Redis/RabbitMQ."
    )
BROKER_FILE = broker.sqlite_file(CELERY_BROKER_URL)
if BROKER_FILE is not None:
    broker.prepare(BROKER_FILE)
    CELERY_BROKER_TRANSPORT = "tavla_project.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = broker.transport_options(BROKER_FILE)
else:
    # Redis/SQS redeliver an unacknowledged task after this many seconds: no task may be
    # scheduled (ETA/countdown) further ahead than this.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    }
    # Redis: how often a worker looks for unacknowledged tasks older than the visibility
    # timeout (a killed worker's) to deliver again. kombu's default is every ~100 s; the clock
    # tests shorten it (the clock's sweeper does not depend on it).
    if env.str("CELERY_UNACKED_RESTORE_INTERVAL", default=""):
        CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_interval"] = env.float(
            "CELERY_UNACKED_RESTORE_INTERVAL"
        )
        CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_throttle"] = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=None)
CELERY_TASK_IGNORE_RESULT = CELERY_RESULT_BACKEND is None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Tasks are idempotent (they re-check the match version), so redelivery is safe and wanted.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE_FILENAME = env.str(
    "CELERY_BEAT_SCHEDULE_FILENAME", default=str(VAR_DIR / "celerybeat-schedule")
)
Path(CELERY_BEAT_SCHEDULE_FILENAME).parent.mkdir(parents=True, exist_ok=True)
CELERY_BEAT_SCHEDULE = {
    "heartbeat": {
        "task": "tavla.heartbeat",
        "schedule": env.float("CELERY_HEARTBEAT_SECONDS", default=60.0),
    },
}
if BROKER_FILE is not None:
    CELERY_BEAT_SCHEDULE["prune-broker"] = {
        "task": "tavla.prune_broker",
        "schedule": 3600.0,
        "options": {"expires": 600},
    }

# What a committed append sets off (matches/store/committed.py): functions given a `Committed`.
TAVLA_AFTER_COMMIT = [
    "matches.tasks.clock.after_commit",  # a new deadline: schedule its clock task
    "matches.tasks.computer.after_commit",  # the computer must act: play its turn
    "matches.streams.publish.after_commit",  # connected clients: push the events
    "matches.tasks.tournaments.after_commit",  # a tournament's match ended: record it
    "matches.tasks.analysis.after_commit",  # a rated match finished: analyse it
]

# --- Real-time (matches/streams; docs/realtime.md) ----------------------------------------------
# The channel layer carries "match M is at version V" between processes: Redis pub/sub when
# CHANNEL_LAYER_URL is set (every web process and worker must use the same one), else in memory
# (one process; other processes' writes reach clients through the store watcher).
CHANNEL_LAYER_URL = env.str("CHANNEL_LAYER_URL", default="")
if CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [CHANNEL_LAYER_URL], "prefix": "tavla"},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 10000},
        }
    }
# Seconds between each web process's check of the versions of the matches its clients follow
# (one query for all): the safety net under the pushes. Default 0.25 in memory, 2 with Redis.
TAVLA_STREAM_WATCH_SECONDS = env.float("TAVLA_STREAM_WATCH_SECONDS", default=0.0) or None
# While the channel layer is down (its Redis stopped), the watcher alone carries every push:
# it checks this often then (docs/realtime.md "When the channel layer is down").
TAVLA_STREAM_WATCH_OUTAGE_SECONDS = env.float("TAVLA_STREAM_WATCH_OUTAGE_SECONDS", default=0.5)
# Every open socket's token is checked against the database this often: a socket whose
# token was revoked (logout, password changed, account deactivated) is closed with 4401
# within this time even when the revocation's pub/sub hint was lost (it usually comes at once).
TAVLA_WS_AUTH_RECHECK_SECONDS = env.float("TAVLA_WS_AUTH_RECHECK_SECONDS", default=10.0)
# Told of a user whose tokens may have been revoked (a token deleted, a password changed, an
# account saved inactive), each taking the user's id, once the transaction commits
# (matches/api/revocation.py): the streams close his sockets whose token is gone.
TAVLA_SIGNED_OUT = ["matches.streams.publish.signed_out"]
TAVLA_STREAM_MAX_SECONDS = env.float("TAVLA_STREAM_MAX_SECONDS", default=600.0)  # SSE: resume
TAVLA_SSE_KEEPALIVE = env.float("TAVLA_SSE_KEEPALIVE", default=15.0)
TAVLA_WS_MAX_MESSAGE = env.int("TAVLA_WS_MAX_MESSAGE", default=16384)  # characters
TAVLA_STREAM_DB_THREADS = env.int("TAVLA_STREAM_DB_THREADS", default=8)
# Open long-polls, SSE streams and WebSockets a web process keeps: per client (account, or
# address when anonymous), per address whatever the accounts (guests are free to make), and
# in all; one more gets 429 too_many_streams with this Retry-After (matches/streams/limits.py).
TAVLA_STREAMS_PER_CLIENT = env.int("TAVLA_STREAMS_PER_CLIENT", default=10)
TAVLA_STREAMS_PER_ADDRESS = env.int("TAVLA_STREAMS_PER_ADDRESS", default=40)
TAVLA_STREAMS_MAX = env.int("TAVLA_STREAMS_MAX", default=2000)
TAVLA_STREAMS_RETRY_AFTER = env.int("TAVLA_STREAMS_RETRY_AFTER", default=5)

# --- Clocks (matches/services/clock.py, matches/tasks/clock.py; README "Clocks") ---------------
# The sweeper is the safety net behind the per-deadline tasks: a lost task, a restarted worker
# or a broker outage delays a timeout by at most about this much after things work again.
TAVLA_CLOCK_SWEEP_SECONDS = env.float("TAVLA_CLOCK_SWEEP_SECONDS", default=5.0)
# Brokers without a visibility timeout (filesystem, AMQP): how far ahead a deadline task may
# be scheduled. With Redis/SQS the limit is 0.9 x CELERY_VISIBILITY_TIMEOUT instead.
TAVLA_CLOCK_MAX_ETA = env.float("TAVLA_CLOCK_MAX_ETA", default=3000.0)
# Tests only: hold each timeout's transaction open this many seconds before it commits, so a
# test can SIGKILL the worker in the middle of the task (tests/clock/test_worker_clock.py).
TAVLA_CLOCK_TEST_PAUSE = env.float("TAVLA_CLOCK_TEST_PAUSE", default=0.0)
CELERY_BEAT_SCHEDULE["clock-sweeper"] = {
    "task": "matches.sweep_clocks",
    "schedule": TAVLA_CLOCK_SWEEP_SECONDS,
    # A sweep nobody ran in time is dropped (the next one does the same work): after an
    # outage the queue does not fill with stale sweeps.
    "options": {"expires": max(TAVLA_CLOCK_SWEEP_SECONDS * 3, 10.0)},
}
# CELERY_CLOCK_QUEUE: give the clock its own queue (run a worker with `-Q <name>` for it), so
# computer turns or other work never delay a timeout. Empty: the default queue.
_clock_queue = env.str("CELERY_CLOCK_QUEUE", default="")
if _clock_queue:
    CELERY_TASK_ROUTES = {
        "matches.enforce_clock": {"queue": _clock_queue},
        "matches.sweep_clocks": {"queue": _clock_queue},
    }

# --- Follow-ups a crash may lose (README "What survives a crash") ------------------------------
# The computer's turn: a match where the computer has been to act this long with nothing
# written has lost its task; the sweeper (every TAVLA_COMPUTER_SWEEP_SECONDS) sends it again.
TAVLA_COMPUTER_OWED_SECONDS = env.float("TAVLA_COMPUTER_OWED_SECONDS", default=3.0)
TAVLA_COMPUTER_SWEEP_SECONDS = env.float("TAVLA_COMPUTER_SWEEP_SECONDS", default=2.0)
CELERY_BEAT_SCHEDULE["computer-sweeper"] = {
    "task": "matches.sweep_computer",
    "schedule": TAVLA_COMPUTER_SWEEP_SECONDS,
    "options": {"expires": max(TAVLA_COMPUTER_SWEEP_SECONDS * 3, 10.0)},
}
# Notices left unsent in the outbox by a process that died (matches/services/notices.py).
CELERY_BEAT_SCHEDULE["notice-sweeper"] = {
    "task": "matches.sweep_notices",
    "schedule": env.float("TAVLA_NOTICE_SWEEP_SECONDS", default=2.0),
    "options": {"expires": 10.0},
}
# Tests only: hold every committed move this many seconds before its after-commit hooks
# (the computer's task, the clock's, the push) run, so a test can SIGKILL the web process
# between the commit and the send (tests/crash).
TAVLA_AFTER_COMMIT_TEST_PAUSE = env.float("TAVLA_AFTER_COMMIT_TEST_PAUSE", default=0.0)
# Tests only: the computer waits this long after each action of its turn (a test kills the
# worker in the middle of the turn).
TAVLA_COMPUTER_TEST_PAUSE = env.float("TAVLA_COMPUTER_TEST_PAUSE", default=0.0)

# --- Ratings and quick pairing (docs/ratings.md) ----------------------------------------------
# Functions told of user notifications (matches/services/notices.py: a seek paired), each
# taking a `Notice`: the push streams send them to the user's sockets.
TAVLA_NOTIFY = ["matches.streams.publish.notice"]
# Called with every chat line once it is committed (matches/services/chat.py).
TAVLA_CHAT = ["matches.streams.publish.chat"]
# A seek lives this many seconds after its owner's last poll (or open socket).
TAVLA_SEEK_TIMEOUT = env.float("TAVLA_SEEK_TIMEOUT", default=30.0)
# The rating window of a seek: +-base points at first, +step every `every` seconds, anyone
# after `open_after` seconds of waiting.
TAVLA_SEEK_WINDOW = {
    "base": env.float("TAVLA_SEEK_WINDOW_BASE", default=100.0),
    "step": env.float("TAVLA_SEEK_WINDOW_STEP", default=100.0),
    "every": env.float("TAVLA_SEEK_WINDOW_EVERY", default=10.0),
    "open_after": env.float("TAVLA_SEEK_WINDOW_OPEN_AFTER", default=60.0),
}
# Early exits (online matches left before moving): this many within the window close the
# seek queue to a player until the cooldown after the last one has passed (0: never).
TAVLA_SEEK_EXIT_LIMIT = env.int("TAVLA_SEEK_EXIT_LIMIT", default=3)
TAVLA_SEEK_EXIT_WINDOW = env.float("TAVLA_SEEK_EXIT_WINDOW", default=24 * 3600.0)
TAVLA_SEEK_EXIT_COOLDOWN = env.float("TAVLA_SEEK_EXIT_COOLDOWN", default=3600.0)
TAVLA_SEEK_SWEEP_SECONDS = env.float("TAVLA_SEEK_SWEEP_SECONDS", default=2.0)
# Fair play (docs/ratings.md "Which matches are rated"). A match is created rated only with a
# clock of a preset (the site's, TAVLA_CLOCK_PRESETS) or one at least this long in each field
# (JSON {"delay", "reserve", "max_move", "reconnect"} seconds; unset: the site's clock;
# reconnect 0, the rule off, is always enough); a shorter custom clock makes it unrated.
TAVLA_RATED_MIN_CLOCK = env.json("TAVLA_RATED_MIN_CLOCK", default=None)
# A finished match counts only if each side played this many turns (moves or forced passes).
TAVLA_RATED_MIN_MOVES = env.int("TAVLA_RATED_MIN_MOVES", default=3)
# The same two players count at most this many rated matches per game in 24 hours (0: no cap).
TAVLA_RATED_PAIR_PER_DAY = env.int("TAVLA_RATED_PAIR_PER_DAY", default=4)
# The admin's rating pairs flag a pair with this many rated matches within this many days.
TAVLA_RATING_PAIR_FLAG_MATCHES = env.int("TAVLA_RATING_PAIR_FLAG_MATCHES", default=6)
TAVLA_RATING_PAIR_FLAG_DAYS = env.float("TAVLA_RATING_PAIR_FLAG_DAYS", default=7.0)
CELERY_BEAT_SCHEDULE["seek-sweeper"] = {
    "task": "matches.sweep_seeks",
    "schedule": TAVLA_SEEK_SWEEP_SECONDS,
    "options": {"expires": max(TAVLA_SEEK_SWEEP_SECONDS * 3, 10.0)},
}

# --- Abuse: addresses, failed logins, idempotency records (README "Limits") -------------------
# Proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated: the load
# balancer's). Empty: the peer's address is the client, whatever the headers say.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])

# django-axes: after AXES_FAILURE_LIMIT wrong passwords for one username (from anywhere), or
# from one address (for any usernames), login is refused for AXES_COOLOFF_MINUTES, on the API
# (429 too_many_attempts) and on /admin/login/ alike. Attempts are counted in the database.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=10)
AXES_COOLOFF_MINUTES = env.float("AXES_COOLOFF_MINUTES", default=15.0)
AXES_COOLOFF_TIME = AXES_COOLOFF_MINUTES / 60  # hours
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "matches.api.clientip.request_ip"
AXES_LOCKOUT_CALLABLE = "tavla_project.errorpages.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_ENABLE_ACCESS_FAILURE_LOG = False

# Idempotency records (matches/api/idempotency.py) are replayed for this long, then deleted.
TAVLA_IDEMPOTENCY_SECONDS = env.float("TAVLA_IDEMPOTENCY_SECONDS", default=24 * 3600.0)
CELERY_BEAT_SCHEDULE["idempotency-expiry"] = {
    "task": "matches.api.expire_idempotency",
    "schedule": env.float("TAVLA_IDEMPOTENCY_SWEEP_SECONDS", default=3600.0),
    "options": {"expires": 600},
}

# --- Post-game analysis (matches/services/analysis.py, docs/analysis.md) ------------------------
# Finished rated matches are analysed by themselves (off: only when someone asks).
TAVLA_AUTO_ANALYSIS = env.bool("TAVLA_AUTO_ANALYSIS", default=True)
# An analysis queued this long with no task running it, or running this long (its worker
# died), has lost its task: the sweeper sends it again.
TAVLA_ANALYSIS_LOST_SECONDS = env.float("TAVLA_ANALYSIS_LOST_SECONDS", default=60.0)
TAVLA_ANALYSIS_RUNNING_SECONDS = env.float("TAVLA_ANALYSIS_RUNNING_SECONDS", default=600.0)
CELERY_BEAT_SCHEDULE["analysis-sweeper"] = {
    "task": "matches.sweep_analyses",
    "schedule": env.float("TAVLA_ANALYSIS_SWEEP_SECONDS", default=30.0),
    "options": {"expires": 60.0},
}

# --- Production: HTTPS only behind the TLS load balancer (deploy/production.env) ---------------
# With BEHIND_TLS_PROXY the defaults are what `manage.py check --deploy` asks for; plain HTTP
# (development, the compose file on one host, the tests' servers) keeps them off.
_TLS = env.bool("BEHIND_TLS_PROXY", default=False)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=_TLS)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=_TLS)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=_TLS)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the balancer probes over plain HTTP
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if _TLS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_TLS)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- Tournaments (docs/tournaments.md) ---------------------------------------------------------
# Named clocks beyond the site's (JSON {"name": {"delay", "reserve", "max_move", "reconnect"}}):
# quick pairing and tournaments offer them by name.
TAVLA_CLOCK_PRESETS = env.json("TAVLA_CLOCK_PRESETS", default={})
# What a committed tournament append sets off: its start task, the pushes to its followers.
TAVLA_TOURNAMENT_AFTER_COMMIT = [
    "matches.tasks.tournaments.after_tournament_commit",
    "matches.streams.publish.tournament_changed",
]
# Players may create tournaments over the API (staff always may).
TAVLA_PLAYERS_CREATE_TOURNAMENTS = env.bool("TAVLA_PLAYERS_CREATE_TOURNAMENTS", default=False)
TAVLA_TOURNAMENT_SWEEP_SECONDS = env.float("TAVLA_TOURNAMENT_SWEEP_SECONDS", default=5.0)
CELERY_BEAT_SCHEDULE["tournament-sweeper"] = {
    "task": "matches.sweep_tournaments",
    "schedule": TAVLA_TOURNAMENT_SWEEP_SECONDS,
    "options": {"expires": max(TAVLA_TOURNAMENT_SWEEP_SECONDS * 3, 10.0)},
}
