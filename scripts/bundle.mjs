#!/usr/bin/env node
// `npm run build` runs this after tsc: bundles the CLI (dist/cli/main.js) and the library entry
// (dist/index.js) with their dependencies into dist/bundle/, which bin/axis.js runs. Loading the ~330
// files of dist/ and node_modules one by one was about half of a one-job `axis run` (resolution, one
// compile per module, and zod's 60 locale modules, which the bundle leaves out: `import * as z` lets
// esbuild keep only what is used). Code split: what a command imports lazily stays a chunk of its own,
// loaded only when used. The library entry is an entry point of the same build, so a config that
// imports 'axis-eval' shares the running CLI's modules (src/util/package-root.ts, selfEntry). The
// chunks sit two levels below the package root, as every module of dist/ does, so package-root.ts
// finds the package's files from there. esbuild splits into ES modules; a second pass makes each chunk
// CommonJS (toCommonJs), for the code cache bin/axis.js loads them with. Figures:
// docs/performance.md#start-up.
import { build } from 'esbuild';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist/bundle');

/**
 * fdir (tinyglobby's directory walker) loads picomatch at start-up through a require() of its own, which
 * esbuild cannot follow: every command that globbed loaded picomatch a second time, from node_modules
 * (five CommonJS files resolved and compiled, about 8 ms), beside the bundled copy. Its optional
 * picomatch becomes an import of the bundled one; the build fails if fdir's code no longer has the
 * lines this replaces, so an upgrade cannot silently bring the second load back.
 */
const FDIR_PICOMATCH =
  /let pm = null;\n(?:\/\*[^*]*\*\/\n)?try \{\n\t__require\.resolve\("picomatch"\);\n\tpm = __require\("picomatch"\);\n\} catch \{\}/;
const fdirUsesBundledPicomatch = {
  name: 'fdir-bundled-picomatch',
  setup(b) {
    b.onLoad({ filter: /[\\/]fdir[\\/]dist[\\/]index\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!FDIR_PICOMATCH.test(source))
        return {
          errors: [
            { text: `${args.path}: fdir's optional picomatch require changed; update scripts/bundle.mjs` },
          ],
        };
      const contents = `import __axisPicomatch from "picomatch";\n${source.replace(FDIR_PICOMATCH, 'let pm = __axisPicomatch;')}`;
      return { contents, loader: 'js' };
    });
  },
};

/**
 * commander requires child_process at its module's start, for executable subcommands, which AXIS has
 * none of: loading it (with net, dgram and the stream wrappers under it) cost every command, `--help`
 * included, about 3 ms. Its one use, `childProcess.spawn`, now requires it when called; the build fails
 * if commander's lines change, so an upgrade cannot silently bring the load back.
 */
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const uses = source.match(/childProcess\.\w+/g) ?? [];
      if (!source.includes(COMMANDER_CHILD_PROCESS) || uses.some((u) => u !== 'childProcess.spawn'))
        return {
          errors: [
            { text: `${args.path}: commander's child_process use changed; update scripts/bundle.mjs` },
          ],
        };
      const lazy =
        "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(COMMANDER_CHILD_PROCESS, lazy), loader: 'js' };
    });
  },
};

/**
 * The chunks become CommonJS modules, one file each, in place: esbuild splits code only into ES modules,
 * and Node 20 keeps a V8 code cache only for scripts it compiles from source it is handed, which a
 * CommonJS module can be and an ES module cannot (`module.enableCompileCache` came in Node 22). bin/axis.js
 * loads them through src/cli/code-cache.ts, which keeps each chunk's compiled code from one command to the
 * next (docs/performance.md#start-up). A second esbuild pass, file by file without bundling: a static
 * import of a chunk becomes a `require()` at the top, a dynamic one a `require()` when called (still a
 * promise), a built-in a `require()` (no ES facade: node:fs no longer loads fs/promises), and the
 * earlier pass's source maps are carried through. `import.meta.url`, the one `import.meta` AXIS uses
 * (package-root.ts, binary.ts), becomes the chunk's own file URL; any other `import.meta` fails the build.
 */
async function toCommonJs(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  for (const f of files) {
    const meta = [...readFileSync(join(dir, f), 'utf8').matchAll(/\bimport\.meta\b(?:\.(\w+))?/g)];
    const other = meta.find((m) => m[1] !== 'url');
    if (other) throw new Error(`${join(dir, f)}: \`${other[0]}\` has no CommonJS equivalent here`);
  }
  const cjs = `${dir}.cjs`;
  rmSync(cjs, { recursive: true, force: true });
  // Read by esbuild too: an import() in a "type": "module" package would take a chunk's module.exports
  // as its default export (Node's rule for CommonJS), not the chunk's own default export.
  writeFileSync(join(dir, 'package.json'), COMMONJS);
  await build({
    absWorkingDir: ROOT,
    entryPoints: files.map((f) => join(dir, f)),
    outdir: cjs,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    define: { 'import.meta.url': '__axisMetaUrl' },
    // import() becomes a require() inside a promise: a chunk is taken by the CommonJS loader (and its
    // cache), not the asynchronous ES loader, which read and resolved each file between turns of the loop.
    supported: { 'dynamic-import': false },
    banner: { js: META_URL },
    sourcemap: true,
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'error' },
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(cjs, dir);
  // The package is "type": "module"; these files are CommonJS.
  writeFileSync(join(dir, 'package.json'), COMMONJS);
}

const COMMONJS = '{\n  "type": "commonjs"\n}\n';

/**
 * The first line of every chunk: strict mode (the ES modules were; esbuild's own "use strict" comes after
 * the banner, where it is no directive) and `import.meta.url` as the chunk's own file URL.
 */
const META_URL = '"use strict"; var __axisMetaUrl = require("node:url").pathToFileURL(__filename).href;';

rmSync(OUT, { recursive: true, force: true });
const { metafile } = await build({
  absWorkingDir: ROOT,
  metafile: true,
  entryPoints: { main: 'dist/cli/main.js', index: 'dist/index.js', 'code-cache': 'dist/cli/code-cache.js' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // jiti loads its own transpiler on demand and is imported only for TS/JS configs and modules.
  external: ['jiti'],
  plugins: [fdirUsesBundledPicomatch, commanderLazyChildProcess],
  sourcemap: true,
  logLevel: 'warning',
});
await toCommonJs(OUT);
writeFileSync(join(ROOT, 'dist/bundle-meta.json'), `${JSON.stringify(chunkGraph(metafile), null, 1)}\n`);

/**
 * Which modules each chunk holds and which chunks it loads, at once or on demand: the second pass drops
 * the first's `// dist/…` comments, so test/e2e/cli/bundle.test.ts reads the graph from here.
 */
function chunkGraph(meta) {
  const graph = {};
  for (const [out, o] of Object.entries(meta.outputs)) {
    if (!out.endsWith('.js')) continue;
    const chunk = (p) => p.replace(/^dist\/bundle\//, '');
    const local = o.imports.filter((i) => !i.external);
    graph[chunk(out)] = {
      modules: Object.keys(o.inputs),
      static: local.filter((i) => i.kind === 'import-statement').map((i) => chunk(i.path)),
      dynamic: local.filter((i) => i.kind === 'dynamic-import').map((i) => chunk(i.path)),
    };
  }
  return graph;
}
