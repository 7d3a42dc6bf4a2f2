/**
 * Where AXIS's own files are, found from this module's location. The module sits two levels below the
 * package root in every layout AXIS runs from: `src/util/` (tests, from source), `dist/util/` (the
 * library build) and `dist/bundle/` (the CLI's bundle, scripts/bundle.mjs, which inlines this module
 * into its chunks there). Every file AXIS reads or runs of its own is named from here, so no module
 * depends on where its code ended up.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** The package's root: where package.json, dist/ and skills/ are. */
export const PACKAGE_ROOT = join(dirname(here), '..', '..');

/** Running from the TypeScript sources (vitest), not from a build. */
export const FROM_SOURCE = here.endsWith('.ts');

/** Running from the CLI's bundle (dist/bundle/), not from dist/'s one-file-per-module build. */
export const FROM_BUNDLE = basename(dirname(here)) === 'bundle';

/** A file of the build: `dist/<parts>`. */
export function distPath(...parts: string[]): string {
  return join(PACKAGE_ROOT, 'dist', ...parts);
}

/**
 * What `import … from 'axis-eval'` inside a config, tape or adapter module loads: this running copy of
 * AXIS, so the module shares its code and state (one spawner, one simulator gateway) instead of
 * loading a second copy. The bundle has the library entry as one of its own entry points.
 */
export function selfEntry(): string {
  if (FROM_SOURCE) return join(PACKAGE_ROOT, 'src', 'index.ts');
  return FROM_BUNDLE ? distPath('bundle', 'index.js') : distPath('index.js');
}

let version: string | undefined;

/** This copy of AXIS's version (package.json), read once when first asked for. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  return version;
}
