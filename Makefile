# The two commands: `make run` and `make test`. Both install what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NPM_STAMP := node_modules/.package-lock.json

# The project runs on Node 24 (LTS) from the npm registry's `node` package, installed into
# tools/node/ first (with whatever Node the machine has); from then on it is first on PATH for
# every command here, npm included (npm starts through `env node`), so the project's own
# `npm ci` and everything after it run on Node 24 whatever the system Node is.
NODE_DIR := $(CURDIR)/tools/node
NODE_STAMP := tools/node/node_modules/.package-lock.json
NODE := $(NODE_DIR)/node_modules/.bin/node
export PATH := $(CURDIR)/node_modules/.bin:$(NODE_DIR)/node_modules/.bin:$(PATH)

# The production build of the API, workers and solver (tsc -> dist/), rebuilt when a source changes.
BUILD_STAMP := dist/.built
BUILD_SOURCES := $(shell find src strategies generated -name '*.ts' -not -name '*.test.ts' 2>/dev/null) src/worker/thread-boot.mjs

# The whole suite; `npx mocha FILE` (the same configuration, .mocharc.json) runs one file alone.
# `make test` runs two files at a time (--parallel): every file starts its own services on free
# ports with its own temporary directories, and much of a file's time is spent waiting on them.
# The files that take longest start first, so the two jobs end together instead of one long file
# running alone at the end (one renamed or removed is skipped); the rest follow in path order.
# test/helpers/file-times.ts measures each file's time inside the suite, to keep this list current.
TEST_SLOW_FIRST := test/playground/playground.test.ts test/strategies/identical-vehicles-ils-search.test.ts \
  test/e2e/sdk-tarball.test.ts test/strategies/general-search.test.ts test/strategies/hgs.test.ts \
  test/e2e/researcher.test.ts test/e2e/faults.test.ts test/playground/service-constraints.test.ts \
  test/playground/visit-rules.test.ts test/playground/traffic-timeline.test.ts test/strategies/same-routes-loads.test.ts \
  test/strategies/conformance.test.ts test/playground/balance.test.ts test/ops/make-run.test.ts test/e2e/fuzz.test.ts \
  test/e2e/fair-share.test.ts test/playground/loads.test.ts test/cli/cli.test.ts test/e2e/cooperative.test.ts
TEST_FILES := $(wildcard $(TEST_SLOW_FIRST)) $(filter-out $(TEST_SLOW_FIRST),$(shell find test strategies -name '*.test.ts' \
  -not -path 'test/soak/*' -not -path 'test/faults/*' -not -path 'test/deploy/*' 2>/dev/null | LC_ALL=C sort))

.PHONY: help deps test-deps build sdk-build sdk-pack sdk run test test-strategies test-soak test-faults typecheck lint gen bench clean

help:
	@echo "make run    - install what is missing, start nats-server, the API (127.0.0.1:8080) and workers"
	@echo "make test   - the whole test suite (starts its own nats-server on free ports)"
	@echo "make test-strategies - the solver strategies' tests alone (no services, no build)"
	@echo "make test-faults - fault suite on a three-node NATS cluster (several minutes)"
	@echo "make bench  - solver benchmark on public instances (see BENCHMARKS.md)"
	@echo "make lint   - OpenAPI lint + TypeScript typecheck"
	@echo "make build  - compile the API, workers and solver to dist/ (make run and make test do it when needed)"
	@echo "make sdk    - build and test the TypeScript SDK in clients/typescript, pack it into dist/sdk/"
	@echo "make image  - build the container images (Debian packages, Debian's docker.io); see docs/operating-containers.md"
	@echo "make deploy-up / deploy-down - the compose stack of deploy/compose.yaml (3 NATS nodes, 2 APIs, workers, Prometheus)"
	@echo "make test-deploy - rolling upgrade of the compose stack under load (several minutes, needs a Docker engine)"

# npm packages from the lock file, and Debian's nats-server; the tests also need Prometheus
# (promtool and a real server for the metrics tests).
deps: $(NPM_STAMP) /usr/bin/nats-server

test-deps: deps /usr/bin/promtool /usr/bin/chromium /usr/bin/jq

$(NODE_STAMP): tools/node/package.json tools/node/package-lock.json
	cd tools/node && npm ci --no-audit --no-fund
	@touch $(NODE_STAMP)

