"""The lowest floor of the services: the Services context, the outbox, every outgoing mail
(composed, threaded and queued in one place), the GM's recorded actions and the reply limits.
Imports no other floor."""
