"""The end-to-end tests use the same real servers as the integration tests."""

from tests.integration.conftest import dovecot, mail_user, smtp_relay  # noqa: F401  (fixtures)
