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
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

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

/** What the bundle's chunks start with: a `require` for bundled CommonJS code, without an import. */
const BANNER = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
/** An import of a module, as esbuild prints it: default, namespace and/or named bindings, or none. */
const IMPORT =
  /^import (?:(?<def>[\w$]+)(?:, | (?=from))|\* as (?<ns>[\w$]+) )?(?:\{(?<names>[^}]*)\} )?(?:from )?"(?<mod>[^"]+)";$/gm;

/**
 * Node built-ins are taken with `process.getBuiltinModule` instead of imported. An ES import of a
 * built-in goes through its ES module facade, which Node builds by reading every export once: for
 * node:fs that loads fs/promises, its streams, readline and the watchers, used or not (about 4 ms of
 * `axis --help`, more for commands that import more built-ins). The bindings become constants on the
 * banner's line (a built-in's exports never change), and each import is left as blank lines, so the
 * source maps still match. The build fails if any import of a built-in is left, or if the statements
 * rewritten in a chunk are not the ones esbuild's metafile lists for it (a line of a string that looked
 * like an import would be).
 */
function builtinsWithoutFacades(dir, metafile) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const path = join(dir, file);
    const listed = metafile.outputs[relative(ROOT, path)].imports.filter(
      (i) => i.kind === 'import-statement' && i.external && BUILTINS.has(i.path),
    ).length;
    const source = readFileSync(path, 'utf8');
    const bindings = [];
    let statements = 0;
    const rewritten = source.replace(IMPORT, (statement, ...rest) => {
      const { def, ns, names, mod } = rest.at(-1);
      if (!BUILTINS.has(mod)) return statement;
      statements++;
      const get = `process.getBuiltinModule(${JSON.stringify(mod)})`;
      if (def) bindings.push(`const ${def} = ${get};`);
      if (ns) bindings.push(`const ${ns} = ${get};`);
      const named = (names ?? '')
        .split(',')
        .map((n) => n.trim().replace(/^([\w$]+) as ([\w$]+)$/, '$1: $2'))
        .filter(Boolean);
      if (named.length > 0) bindings.push(`const { ${named.join(', ')} } = ${get};`);
      return '\n'.repeat(statement.split('\n').length - 1);
    });
    const left = [...rewritten.matchAll(/^import\b[^;]*?"(?<mod>[^"]+)";$/gm)].filter((m) =>
      BUILTINS.has(m.groups.mod),
    );
    if (left.length > 0) throw new Error(`${path}: an import of a built-in is left: ${left[0][0]}`);
    if (statements !== listed)
      throw new Error(`${path}: ${statements} imports of built-ins rewritten, esbuild lists ${listed}`);
    if (!rewritten.startsWith(`${BANNER}\n`)) throw new Error(`${path}: the banner is not its first line`);
    writeFileSync(path, rewritten.replace(BANNER, [BANNER, ...bindings].join(' ')));
  }
}

/**
 * The bundle's own chunks, loaded on demand (`import("./run-….js")`, a command's module), are taken with
 * require() where Node can require an ES module: the asynchronous loader resolved each module of the
 * chunk's graph through URLs and read its file between turns of the event loop, about 20 ms of a one-job
 * `axis run` and of an `axis validate` (docs/performance.md#start-up). The call still returns a promise,
 * rejected when the load throws, as import() does. A graph with top-level await, which require() refuses,
 * and a Node without require() of ES modules, import it. The build fails if the calls rewritten in a chunk
 * are not the dynamic imports esbuild's metafile lists for it.
 */
const LOAD = '__axisLoad';
const LOADER = `const ${LOAD} = (p) => { if (process.features.require_module) try { return Promise.resolve(require(p)); } catch (e) { if (e?.code !== 'ERR_REQUIRE_ASYNC_MODULE') return Promise.reject(e); } return import(p); };`;
const CHUNK_IMPORT = /\bimport\("(\.\/[\w.-]+\.js)"\)/g;

function chunksLoadedWithRequire(dir, metafile) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const path = join(dir, file);
    const listed = metafile.outputs[relative(ROOT, path)].imports.filter(
      (i) => i.kind === 'dynamic-import' && !i.external,
    ).length;
    const source = readFileSync(path, 'utf8');
    let calls = 0;
    const rewritten = source.replace(CHUNK_IMPORT, (_, chunk) => {
      calls++;
      return `${LOAD}(${JSON.stringify(chunk)})`;
    });
    if (calls !== listed)
      throw new Error(`${path}: ${calls} loads of chunks rewritten, esbuild lists ${listed} dynamic imports`);
    if (calls === 0) continue;
    if (!rewritten.startsWith(`${BANNER} `) && !rewritten.startsWith(`${BANNER}\n`))
      throw new Error(`${path}: the banner is not its first line`);
    writeFileSync(path, rewritten.replace(BANNER, `${BANNER} ${LOADER}`));
  }
}

rmSync(OUT, { recursive: true, force: true });
const { metafile } = await build({
  absWorkingDir: ROOT,
  metafile: true,
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
  banner: { js: BANNER },
  plugins: [fdirUsesBundledPicomatch, commanderLazyChildProcess],
  sourcemap: true,
  logLevel: 'warning',
});
builtinsWithoutFacades(OUT, metafile);
chunksLoadedWithRequire(OUT, metafile);
