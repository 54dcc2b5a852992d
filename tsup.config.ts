import { defineConfig, type Options } from 'tsup';

// No source maps: they would ship absolute paths. `platform: neutral` keeps node: imports out of the
// portable entries unless a file asks for them (the CLI and the simulator are Node-only).
// The declarations are not tsup's: scripts/build-types.mjs writes them after it (`npm run build`), with TypeScript 7's
// native compiler (tsconfig.types.json, `stripInternal`: `@internal` members stay out of what users see).
const common: Options = {
  dts: false,
  sourcemap: false,
  // esbuild's own tree shaking only (it bundles, and honours `sideEffects: false`). tsup's `treeshake` adds a rollup
  // pass over every output: it took a build 9.8 → 1.6 CPU-s without it, and what it saved was 0.25 % of the ESM
  // files' gzip size (0.8 % of the CJS ones'); the minified lazy bundles (proxy client, MCP) came out larger with it.
  treeshake: false,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  // zod is bundled (tree-shaken to the parts the generated schemas use): loading it from node_modules
  // walks ~100 files (its locale re-exports) and costs ~35 ms of cold import; bundled, it costs ~2 ms.
  noExternal: ['zod'],
  // `redis` is an optional peer of the ./redis entry, loaded only when a store is built from a URL.
  external: ['redis'],
};
const library = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  testing: 'src/testing/index.ts',
  redis: 'src/redis/index.ts',
  redact: 'src/redact/index.ts',
  vocabulary: 'src/vocabulary/index.ts',
};

// The redact and vocabulary entries are built on their own: the CLI imports them too, and an entry that another entry of the same split
// build imports leaves an empty chunk behind (esbuild moves the entry's own module, here only re-exports, to a
// shared chunk: a 1-byte file every importer loads). Their few pure functions and constants are copied into them instead.
const { redact, vocabulary, ...splitLibrary } = library;

export default defineConfig([
  // ESM: the library entries and the CLI share chunks. (Declarations, by scripts/build-types.mjs, for the library
  // entries only: the CLI is a bin, and a dist/cli.d.ts would ship a type file nothing imports.)
  {
    ...common,
    entry: { ...splitLibrary, cli: 'src/cli/main.ts' },
    format: ['esm'],
    splitting: true,
    clean: true,
  },
  // CJS for require() users of the library entries. Their declarations are the ESM ones with `.cjs` imports:
  // scripts/cjs-types.mjs writes them after scripts/build-types.mjs (`npm run build`).
  { ...common, entry: library, format: ['cjs'], splitting: false },
  { ...common, entry: { redact, vocabulary }, format: ['esm'], splitting: false },
  // The CLI's proxy client: undici bundled into one CommonJS file of its own, required by the CLI only when a
  // proxy is set, so neither the library entries nor a CLI run without a proxy load it (see src/cli/io/proxy.ts).
  {
    ...common,
    entry: { 'cli-undici': 'src/cli/io/undici-entry.ts' },
    format: ['cjs'],
    platform: 'node',
    noExternal: ['undici'],
    splitting: false,
    minify: true,
  },
  // `svc-a11y mcp`'s library: the MCP SDK (with its zod and ajv) bundled into one minified ESM file of its own,
  // imported by the CLI only when that command runs (src/cli/mcp/load.ts), so the library entries, every other
  // command and the GitHub Action's bundle carry none of it, and SDK users install nothing.
  {
    ...common,
    entry: { 'cli-mcp': 'src/cli/mcp/library.ts' },
    format: ['esm'],
    platform: 'node',
    noExternal: ['@modelcontextprotocol/sdk', 'zod', 'ajv', 'ajv-formats'],
    splitting: false,
    minify: true,
  },
]);
