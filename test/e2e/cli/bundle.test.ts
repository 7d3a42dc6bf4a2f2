// The CLI runs from its bundle (dist/bundle/, scripts/bundle.mjs): every chunk loads, its files are
// found from there, and a module adapter importing runtime helpers from 'axis-eval' gets the running
// copy of AXIS (the bundle's library entry), also where no node_modules/axis-eval exists.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const BUNDLE = join(ROOT, 'dist/bundle');

/** The modules esbuild put in the chunks these chunks import statically, themselves included. */
function staticModules(chunks: string[]): Set<string> {
  const modules = new Set<string>();
  const seen = new Set<string>();
  const stack = [...chunks];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const src = readFileSync(join(BUNDLE, f), 'utf8');
    for (const m of src.matchAll(/^import\s[^;]*?from\s*"\.\/([^"]+)"|^import\s*"\.\/([^"]+)"/gm))
      stack.push((m[1] ?? m[2])!);
    for (const m of src.matchAll(/^\/\/ (\S+\.m?js)$/gm)) modules.add(m[1]!);
  }
  return modules;
}
const tmp = () => tempDir('axis-bundle-');

/** A simulated project whose one scenario has no tape: `axis validate` says so (exit 2) once it has globbed. */
function tapelessProject(): string {
  const dir = tmp();
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents: ['claude-code'], settings: { simulate: true } }),
  );
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(
    join(dir, 'scenarios/a.json'),
    JSON.stringify({ name: 'a', prompt: 'Say hi.', judge: [{ check: 'It said hi' }] }),
  );
  return dir;
}
beforeAll(buildDist);
afterAll(removeTempDirs);

