/**
 * The page script: fflate's browser build followed by the client modules (compiled by the normal
 * build into dist/report/html/client/) joined into one function scope. The client modules only import
 * each other, so joining them is stripping their import/export syntax. When running from source (tests)
 * the .ts files are transpiled on the fly with the typescript dev dependency.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AxisError } from '../../util/errors.js';
import { distPath, FROM_SOURCE, PACKAGE_ROOT } from '../../util/package-root.js';

/** Dependency order: a module comes after the ones it imports; main runs last. */
export const CLIENT_MODULES = [
  'dom',
  'labels',
  'data',
  'allowlist',
  'notes',
  'transcript',
  'waterfall',
  'dimensions',
  'artifacts',
  'run',
  'pair',
  'link',
  'sort',
  'results',
  'trend',
  'overview',
  'main',
] as const;

const require = createRequire(import.meta.url);
let cached: string | null = null;

export function clientScript(): string {
  if (cached === null) cached = (FROM_SOURCE ? null : prebuiltScript()) ?? joinedClientScript();
  return cached;
}

/** The page script made from its parts: fflate, then the client modules joined. */
export function joinedClientScript(): string {
  return `${fflateSource()}\n${bundleClient(readClientModules())}`;
}

/**
 * Where the build leaves the page script already joined (scripts/page-script.mjs, run by `npm run
 * build`): a report then reads one file instead of eighteen and skips the joining, about 9 ms of every
 * `axis run` on the 2-core machines here (docs/performance.md).
 */
export const PAGE_SCRIPT = ['report', 'html', 'page-script.js'] as const;

/**
 * The build's page script, or null when there is none or a client module was compiled after it (a
 * `tsc` alone, without the rest of the build): then it is joined here. fflate is not checked: finding
 * its file costs a module resolution (~5 ms), and the copy in the script is the one the build shipped.
 */
export function prebuiltScript(
  file = distPath(...PAGE_SCRIPT),
  clientDir = distPath('report/html/client'),
): string | null {
  try {
    const made = statSync(file).mtimeMs;
    if (CLIENT_MODULES.some((m) => statSync(join(clientDir, `${m}.js`)).mtimeMs > made)) return null;
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function fflateSource(): string {
  const file = join(dirname(require.resolve('fflate/package.json')), 'umd', 'index.js');
  return readFileSync(file, 'utf8');
}

/**
 * Compiled JavaScript of each client module, in CLIENT_MODULES order: the build's `.js` files next to
 * this module (dist/), else the `.ts` sources transpiled (running from source).
 */
export function readClientModules(
  dir = FROM_SOURCE ? join(PACKAGE_ROOT, 'src/report/html/client') : distPath('report/html/client'),
): string[] {
  const compiled = CLIENT_MODULES.map((m) => join(dir, `${m}.js`));
  if (compiled.every((f) => existsSync(f))) return compiled.map((f) => readFileSync(f, 'utf8'));
  const sources = CLIENT_MODULES.map((m) => join(dir, `${m}.ts`));
  if (!sources.every((f) => existsSync(f)))
    throw new AxisError(
      `The HTML report's page script is missing from ${dir}. Run "npm run build" to compile it.`,
    );
  return sources.map((f) => transpile(readFileSync(f, 'utf8'), f));
}

function transpile(source: string, fileName: string): string {
  let ts: typeof import('typescript');
  try {
    ts = require('typescript') as typeof import('typescript');
  } catch {
    throw new AxisError(`The HTML report's page script is not compiled. Run "npm run build" first.`);
  }
  return ts.transpileModule(source, {
    fileName,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, sourceMap: false },
  }).outputText;
}

/** Join ES modules that only import each other into one strict-mode function body. */
export function bundleClient(modules: readonly string[]): string {
  const body = modules.map((code) =>
    code
      .replace(/^\s*import\s[^;]*?from\s*['"][^'"]+['"];?[ \t]*$/gm, '')
      .replace(/^\s*import\s*['"][^'"]+['"];?[ \t]*$/gm, '')
      .replace(/^export\s*\{[^}]*\};?[ \t]*$/gm, '')
      .replace(/^export\s+(?=(?:async\s+)?function\b|const\b|let\b|class\b)/gm, '')
      .replace(/^\/\/# sourceMappingURL=.*$/gm, '')
      .trim(),
  );
  return `(function () {\n'use strict';\n${body.join('\n')}\n})();\n`;
}
