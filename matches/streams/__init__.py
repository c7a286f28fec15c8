"""Real-time delivery: pushing a match's events to connected clients (docs/realtime.md).

The store is the truth, the push is a hint (DESIGN "Real-time"): after a command commits,
`publish` sends "match M is at version V" (with the new events) through the channel layer; each
web process's `hub` follows the matches its clients watch, fills any gap from the store (a
missed hint, a Celery worker's write the in-memory layer cannot carry) and wakes the clients'
streams (`follow`): the WebSocket (`consumers`), Server-Sent Events (`sse`) and the events
long-poll (`longpoll`). A WebSocket's commands go through the HTTP API's own views
(`commands`), so codes, idempotency and version rules are the same.
"""