$(NPM_STAMP): package.json package-lock.json $(NODE_STAMP)
	npm ci --no-audit --no-fund
	@touch $(NPM_STAMP)

build: $(BUILD_STAMP)

# The TypeScript SDK (clients/typescript, its own package): installed, generated from the
# document, compiled (its type tests included) and tested; the end-to-end tests use it.
SDK_STAMP := clients/typescript/node_modules/.package-lock.json
$(SDK_STAMP): clients/typescript/package.json clients/typescript/package-lock.json $(NODE_STAMP)
	cd clients/typescript && npm ci --no-audit --no-fund
	@touch $(SDK_STAMP)

SDK_BUILD_STAMP := clients/typescript/dist/.built
$(SDK_BUILD_STAMP): $(SDK_STAMP) openapi/solve-api.openapi.json clients/typescript/tsconfig.json \
  $(shell find clients/typescript/src clients/typescript/test clients/typescript/examples \
    -name '*.ts' -not -path '*/generated/*' 2>/dev/null)
	cd clients/typescript && npm run --silent build
	@touch $(SDK_BUILD_STAMP)

sdk-build: $(SDK_BUILD_STAMP)

# The SDK as a partner installs it: `npm pack` of clients/typescript (its compiled dist/src and
# README), versioned by its package.json.
SDK_VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' clients/typescript/package.json)
SDK_TARBALL := dist/sdk/vrp-solve-client-$(SDK_VERSION).tgz
$(SDK_TARBALL): $(SDK_BUILD_STAMP) clients/typescript/package.json clients/typescript/README.md
	@mkdir -p dist/sdk
	cd clients/typescript && npm pack --silent --pack-destination ../../dist/sdk >/dev/null
	@echo "SDK package: $(SDK_TARBALL) (install it in a project with: npm install $(CURDIR)/$(SDK_TARBALL))"

sdk-pack: $(SDK_TARBALL)

sdk: sdk-build
	cd clients/typescript && npm test
	@$(MAKE) -s sdk-pack

# Emitted without a second type check: `make typecheck` and `make test` check every file (check-types).
$(BUILD_STAMP): $(NPM_STAMP) tsconfig.json tsconfig.build.json $(BUILD_SOURCES)
	tsc -p tsconfig.build.json --noCheck
	@touch $(BUILD_STAMP)

/usr/bin/nats-server:
	@command -v nats-server >/dev/null 2>&1 || $(call apt_install,nats-server,the message broker that make run and the tests start)

/usr/bin/promtool:
	@command -v promtool >/dev/null 2>&1 || $(call apt_install,prometheus,promtool and a real Prometheus for the metrics tests)

