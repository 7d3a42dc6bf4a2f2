import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  bundleClient,
  clientScript,
  CLIENT_MODULES,
  prebuiltScript,
  readClientModules,
} from '../../../src/report/html/client-bundle.js';

describe('the page script', () => {
  it('lists every client module', () => {
    const files = readdirSync(join(process.cwd(), 'src/report/html/client'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3));
    expect([...CLIENT_MODULES].sort()).toEqual(files.sort());
  });

  it('joins the modules into one script without import/export and with unique top-level names', () => {
    const modules = readClientModules();
    const bundle = bundleClient(modules);
    expect(bundle).not.toMatch(/^\s*(?:import|export)\b/m);
    expect(() => new Script(bundle)).not.toThrow();
    const names = modules.flatMap((code) =>
      [
        ...code.matchAll(
          /^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm,
        ),
      ].map((m) => m[1]),
    );
    const dupes = names.filter((n, i) => names.indexOf(n) !== i);
    expect(dupes).toEqual([]);
    expect(names).toContain('renderPair');
  });

  it('puts fflate first and runs the entry point last', () => {
    const script = clientScript();
    expect(script.startsWith('!function(f)')).toBe(true);
    expect(script.trimEnd().endsWith('boot();\n})();'.trimEnd())).toBe(true);
    expect(() => new Script(script)).not.toThrow();
  });

  it('strips multi-line imports and export keywords', () => {
    const out = bundleClient([
      "import {\n  a,\n  b,\n} from './a.js';\nexport function f() { return a + b; }\nexport const x = 1;\nexport {};\n//# sourceMappingURL=x.js.map",
    ]);
    expect(out).toBe("(function () {\n'use strict';\nfunction f() { return a + b; }\nconst x = 1;\n})();\n");
  });

  it('uses the compiled modules when the build put them there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'axis-client-'));
    try {
      for (const m of CLIENT_MODULES) writeFileSync(join(dir, `${m}.js`), `export const built_${m} = 1;\n`);
      expect(readClientModules(dir)).toEqual(CLIENT_MODULES.map((m) => `export const built_${m} = 1;\n`));
      rmSync(join(dir, 'main.js'));
      expect(() => readClientModules(dir)).toThrow(/Run "npm run build"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the page script the build joined (scripts/page-script.mjs)', () => {
  /** A dist-like folder: the client modules and a page script, each with a modification time. */
  function layout(times: { script: number; module?: number }) {
    const dir = mkdtempSync(join(tmpdir(), 'axis-page-script-'));
    const client = join(dir, 'client');
    mkdirSync(client);
    for (const m of CLIENT_MODULES) {
      writeFileSync(join(client, `${m}.js`), `// ${m}`);
      utimesSync(join(client, `${m}.js`), 1000, 1000);
    }
    if (times.module !== undefined) utimesSync(join(client, 'main.js'), times.module, times.module);
    const script = join(dir, 'page-script.js');
    writeFileSync(script, 'JOINED');
    utimesSync(script, times.script, times.script);
    return { dir, client, script };
  }

  it('is read as it is when it is newer than every part', () => {
    const l = layout({ script: 2000 });
    try {
      expect(prebuiltScript(l.script, l.client)).toBe('JOINED');
    } finally {
      rmSync(l.dir, { recursive: true, force: true });
    }
  });

  it('is not used when older than a client module, or missing: the parts are joined instead', () => {
    const l = layout({ script: 2000, module: 3000 });
    try {
      expect(prebuiltScript(l.script, l.client)).toBeNull();
      rmSync(l.script);
      expect(prebuiltScript(l.script, l.client)).toBeNull();
    } finally {
      rmSync(l.dir, { recursive: true, force: true });
    }
  });

  it("the build's file is the joined script of this build", async () => {
    const dist = join(process.cwd(), 'dist/report/html');
    const built = readFileSync(join(dist, 'page-script.js'), 'utf8');
    const fromDist = (await import(
      pathToFileURL(join(dist, 'client-bundle.js')).href
    )) as typeof import('../../../src/report/html/client-bundle.js');
    expect(built).toBe(fromDist.joinedClientScript());
    expect(built).toBe(clientScript());
  });
});
