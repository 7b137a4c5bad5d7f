# gmserver as it runs in production: the package plus its templates, profiles and migrations.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOME=/app
WORKDIR /app
# libcairo2: cairosvg draws the report map's board with it (gmserver/mapimage.py)
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libcairo2 && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md LICENSE ./
COPY gmserver ./gmserver
COPY migrations ./migrations
COPY templates ./templates
COPY config ./config
RUN pip install --no-cache-dir -e . && useradd --system --home /app gmserver && chown -R gmserver /app
USER gmserver

# Migrations are idempotent: upgrade on every start, then run the daemon.
CMD ["sh", "-c", "gmserver db upgrade && exec gmserver run"]
