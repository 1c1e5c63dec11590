"""What an operator sees of the service: Prometheus metrics (`metrics`), fed by the apps' signals
(the `monitoring` app: `apps`, `receivers`). docs/deployment.md, "Metrics and alerts"."""
