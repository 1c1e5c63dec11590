"""Infrastructure below every app: what any layer may use and nothing of the apps' (no model, no
service, no app's module is imported here). The metrics (`infra.metrics`), the network's small
facts (`infra.network`), the client's address (`infra.addresses`), the Redis client and its
errors (`infra.redis`), prepared SQL (`infra.prepared`), the event loop's background task
(`infra.loop_task`), the check of text for NUL (`infra.textinput`) and the sliding windows the
throttles count in (`infra.ratewindows`). tests/test_layers.py keeps it the bottom layer."""