# The README's examples pipe answers through jq, and its test runs them.
/usr/bin/jq:
	@command -v jq >/dev/null 2>&1 || $(call apt_install,jq,the README's examples use it and the README test runs them)

# The playground's end-to-end tests drive Debian's Chromium (never a browser download).
/usr/bin/chromium:
	@command -v chromium >/dev/null 2>&1 || $(call apt_install,chromium,the headless browser of the playground and API reference tests)

# The route playground (playground/), bundled by esbuild into dist/playground/ when missing or stale.
PLAYGROUND := dist/playground/index.html
$(PLAYGROUND): $(NPM_STAMP) scripts/build-playground.ts scripts/browser-bundle.ts \
  $(wildcard playground/*.html playground/*.css playground/*.svg playground/src/*.ts examples/*.json)
	node --import tsx scripts/build-playground.ts

# The API reference page at /docs (reference/: Swagger UI from the npm package swagger-ui-dist).
REFERENCE := dist/reference/index.html
$(REFERENCE): $(NPM_STAMP) scripts/build-reference.ts scripts/browser-bundle.ts playground/favicon.svg \
  $(wildcard reference/*.html reference/*.css reference/src/*.ts)
	node --import tsx scripts/build-reference.ts

# $(call apt_install,PACKAGE,WHY): installs a Debian package, saying what and why. apt waits up to
# APT_LOCK_TIMEOUT seconds for the package lock (held on a freshly booted machine by unattended
# upgrades, or by any other install) instead of failing at once.
APT_LOCK_TIMEOUT ?= 600
define apt_install
{ echo "installing the Debian package $(1): $(2) (apt waits up to $(APT_LOCK_TIMEOUT) s for the package lock)"; \
  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
  $$SUDO apt-get -o DPkg::Lock::Timeout=$(APT_LOCK_TIMEOUT) update -qq && \
  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=$(APT_LOCK_TIMEOUT) install -y -qq $(1) >/dev/null; }
endef

run: deps build $(PLAYGROUND) $(REFERENCE)
	$(NODE) dist/src/bin/dev.js

# Everything the suite needs built, and the static checks, two at a time: each of these steps is a
# single process on one core, so one after the other they would leave the second core idle.
# --output-sync keeps each step's output together.
test: test-deps
	@echo "Node $$(node --version) from tools/node"
	@$(MAKE) --no-print-directory -j2 --output-sync=target build sdk $(PLAYGROUND) $(REFERENCE) $(TEST_CHECKS)
	mocha --parallel --jobs 2 $(TEST_FILES)

TEST_CHECKS := check-format check-line-width check-types check-playground-types check-reference-types
.PHONY: $(TEST_CHECKS)

check-format: deps
	prettier --check --log-level warn .

check-line-width: deps
	node --import tsx scripts/check-line-width.ts

# The tests type-check against the SDK's compiled declarations.
check-types: deps sdk-build
	tsc -p tsconfig.json

check-playground-types: deps
	tsc -p playground/tsconfig.json

check-reference-types: deps
	tsc -p reference/tsconfig.json

# The solver strategies' tests alone (test/strategies/ and strategies/**/*.test.ts), for work on a
# strategy: they start no services, so nothing is built first.
test-strategies: $(NPM_STAMP)
	mocha --config .mocharc.strategies.json

# The three-node NATS cluster and load run (several minutes): see docs/operating.md.
test-soak: test-deps build
	mocha --config .mocharc.soak.json

# The fault suite on a three-node cluster (several minutes, not part of `make test`):
# frozen and killed NATS leaders, a whole-cluster restart, killed workers and API instances, and
# a real 30 s network partition (network namespaces: needs root, else reported as pending with
# the reason). FAULT_TASKS sets the submissions per scenario (default 300). See docs/operating.md.
test-faults: test-deps build
	mocha --config .mocharc.faults.json

typecheck: deps sdk-build
	npx tsc -p tsconfig.json

lint: deps sdk-build
	npm run lint:spec
	npm run -s format:check
	npx tsc -p tsconfig.json

gen: deps
	npm run gen

bench: deps
	npm run bench -- --set A --time 10

clean:
	rm -rf var dist clients/typescript/dist

# Containers (docs/operating-containers.md): images built here from Debian packages with Debian's
# docker.io (no image registry), the compose stack of deploy/compose.yaml, and its rolling-upgrade test.
COMPOSE := docker-compose -p vrp -f deploy/compose.yaml
IMAGE_TAG ?= latest
export IMAGE_TAG

.PHONY: image docker-engine deploy-up deploy-down test-deploy

/usr/sbin/dockerd:
	@command -v dockerd >/dev/null 2>&1 || $(call apt_install,docker.io,the Docker engine that builds and runs the images)

/usr/bin/mmdebstrap:
	@command -v mmdebstrap >/dev/null 2>&1 || $(call apt_install,mmdebstrap,builds the images' Debian root filesystems)

/usr/bin/docker-compose:
	@command -v docker-compose >/dev/null 2>&1 || $(call apt_install,docker-compose,runs deploy/compose.yaml)

docker-engine: /usr/sbin/dockerd
	@scripts/deploy/docker-engine.sh

image: build $(PLAYGROUND) $(REFERENCE) /usr/bin/mmdebstrap docker-engine
	scripts/deploy/build-images.sh

# WORKERS sets the number of worker replicas (default 2).
WORKERS ?= 2
deploy-up: image /usr/bin/docker-compose
	$(COMPOSE) up -d --scale worker=$(WORKERS)
	scripts/deploy/wait-healthy.sh vrp

deploy-down: /usr/bin/docker-compose
	$(COMPOSE) down --volumes --remove-orphans --timeout 30

# The rolling upgrade under load (several minutes, not part of `make test`): DEPLOY_TASKS sets
# the submissions (default 1000).
test-deploy: deps image /usr/bin/docker-compose
	mocha --config .mocharc.deploy.json
