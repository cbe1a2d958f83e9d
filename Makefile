# catintel: the two commands for a fresh machine are `make run` and `make test`.
SHARED_DATA ?= ../shared/data
DB ?= catintel.duckdb
PORT ?= 8080
NODE_MODULES_STAMP := node_modules/.package-lock.json

.PHONY: install build data data-check imports lint run test test-cluster bench docs conformance conformance-suites conformance-api conformance-oasis conformance-oasislmf conformance-arrow clean

# npm's packages, then the DuckDB extensions the store loads (spatial), fetched from PyPI for the DuckDB that
# npm installed (docs/spatial.md). `make install` always checks them again (a second run downloads nothing);
# build, run and test fetch them once per install of node_modules.
EXTENSIONS_STAMP := duckdb-extensions/.installed
install: $(NODE_MODULES_STAMP)
	python3 scripts/install-duckdb-extensions.py
$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@
$(EXTENSIONS_STAMP): $(NODE_MODULES_STAMP) scripts/install-duckdb-extensions.py
	python3 scripts/install-duckdb-extensions.py

# Compile only when a source, the compiler settings or the installed packages changed since the last build
# (`make run` starts in about a second when nothing changed).
BUILD_STAMP := dist/.build-stamp
SOURCES := $(shell find src bench scripts \( -name '*.ts' -o -name '*.tsx' \) ! -name '*.test.ts' 2>/dev/null)

# The extensions beside the compiled code, not inside its stamp: fetching them again never recompiles.
build: $(BUILD_STAMP) $(EXTENSIONS_STAMP)
$(BUILD_STAMP): $(NODE_MODULES_STAMP) tsconfig.json $(SOURCES)
	npx tsc -p tsconfig.json
	@touch $@

# Rebuild the committed derived data from the public sources in $(SHARED_DATA).
data: build
	node dist/scripts/build-flood-stages.js --from $(SHARED_DATA)/feeds/nwps/nwps_all_gauges_report.csv --out data/flood-stages.csv
	node dist/scripts/build-seed.js --from $(SHARED_DATA) --out data/seed
	node dist/scripts/build-baseline.js --from $(SHARED_DATA) --out data/baseline
	node dist/scripts/build-catalogs.js --from $(SHARED_DATA) --out data/catalogs
	node dist/scripts/build-infrastructure.js --from $(SHARED_DATA) --out data/infrastructure

# Install, build, load the embedded seed into a fresh store and serve it offline.
run: build
	CATINTEL_NOW=$$(cat data/seed/as-of.txt) ./bin/catintel --db $(DB) --quiet db seed
	CATINTEL_NOW=$$(cat data/seed/as-of.txt) ./bin/catintel --db $(DB) serve --port $(PORT)

# Needs nothing outside npm and ../shared/data: the report tests read the PDFs with MuPDF's WebAssembly build.
# The static checks (make lint) need only npm's packages: they start as soon as those are in, beside the
# build (the compiler keeps one core busy), and run on beside the suite, which runs at a lower priority so
# that they end early instead of trailing it alone on a core (half a minute); their findings print after
# the suite's, whatever either found. The committed-data rebuild checks (make data-check) run after the build when their inputs changed
# since data/inputs.sha256 was recorded (DATA_CHECK=auto), always (DATA_CHECK=yes) or never (DATA_CHECK=no,
# as CI runs them on their own); then the suite. Prints its wall time last, install and build included.
DATA_CHECK ?= auto
# When make started, before `test`'s prerequisites (npm ci on a fresh clone): the time printed is the whole command's.
MAKE_STARTED := $(shell date +%s)
# Where the checks running beside the build and the suite leave their findings and exit status (one folder
# per make, named by its process id, which every line of the recipe shares as its parent).
LINT_RUN = $${TMPDIR:-/tmp}/catintel-make-test-lint.$$PPID
test: $(NODE_MODULES_STAMP)
	@rm -rf $(LINT_RUN) && mkdir -p $(LINT_RUN) && \
	{ ( $(LINT_CHECKS) ) >$(LINT_RUN)/out 2>&1; echo $$? >$(LINT_RUN)/status.part; mv $(LINT_RUN)/status.part $(LINT_RUN)/status; } &
	@$(MAKE) --no-print-directory build
	@start=$$(date +%s); status=0; \
	if [ "$(DATA_CHECK)" = yes ] || { [ "$(DATA_CHECK)" = auto ] && ! node dist/scripts/data-inputs.js check --from $(SHARED_DATA); }; then \
	  { $(RUN_DATA_CHECK); } || status=$$?; \
	fi; \
	nice -n 5 npx vitest run $(VITEST_FLAGS) || status=$$?; \
	while [ ! -f $(LINT_RUN)/status ]; do sleep 1; done; \
	if [ "$$(cat $(LINT_RUN)/status)" = 0 ]; then echo "make lint: clean"; else status=1; echo "make lint: failed"; fi; \
	cat $(LINT_RUN)/out; rm -rf $(LINT_RUN); \
	end=$$(date +%s); echo "make test: $$(( end - $(MAKE_STARTED) )) s (install and build $$(( start - $(MAKE_STARTED) )) s, checks and suite $$(( end - start )) s)"; \
	exit $$status

