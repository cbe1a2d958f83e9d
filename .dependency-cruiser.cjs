/**
 * The import rules (docs/architecture.md#imports-run-one-way), checked by `npm run check:imports` and
 * `make test`. From the bottom up:
 *
 *   base          lib/, errors.ts, caller.ts, context.ts, config/   importable from anywhere
 *   domain        domain/ and every capability's own domain/        pure: no store, filesystem, process, h3
 *   feeds, store  sources/ (feed parsers), store/ (DuckDB),          import only base and domain
 *                 reference-data/ (readers of the committed data), csv/ (the CSV reader)
 *   capabilities  ingest/, databuild/, intelligence/, triggers/, loss/, models/, ... (one folder each)
 *   handlers      handlers/                                         the use cases and their registry
 *   adapters      cli/, http/, channel/                             turn argv, requests or channel messages into handler calls
 *
 * A module imports only from its own layer or the ones below it, and no module imports one that imports
 * it back, type-only imports included (a type loop is still two modules that cannot be read apart).
 */

/** Modules every layer may import. */
const BASE = '^src/(lib/|errors[.]ts$|caller[.]ts$|context[.]ts$|config/)';
/** Any domain folder: the shared src/domain/ and each capability's own domain/. */
const DOMAIN = '/domain/';
const ADAPTERS = '^src/(cli|http|channel)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment:
        'No module imports one that imports it back, type-only imports included: move what both sides need to a module both can import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'base-imports-base',
      comment:
        'lib/, errors.ts, caller.ts and config/ are importable from anywhere, so they import only each other (context.ts names the store and event-reader types it carries).',
      severity: 'error',
      from: { path: '^src/(lib/|errors[.]ts$|caller[.]ts$|config/)' },
      to: { path: '^src/', pathNot: BASE },
    },
    {
      name: 'context-imports-types',
      comment:
        'context.ts is importable from anywhere: it names what it carries by type only (the store, the config, the event reader), never a concrete class.',
      severity: 'error',
      from: { path: '^src/context[.]ts$' },
      to: { path: '^src/', pathNot: `${BASE}|^src/store/db[.]ts$|^src/domain/event-reader[.]ts$` },
    },
    {
      name: 'domain-is-pure',
      comment:
        'A domain folder holds pure functions over typed data: it never imports the store, the context, ingest, handlers or an adapter.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^src/(store/|context[.]ts$|ingest/|sources/|live-index/|handlers/|cli/|http/)' },
    },
    {
      name: 'domain-does-no-io',
      comment:
        'A domain folder never touches the filesystem, the process, the network, DuckDB, h3, ink or pdfkit (directly or through a module it imports).',
      severity: 'error',
      from: { path: DOMAIN },
      to: {
        reachable: true,
        path: [
          '^(node:)?(fs|fs/promises|process|child_process|worker_threads|net|http|https|http2|os|readline|cluster|dgram|dns|tls)$',
          'node_modules/(h3|srvx|@duckdb|pdfkit|ink|react)/',
        ],
      },
    },
    {
      name: 'loss-domain-names-wasm-by-type',
      comment:
        "loss/domain/ drives the kernel's WebAssembly module through the host in loss/wasm/ (instantiation, memory, imports), which it is handed: it names the host's types and never imports its code.",
      severity: 'error',
      from: { path: '^src/loss/domain/' },
      to: { path: '^src/loss/wasm/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'feeds-and-store-import-down',
      comment:
        'sources/ (feed parsers), store/ (DuckDB), reference-data/ (the committed data and its readers) and csv/ (the CSV reader) import only base modules, domain and their own folder: ingest, capabilities and handlers import them, not the other way round.',
      severity: 'error',
      from: { path: '^src/(sources|store|reference-data|csv)/' },
      to: { path: '^src/', pathNot: `${BASE}|${DOMAIN}|^src/$1/` },
    },
    {
      name: 'runtime-never-imports-databuild',
      comment:
        'databuild/ is the build-time pipeline of the committed baseline (catintel data build): code that runs reads the committed data through reference-data/, and only the data-build handler starts the pipeline.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/databuild/|^src/handlers/data-build[.]ts$' },
      to: { path: '^src/databuild/' },
    },
    {
      name: 'capabilities-below-handlers',
      comment:
        'Capability folders (ingest, databuild, intelligence, triggers, loss, ...) are called by handlers and never import a handler or an adapter.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(handlers|cli|http|channel)/' },
      to: { path: '^src/(handlers|cli|http|channel)/' },
    },
    {
      name: 'handlers-read-events-through-the-reader',
      comment:
        "A handler reads events through the event reader (domain/event-reader.ts: the store and the live index implement it), never through the live index's snapshots, selections or renderers.",
      severity: 'error',
      from: { path: '^src/handlers/' },
      to: { path: '^src/live-index/' },
    },
    {
      name: 'handlers-below-adapters',
      comment: 'A handler never prints and never touches a response: it imports no adapter (cli/, http/, channel/).',
      severity: 'error',
      from: { path: '^src/handlers/' },
      to: { path: ADAPTERS },
    },
    {
      name: 'http-and-cli-apart',
      comment: 'The HTTP app is assembled without the CLI (the CLI starts it): http/ never imports cli/.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'channel-apart',
      comment:
        'The CLI-to-server channel (channel/) carries handler calls between two processes: the CLI uses it, the HTTP app does not, and it imports neither.',
      severity: 'error',
      from: { path: '^src/channel/' },
      to: { path: '^src/(cli|http)/' },
    },
    {
      name: 'http-apart-from-channel',
      comment: 'The HTTP app does not know the channel: cli/ (serve) opens both.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/channel/' },
    },
    {
      name: 'src-never-imports-tools',
      comment: 'scripts/ and bench/ use the library; the library never imports them.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Unit tests sit beside their module; src/loss/assembly is AssemblyScript compiled to WebAssembly on its own.
    exclude: { path: '[.]test[.]tsx?$|^src/loss/assembly/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts'],
    },
  },
};
