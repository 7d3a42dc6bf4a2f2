// The CLI runs from its bundle (dist/bundle/, scripts/bundle.mjs): every chunk loads, its files are
// found from there, and a module adapter importing runtime helpers from 'axis-eval' gets the running
// copy of AXIS (the bundle's library entry), also where no node_modules/axis-eval exists.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const BUNDLE = join(ROOT, 'dist/bundle');

type ChunkGraph = Record<string, { modules: string[]; static: string[]; dynamic: string[] }>;
/** The first esbuild pass's chunks: their modules and the chunks they load (scripts/bundle.mjs). */
const graph = (): ChunkGraph =>
  JSON.parse(readFileSync(join(ROOT, 'dist/bundle-meta.json'), 'utf8')) as ChunkGraph;

/** The modules esbuild put in the chunks these chunks load at once, themselves included. */
function staticModules(chunks: string[]): Set<string> {
  const g = graph();
  const modules = new Set<string>();
  const seen = new Set<string>();
  const stack = [...chunks];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    expect(g[f], f).toBeDefined();
    // What the chunk requires at its top is what the graph says it imports statically.
    const src = readFileSync(join(BUNDLE, f), 'utf8');
    const required = [...src.matchAll(/^var \w+ = require\("\.\/([^"]+)"\);$/gm)].map((m) => m[1]!);
    expect(required.sort(), f).toEqual([...new Set(g[f]!.static)].sort());
    stack.push(...g[f]!.static);
    for (const m of g[f]!.modules) modules.add(m);
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
  it('bin/axis.js runs the bundle, and every chunk of it loads', () => {
    expect(readFileSync(join(ROOT, 'bin/axis.js'), 'utf8')).toContain("join(bundle, 'main.js')");
    const chunks = readdirSync(BUNDLE).filter((f) => f.endsWith('.js') && f !== 'main.js');
    expect(chunks.length).toBeGreaterThan(10);
    expect(Object.keys(graph()).sort()).toEqual([...chunks, 'main.js'].sort());
    // CommonJS modules (the package is "type": "module"), in strict mode as the ES modules were.
    expect(JSON.parse(readFileSync(join(BUNDLE, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    const require = createRequire(join(BUNDLE, 'index.js'));
    for (const f of chunks) {
      expect(readFileSync(join(BUNDLE, f), 'utf8').startsWith('"use strict"; '), f).toBe(true);
      // main.js would run the CLI; the chunks only define.
      require(join(BUNDLE, f));
    }
    const lib = require(join(BUNDLE, 'index.js')) as Record<string, unknown>;
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
    const g = graph();
    const writer = Object.keys(g).find((f) => g[f]!.modules.includes('dist/report/html/write.js'))!;
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

  it('no chunk is left an ES module: built-ins and chunks are required, import() too', () => {
    // An ES import of a built-in makes Node build its facade, reading every export (node:fs loads
    // fs/promises, its streams and readline that way), used or not; a chunk's import() went through the
    // asynchronous ES loader. Only jiti's own import() of a user's module is left.
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    for (const f of readdirSync(BUNDLE).filter((f) => f.endsWith('.js'))) {
      const src = readFileSync(join(BUNDLE, f), 'utf8');
      expect(src, f).not.toMatch(/^(import|export)\b/m);
      expect(src.replace('jiti.import(path)', ''), f).not.toMatch(/\bimport\(/);
      expect(src, f).not.toMatch(/\bimport\.meta\b/);
      const required = [...src.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
      expect(
        required.filter((m) => !m.startsWith('./') && !builtins.has(m) && m !== 'jiti'),
        f,
      ).toEqual([]);
    }
    const main = readFileSync(join(BUNDLE, 'main.js'), 'utf8');
    for (const chunk of graph()['main.js']!.dynamic)
      expect(main).toContain(`Promise.resolve().then(() => __toESM(require("./${chunk}")))`);
  });

  it("a command's chunks load with require(), also where Node cannot require ES modules", () => {
    const dir = tapelessProject();
    const validate = (nodeArgs: string[]) =>
      spawnSync(process.execPath, [...nodeArgs, join(ROOT, 'bin/axis.js'), 'validate'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NODE_DEBUG: 'module' },
      });
    // Node's CommonJS loader logs the request for the command's chunk.
    for (const args of [[], ['--no-experimental-require-module']]) {
      const r = validate(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('there is no tape for "a"');
      expect(r.stderr).toMatch(/Module\._load REQUEST \.\/validate-\w+\.js/);
    }
  });

  it('`axis --help` loads no ES module loader, no child_process, no fs/promises', () => {
    // The Node modules a process loaded, written when it exits.
    const dir = tmp();
    const preload = join(dir, 'loaded.cjs');
    const out = join(dir, 'loaded.json');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, join(ROOT, 'bin/axis.js'), '--help'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Usage: axis [options] [command]');
    const loaded = JSON.parse(readFileSync(out, 'utf8')) as string[];
    expect(loaded).toContain('NativeModule vm');
    for (const m of [
      'child_process',
      'internal/fs/promises',
      'internal/readline/interface',
      'internal/modules/esm/translators',
    ])
      expect(loaded).not.toContain(`NativeModule ${m}`);
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
        "import { createRequire } from 'node:module';",
        // The module 'axis-eval' gave is the one Node's loader holds, whose chunks are the CLI's.
        `const index = ${JSON.stringify(join(BUNDLE, 'index.js'))};`,
        'const held = createRequire(index).cache[index];',
        'process.stderr.write(`one copy: ${held?.exports.parserFor === parserFor}\\n`);',
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
    expect(r.stderr).toContain('one copy: true');
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