describe('the CLI bundle', () => {
  it('bin/axis.js runs the bundle, and every chunk of it loads', async () => {
    expect(readFileSync(join(ROOT, 'bin/axis.js'), 'utf8')).toContain("'../dist/bundle/main.js'");
    const chunks = readdirSync(BUNDLE).filter((f) => f.endsWith('.js') && f !== 'main.js');
    expect(chunks.length).toBeGreaterThan(10);
    // main.js would run the CLI; the chunks only define (a duplicate `require` would be a SyntaxError).
    for (const f of chunks) await import(pathToFileURL(join(BUNDLE, f)).href);
    const lib = (await import(pathToFileURL(join(BUNDLE, 'index.js')).href)) as Record<string, unknown>;
    expect(typeof lib.defineConfig).toBe('function');
    expect(typeof lib.prepareAndRun).toBe('function');
  });

  it("`axis run`'s static imports leave out what a run loads only on demand, or never", () => {
    const run = readdirSync(BUNDLE).find((f) => /^run-\w+\.js$/.test(f))!;
    const modules = staticModules(['main.js', run]);
    expect(modules).toContain('dist/runner/run.js');
    expect(modules).toContain('dist/sim/server.js');
    const onDemand = [...modules].filter((m) =>
      /dist\/sim\/(record|replay)|dist\/report\/html\/(write|render|map|events)|dist\/report\/schema|node_modules\/(jiti|jstat|fflate)\//.test(
        m,
      ),
    );
    expect(onDemand).toEqual([]);
  });

  it('the store readers (reports, history, badge, compare) load no zod: it is the config’s', () => {
    for (const command of ['reports', 'history', 'badge', 'compare']) {
      const chunk = readdirSync(BUNDLE).find((f) => new RegExp(`^${command}-\\w+\\.js$`).test(f))!;
      const modules = staticModules(['main.js', chunk]);
      expect(modules, command).toContain('dist/report/manifest-shape.js');
      expect(modules, command).toContain('dist/util/describe-value.js');
      expect(
        [...modules].filter((m) => /node_modules\/zod\/|dist\/config\/schema/.test(m)),
        command,
      ).toEqual([]);
    }
  });

  it("report.html's writer loads marked only for a report with notes", () => {
    const writer = readdirSync(BUNDLE).find((f) =>
      readFileSync(join(BUNDLE, f), 'utf8').includes('\n// dist/report/html/write.js\n'),
    )!;
    const modules = staticModules([writer]);
    expect(modules).toContain('dist/report/html/map.js');
    expect([...modules].filter((m) => /node_modules\/marked\/|html\/markdown\.js/.test(m))).toEqual([]);
  });

  it('loads no dependency from node_modules that the bundle holds (fdir once loaded picomatch again)', () => {
    const dir = tapelessProject();
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/axis.js'), 'validate'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NODE_DEBUG: 'module' },
    });
    // The scenario has no tape: validate says so (exit 2), after globbing the scenarios directory.
    expect(r.stderr).toContain('there is no tape for "a"');
    expect(r.stderr).toContain('Module._load REQUEST');
    expect(r.stderr).not.toMatch(/node_modules[\\/]picomatch/);
  });

  it('no chunk imports a Node built-in: each takes it with process.getBuiltinModule', () => {
    // An ES import of a built-in makes Node build its facade, reading every export (node:fs loads
    // fs/promises, its streams and readline that way), used or not.
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    for (const f of readdirSync(BUNDLE).filter((f) => f.endsWith('.js'))) {
      const src = readFileSync(join(BUNDLE, f), 'utf8');
      const imported = [...src.matchAll(/^import\b[^;]*?"([^"]+)";$/gm)].map((m) => m[1]!);
      expect(
        imported.filter((m) => builtins.has(m)),
        f,
      ).toEqual([]);
      expect(src.startsWith("const require = process.getBuiltinModule('node:module')"), f).toBe(true);
    }
    expect(readFileSync(join(BUNDLE, 'main.js'), 'utf8')).toContain(
      'const { resolve } = process.getBuiltinModule("node:path");',
    );
  });

  it("a command's chunks load with require(), and with import() where Node cannot require them", () => {
    // Every load of one of the bundle's own chunks goes through the loader on the chunk's first line.
    for (const f of readdirSync(BUNDLE).filter((f) => f.endsWith('.js'))) {
      const src = readFileSync(join(BUNDLE, f), 'utf8');
      expect(src, f).not.toMatch(/\bimport\("\.\//);
      if (src.includes('__axisLoad("./'))
        expect(src.split('\n', 1)[0], f).toContain('const __axisLoad = (p) =>');
    }
    const dir = tapelessProject();
    const validate = (nodeArgs: string[]) =>
      spawnSync(process.execPath, [...nodeArgs, join(ROOT, 'bin/axis.js'), 'validate'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NODE_DEBUG: 'module' },
      });
    // Through require(): Node's CommonJS loader logs the request for the command's chunk.
    const required = validate([]);
    expect(required.stderr).toContain('there is no tape for "a"');
    expect(required.stderr).toMatch(/Module\._load REQUEST \.\/validate-\w+\.js/);
    // Without require() of ES modules: imported, with the same outcome.
    const imported = validate(['--no-experimental-require-module']);
    expect(imported.status).toBe(2);
    expect(imported.stderr).toContain('there is no tape for "a"');
    expect(imported.stderr).not.toMatch(/Module\._load REQUEST \.\/validate-/);
  });

  it('`axis --help` loads the bundle with require(): no async module loader, no child_process', () => {
    // The Node modules a process loaded, written when it exits.
    const dir = tmp();
    const preload = join(dir, 'loaded.cjs');
    const out = join(dir, 'loaded.json');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));`,
    );
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, ['-r', preload, ...args], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return { stdout: r.stdout, loaded: JSON.parse(readFileSync(out, 'utf8')) as string[] };
    };
    const help = run([join(ROOT, 'bin/axis.js'), '--help']);
    expect(help.stdout).toContain('Usage: axis [options] [command]');
    expect(help.loaded).toContain('NativeModule internal/modules/esm/translators');
    for (const m of ['child_process', 'internal/fs/promises', 'internal/readline/interface'])
      expect(help.loaded).not.toContain(`NativeModule ${m}`);
    // Where require() cannot take an ES module, bin/axis.js imports it.
    const imported = run(['--no-experimental-require-module', join(ROOT, 'bin/axis.js'), '--version']);
    expect(imported.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(imported.loaded).toContain('NativeModule internal/fs/promises');
  });

  it('finds its own files from the bundle: the version, the skills', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const v = await axis(['--version'], ROOT);
    expect(v.stdout.trim()).toBe(pkg.version);
    const dir = tmp();
    const init = await axis(['init'], dir);
    expect(init.code, init.stderr).toBe(0);
    expect(readdirSync(join(dir, '.claude/skills'))).toEqual(
      expect.arrayContaining(['using-axis', 'configure-axis']),
    );
  });

  it('a checkout that was never built says so, without a stack trace', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'bin'));
    for (const f of ['axis.js', 'package.json']) copyFileSync(join(ROOT, 'bin', f), join(dir, 'bin', f));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const r = spawnSync(process.execPath, [join(dir, 'bin/axis.js'), '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `AXIS is not built: ${join(dir, 'dist/bundle/main.js')} is missing. Run \`npm run build\` first.\n`,
    );
  });

  it("a module adapter importing AXIS's helpers from 'axis-eval' runs end to end", async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'adapter.ts'),
      [
        "import { parserFor, prepareAndRun, type AgentAdapter } from 'axis-eval';",
        'const adapter: AgentAdapter = {',
        "  name: 'toy', acceptsModel: false, acceptsFlags: false, providerEnv: [],",
        "  run: (ctx) => prepareAndRun(ctx, 'toy', async () => ({",
        `    adapter: 'toy', bin: ${JSON.stringify(join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh'))},`,
        "    args: [], env: ctx.env, stdin: ctx.prompt, parser: parserFor('ndjson'),",
        '  })),',
        '};',
        'export default adapter;',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'hello.json'),
      JSON.stringify({ name: 'Hello', prompt: 'Say hi', checks: [{ file: 'out.txt', contains: 'hi' }] }),
    );
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: ['./hello.json'], agents: ['toy'], adapters: { toy: './adapter.ts' } }),
    );
    const r = await axis(['run', '--no-score', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { reportId: string; results: { status: string }[] };
    expect(doc.results.map((x) => x.status)).toEqual(['completed']);
    const detail = JSON.parse(
      readFileSync(join(dir, '.axis/reports', doc.reportId, 'scenarios/hello/toy.json'), 'utf8'),
    ) as { transcript: { events: { kind: string; name?: string }[] } };
    expect(detail.transcript.events.filter((e) => e.kind === 'tool_call').map((e) => e.name)).toEqual([
      'shell',
    ]);
    // The report page's script comes from dist/report/html/client, found from the bundle.
    const html = readFileSync(join(dir, '.axis/reports', doc.reportId, 'report.html'), 'utf8');
    expect(html).toContain('renderTranscript');
  });
});
