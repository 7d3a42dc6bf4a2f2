#!/usr/bin/env node
// `npm run build` runs this after tsc: bundles the CLI (dist/cli/main.js) and the library entry
// (dist/index.js) with their dependencies into dist/bundle/, which bin/axis.js runs. Loading the ~330
// files of dist/ and node_modules one by one was about half of a one-job `axis run` (resolution, one
// compile per module, and zod's 60 locale modules, which the bundle leaves out: `import * as z` lets
// esbuild keep only what is used). Code split: what a command imports lazily stays a chunk of its own,
// loaded only when used. The library entry is an entry point of the same build, so a config that
// imports 'axis-eval' shares the running CLI's modules (src/util/package-root.ts, selfEntry). The
// chunks sit two levels below the package root, as every module of dist/ does, so package-root.ts
// finds the package's files from there. Figures: docs/performance.md#start-up.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist/bundle');

rmSync(OUT, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: { main: 'dist/cli/main.js', index: 'dist/index.js' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // jiti loads its own transpiler on demand and is imported only for TS/JS configs and modules.
  external: ['jiti'],
  // Bundled CommonJS dependencies (picomatch) call require() for node built-ins.
  banner: {
    js: "import { createRequire as __axisCreateRequire } from 'node:module';\nconst require = __axisCreateRequire(import.meta.url);",
  },
  sourcemap: true,
  logLevel: 'warning',
});
