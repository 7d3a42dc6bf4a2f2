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
import { readFileSync, rmSync } from 'node:fs';
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
  plugins: [fdirUsesBundledPicomatch],
  sourcemap: true,
  logLevel: 'warning',
});
