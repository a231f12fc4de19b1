# The two commands: `make run` and `make test`. Both install what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NPM_STAMP := node_modules/.package-lock.json

.PHONY: help deps test-deps run test test-soak typecheck lint gen bench clean

help:
	@echo "make run    - install what is missing, start nats-server, the API (127.0.0.1:8080) and workers"
	@echo "make test   - the whole test suite (starts its own nats-server on free ports)"
	@echo "make bench  - solver benchmark on public instances (see BENCHMARKS.md)"
	@echo "make lint   - OpenAPI lint + TypeScript typecheck"

# npm packages from the lock file, and Debian's nats-server; the tests also need Prometheus
# (promtool and a real server for the metrics tests).
deps: $(NPM_STAMP) /usr/bin/nats-server

test-deps: deps /usr/bin/promtool /usr/bin/chromium

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NPM_STAMP)

/usr/bin/nats-server:
	@command -v nats-server >/dev/null 2>&1 || $(call apt_install,nats-server)

/usr/bin/promtool:
	@command -v promtool >/dev/null 2>&1 || $(call apt_install,prometheus)

# The playground's end-to-end tests drive Debian's Chromium (never a browser download).
/usr/bin/chromium:
	@command -v chromium >/dev/null 2>&1 || $(call apt_install,chromium)

# The route playground (playground/), bundled by esbuild into dist/playground/ when missing or stale.
PLAYGROUND := dist/playground/index.html
$(PLAYGROUND): $(NPM_STAMP) scripts/build-playground.ts $(wildcard playground/*.html playground/*.css playground/src/*.ts examples/*.json)
	node --import tsx scripts/build-playground.ts

define apt_install
{ echo "installing $(1) (Debian package)"; \
  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(1) >/dev/null; }
endef

run: deps $(PLAYGROUND)
	node --import tsx src/bin/dev.ts

test: test-deps $(PLAYGROUND)
	npx tsc -p tsconfig.json
	npx tsc -p playground/tsconfig.json
	npx mocha

# The three-node NATS cluster and load run (several minutes): see README "Operating".
test-soak: test-deps
	npx mocha --config .mocharc.soak.json

typecheck: deps
	npx tsc -p tsconfig.json

lint: deps
	npm run lint:spec
	npx tsc -p tsconfig.json

gen: deps
	npm run gen

bench: deps
	npm run bench -- --set A --time 10

clean:
	rm -rf var
