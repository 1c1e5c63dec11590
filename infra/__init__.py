"""Infrastructure below every app: what any layer may use and nothing of the apps' (no model, no
service, no app's module is imported here). The metrics (`infra.metrics`) and the network's
small facts (`infra.network`). tests/test_layers.py keeps it the bottom layer."""
