# One image for the API and the workers; a small nginx image for the web front.
# Build: docker compose build   (see docker-compose.yml)

FROM node:20-bookworm-slim AS ui
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund || npm install --no-save --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm AS app
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY backend/ backend/
COPY worker/ worker/
COPY migrations/ migrations/
COPY data/logs/apache_combined_elastic.log data/logs/
RUN pip install -e backend -e worker && useradd --system --uid 10001 headroom \
    && mkdir -p /var/lib/headroom && chown headroom /var/lib/headroom
COPY --from=ui /src/frontend/dist frontend/dist
USER headroom
ENV HEADROOM_DATA_DIR=/var/lib/headroom XDG_CACHE_HOME=/var/lib/headroom/cache
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health')"
CMD ["headroom", "serve", "--host", "0.0.0.0", "--port", "8000"]

FROM nginx:1.27-alpine AS web
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=ui /src/frontend/dist /usr/share/nginx/html
