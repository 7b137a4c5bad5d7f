# gmserver as it runs in production: the package plus its templates, profiles and migrations.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOME=/app
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY gmserver ./gmserver
COPY migrations ./migrations
COPY templates ./templates
COPY config ./config
RUN pip install --no-cache-dir -e . && useradd --system --home /app gmserver && chown -R gmserver /app
USER gmserver

# Migrations are idempotent: upgrade on every start, then run the daemon.
CMD ["sh", "-c", "gmserver db upgrade && exec gmserver run"]
