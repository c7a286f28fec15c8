"""Settings, all from environment variables (12-factor), read with django-environ.

With no environment at all the service runs on one machine: SQLite in var/tavla.sqlite3 and a
Celery broker on the filesystem under var/broker (no server needed). DATABASE_URL and
CELERY_BROKER_URL switch to PostgreSQL and Redis or RabbitMQ. A `.env` file at the repository
root is read if present. README.md lists every variable.
"""

from pathlib import Path

import environ
from corsheaders.defaults import default_headers as default_cors_headers
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"  # git-ignored: embedded database, broker folders, beat schedule

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

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
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from the package (offline)
    "corsheaders",
    "games",
    "matches",
    "matches.api",
    "matches.web",
]

MIDDLEWARE = [
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
    return db


DATABASES = {"default": database_from_url(env.str("DATABASE_URL", default=EMBEDDED_DATABASE_URL))}
# The health check runs only on a connection idle this long (matches/dbhealth.py).
DATABASE_HEALTH_IDLE = env.float("DATABASE_HEALTH_IDLE", default=2.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "tavla_project.cache.RedisCache"  # one pool per process
# Tokens' accounts are kept in this cache (matches/api/authentication.py) only when every process
# shares it (Redis): a logout must reach them all at once. Empty: read the database each time.
_SHARED_CACHE = not CACHES["default"]["BACKEND"].endswith(("LocMemCache", "DummyCache"))
TAVLA_TOKEN_CACHE = env.str("TAVLA_TOKEN_CACHE", default="default" if _SHARED_CACHE else "")
TAVLA_TOKEN_CACHE_SECONDS = env.int("TAVLA_TOKEN_CACHE_SECONDS", default=300)

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
WHITENOISE_USE_FINDERS = DEBUG  # serve app static files without collectstatic in development

# --- REST API (matches/api; README "API") ---------------------------------------------------------

REST_FRAMEWORK = {
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "matches.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "matches.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        # Per user (per IP for anonymous callers); the cache (CACHE_URL) holds the counters,
        # so set CACHE_URL to Redis for limits shared by every web process.
        "auth": env.str("API_THROTTLE_AUTH", default="30/min"),
        "match_create": env.str("API_THROTTLE_CREATE", default="60/min"),
        "match_write": env.str("API_THROTTLE_WRITE", default="600/min"),
    },
}

# --- CORS: browser clients on other origins (README "Configuration") ----------------------------
# Only the API; only the origins listed (none by default). A preflight is answered by the
# middleware before authentication, so it never gets 401.
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = (*default_cors_headers, "if-match", "idempotency-key")
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
    # Two choice sets are both called "ended_by": the game's (bearoff, ...) and the row's.
    "ENUM_NAME_OVERRIDES": {
        "GameEndedByEnum": "matches.selectors.shapes.ENDED_BY",
        "MatchEndedByEnum": "matches.selectors.shapes.SUMMARY_ENDED_BY",
        # An account's kind (no "named" seat) and a match's status keep their names beside
        # the other sets called "kind" and "status" (a seek's status).
        "UserKindEnum": "matches.selectors.shapes.ACCOUNT_KINDS",
        "StatusEnum": "matches.selectors.shapes.MATCH_STATUSES",
        "SeekStatusEnum": "matches.selectors.shapes.SEEK_STATUSES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "matches.api.schema.hooks.add_error_table",
    ],
}

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

EMBEDDED_BROKER_URL = "filesystem://localhost/"  # the host part only keeps kombu quiet
BROKER_DIR = VAR_DIR / "broker"

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=EMBEDDED_BROKER_URL)
if CELERY_BROKER_URL.startswith("filesystem:"):
    # One folder is both the inbox and the outbox: every process produces and consumes there.
    for sub in ("queue", "control", "processed"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "store_processed": False,
        "polling_interval": 0.5,
    }
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

# What a committed append sets off (matches/store/committed.py): functions given a `Committed`.
TAVLA_AFTER_COMMIT = [
    "matches.tasks.clock.after_commit",  # a new deadline: schedule its clock task
    "matches.tasks.computer.after_commit",  # the computer must act: play its turn
    "matches.streams.publish.after_commit",  # connected clients: push the events
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
TAVLA_STREAM_MAX_SECONDS = env.float("TAVLA_STREAM_MAX_SECONDS", default=600.0)  # SSE: resume
TAVLA_SSE_KEEPALIVE = env.float("TAVLA_SSE_KEEPALIVE", default=15.0)
TAVLA_WS_MAX_MESSAGE = env.int("TAVLA_WS_MAX_MESSAGE", default=16384)  # characters
TAVLA_STREAM_DB_THREADS = env.int("TAVLA_STREAM_DB_THREADS", default=8)

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

# --- Ratings and quick pairing (docs/ratings.md) ----------------------------------------------
# Functions told of user notifications (matches/services/notices.py: a seek paired), each
# taking a `Notice`: the push streams send them to the user's sockets.
TAVLA_NOTIFY = ["matches.streams.publish.notice"]
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
CELERY_BEAT_SCHEDULE["seek-sweeper"] = {
    "task": "matches.sweep_seeks",
    "schedule": TAVLA_SEEK_SWEEP_SECONDS,
    "options": {"expires": max(TAVLA_SEEK_SWEEP_SECONDS * 3, 10.0)},
}
