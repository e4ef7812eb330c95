# Headroom: `make run` starts the product, `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HEADROOM := $(BIN)/headroom
STAMPS := .stamps
UI_SOURCES := $(shell find frontend/src frontend/index.html frontend/vite.config.ts frontend/tsconfig*.json -type f 2>/dev/null)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest vitest e2e e2e-baselines bench bench-api bench-scale bench-upload install ui system-deps openapi clean

## run: install everything, migrate SQLite, seed the demo, serve API + UI + one worker
run: install ui
	@$(HEADROOM) migrate
	@$(HEADROOM) demo
	@echo ""
	@echo "  Headroom is running at http://$(HOST):$(PORT)"
	@echo "  Sign in as demo@headroom.local / demo-password   (Ctrl-C stops everything)"
	@echo ""
	@exec $(HEADROOM) serve --host $(HOST) --port $(PORT) --with-worker

## test: every check; keeps going after a failure and exits non-zero if any failed
test:
	@$(MAKE) --no-print-directory -k lint typecheck pytest vitest e2e

install: $(STAMPS)/venv

$(STAMPS)/venv: backend/pyproject.toml worker/pyproject.toml
	@mkdir -p $(STAMPS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e 'backend[dev]' -e worker
	# Envoy's API messages, for the export tests, in a folder of their own: the package
	# ships an older copy of the OpenTelemetry protos that would overwrite the venv's
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --upgrade \
	  --target $(VENV)/envoy-api 'xds-protos==1.85.0'
	@touch $@

$(STAMPS)/npm: frontend/package-lock.json
	@mkdir -p $(STAMPS)
	# npm ci refuses a lock whose optional per-platform packages (rollup's) a registry mirror
	# could not list; npm install --no-save then installs the same locked versions.
	cd frontend && (npm ci --no-audit --no-fund || npm install --no-save --no-audit --no-fund)
	@touch $@

$(STAMPS)/e2e-npm: e2e/package-lock.json
	@mkdir -p $(STAMPS)
	cd e2e && npm ci --no-audit --no-fund
	@touch $@

ui: frontend/dist/index.html

frontend/dist/index.html: $(STAMPS)/npm $(UI_SOURCES)
	cd frontend && npm run build

lint: install $(STAMPS)/npm $(STAMPS)/e2e-npm
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	cd frontend && npm run lint
	cd e2e && npm run lint

typecheck: install $(STAMPS)/npm $(STAMPS)/e2e-npm
	$(BIN)/mypy backend/headroom worker/headroom_worker
	cd frontend && npm run typecheck
	cd e2e && npm run typecheck

# pytest exits 5 when it collects nothing; that is not a failure here
pytest: install system-deps
	$(BIN)/python -m pytest -q || [ $$? -eq 5 ]

vitest: $(STAMPS)/npm
	cd frontend && npm test

e2e: install ui system-deps $(STAMPS)/e2e-npm
	cd e2e && npm test

## e2e-baselines: write the pixel baselines again (e2e/screenshots/, compared by screens.spec.ts)
## after a change that is meant to change those screens; review the new images before committing
e2e-baselines: install ui system-deps $(STAMPS)/e2e-npm
	cd e2e && npx playwright test screens.spec.ts --update-snapshots

APT_GOACCESS = { apt-get install -y -q goaccess || { apt-get update -qq && apt-get install -y -q goaccess; }; } >/dev/null 2>&1

bench: install
	@command -v goaccess >/dev/null || [ "$$(id -u)" != 0 ] || $(APT_GOACCESS) || echo "goaccess could not be installed: bench/bench_parse.py skips it"
	@for script in bench/bench_*.py; do \
	  case "$$script" in bench/bench_scale.py|bench/bench_upload.py) continue;; esac; \
	  echo "== $$script"; $(BIN)/python $$script || exit 1; \
	done

## bench-api: API load on its own PostgreSQL + Redis stack: 50 readers, then reads during 10
## concurrent 20 MB uploads; e.g. ARGS="--json bench/out/api.json --compare bench/out/prev.json"
bench-api: install system-deps
	$(BIN)/python bench/bench_api.py $(ARGS)

## bench-upload: a generated 30 GB log through `headroom upload` and the API to file:// (and
## S3 with --s3), then the chunked parse; wall, CPU, peak RSS; long. e.g. ARGS="--gb 2 --s3"
bench-upload: install system-deps
	$(BIN)/python bench/bench_upload.py $(ARGS)

## bench-scale: ingest and characterization of generated 2, 10 and 30 M-line logs with 1 and
## 2 workers (wall, CPU, peak RSS, cost per M lines, GoAccess); long. e.g. ARGS="--sizes 2,10"
bench-scale: install
	@command -v goaccess >/dev/null || [ "$$(id -u)" != 0 ] || $(APT_GOACCESS) || echo "goaccess could not be installed: bench/bench_scale.py skips it"
	$(BIN)/python bench/bench_scale.py $(ARGS)

## openapi: refresh the schema the frontend client is generated from
openapi: install
	$(HEADROOM) openapi > frontend/openapi.json
	cd frontend && npm run gen:api

# Servers and a browser the tests start themselves (throwaway PostgreSQL and Redis, Chromium), and
# the tools that read exported files (haproxy, nginx, promtool from prometheus).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v haproxy >/dev/null || missing="$$missing haproxy"; \
	command -v nginx >/dev/null || missing="$$missing nginx"; \
	command -v promtool >/dev/null || missing="$$missing prometheus"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "please install:$$missing (apt-get install -y$$missing)"; exit 1; fi; \
	fi

clean:
	rm -rf $(STAMPS) $(VENV) frontend/node_modules frontend/dist e2e/node_modules var
