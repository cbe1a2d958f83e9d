# catintel: the two commands for a fresh machine are `make run` and `make test`.
SHARED_DATA ?= ../shared/data
DB ?= catintel.duckdb
PORT ?= 8080
NODE_MODULES_STAMP := node_modules/.package-lock.json

.PHONY: install build data run test bench conformance clean

install: $(NODE_MODULES_STAMP)
$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: install
	npx tsc -p tsconfig.json

# Rebuild the committed derived data from the public sources in $(SHARED_DATA).
data: build
	node dist/scripts/build-flood-stages.js --from $(SHARED_DATA)/feeds/nwps/nwps_all_gauges_report.csv --out data/flood-stages.csv
	node dist/scripts/build-seed.js --from $(SHARED_DATA) --out data/seed
	node dist/scripts/build-baseline.js --from $(SHARED_DATA) --out data/baseline

# Install, build, load the embedded seed into a fresh store and serve it offline.
run: build
	CATINTEL_NOW=$$(cat data/seed/as-of.txt) ./bin/catintel --db $(DB) --quiet db seed
	CATINTEL_NOW=$$(cat data/seed/as-of.txt) ./bin/catintel --db $(DB) serve --port $(PORT)

test: build
	npx vitest run

bench: build
	node dist/bench/run.js

# The API against openapi.yaml (schemathesis), then OED output against ods-tools.
conformance: build
	bash scripts/conformance.sh
	bash scripts/conformance-oasis.sh

clean:
	rm -rf dist