# The import rules (docs/architecture.md#imports-run-one-way, .dependency-cruiser.cjs): fails on an import
# cycle (type-only imports included) or an import against the layers. `make test` runs it beside the suite.
IMPORT_CHECK = npx depcruise src scripts bench --config .dependency-cruiser.cjs --output-type err
imports:
	$(IMPORT_CHECK)

# The static checks `make test` runs beside the suite, each to the end so one run lists every finding: the
# import rules, eslint (eslint.config.js), Prettier's layout (.prettierrc.json; `npm run format` fixes it) and
# knip (knip.json: unused files, exports and dependencies). The four run at once (each mostly one core, about
# 40 s of CPU between eslint and Prettier): one after another they were still running half a minute after
# the suite had ended. Their findings print in that order, each check's together.
# (Not a recursive make: `make --dry-run test` runs the lines that name $(MAKE), and a test dry-runs it.)
LINT_CHECKS = out=$$(mktemp -d); n=0; \
	for check in '$(IMPORT_CHECK)' 'npx eslint .' 'npx prettier --check --log-level warn .' 'npx knip'; do \
	  n=$$((n + 1)); { sh -c "$$check" >$$out/$$n 2>&1 || touch $$out/$$n.failed; } & \
	done; wait; lint=0; \
	for i in 1 2 3 4; do cat $$out/$$i; if [ -e $$out/$$i.failed ]; then lint=1; fi; done; \
	rm -rf $$out; [ $$lint -eq 0 ]
lint:
	@$(LINT_CHECKS)

# The checks that rebuild the committed data byte for byte from $(SHARED_DATA) (test/data-check, about a
# minute); when they pass, the inputs they ran on are recorded in data/inputs.sha256. (Not a recursive
# make from `test`: make runs those lines even in a dry run.)
RUN_DATA_CHECK = CATINTEL_DATA_CHECK=1 npx vitest run --project data-check $(DATA_CHECK_FLAGS) && node dist/scripts/data-inputs.js record --from $(SHARED_DATA)
data-check: build
	$(RUN_DATA_CHECK)

# The cluster checks (test/cluster/): a throwaway PostgreSQL from initdb (Debian's postgresql package; as
# root it runs as the postgres user), then the cluster store's `serve` replicas and ingest leaders
# (docs/cluster-store.md) and `catintel worker` processes (docs/scale-out.md), killed mid-run. Not part of
# `make test`; CI runs both.
test-cluster: build
	CATINTEL_CLUSTER=1 npx vitest run --project cluster $(CLUSTER_FLAGS)

bench: build
	node dist/bench/run.js

# The generated docs: docs/cli.md from the command registry, the README's Performance rows from
# bench/results.jsonl (tests fail while either is stale; docs/performance.md says how to record a run).
docs: build
	node dist/scripts/cli-reference.js
	node dist/scripts/performance-table.js

# The API: GDAL's OAPIF driver reads the OGC API - Features collections, schemathesis checks
# openapi.yaml; then OED output against ods-tools; then losses against oasislmf's own kernel.
CONFORMANCE_SUITES = conformance-api conformance-oasis conformance-oasislmf conformance-arrow
conformance: $(CONFORMANCE_SUITES)

# The suites, one per line (.ci/run runs and counts each).
conformance-suites:
	@printf '%s\n' $(CONFORMANCE_SUITES)

conformance-api: build
	bash scripts/conformance-gdal.sh
	bash scripts/conformance.sh

conformance-oasis: build
	bash scripts/conformance-oasis.sh

# oasislmf's own kernel and `catintel oasis run` on PiWind, compared row by row (docs/loss-engine.md).
conformance-oasislmf: build
	bash scripts/conformance-oasislmf.sh

# The Arrow and (Geo)Parquet outputs read by pyarrow, polars and geopandas against the JSON (docs/arrow.md).
conformance-arrow: build
	bash scripts/conformance-arrow.sh

clean:
	rm -rf dist
