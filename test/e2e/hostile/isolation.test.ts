/**
 * A job's private /tmp and its loopback-only network (`network: "loopback"`), probed from inside by a
 * command agent: what it can reach, what it cannot, and which /tmp files it sees.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLeaks, processesWith } from '../../helpers/leaks.js';
import { makeProject, nodeAgent, readJson, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { waitFor } from '../../unit/exec/helpers.js';
import { shellProject, sleepToken } from './runtime-helpers.js';
import { bwrapProblem } from '../../../src/exec/contain.js';
import { axis, buildDist, startAxis } from '../run/helpers.js';
import { axisBinForOthers, removeRuntimeCopy } from '../../helpers/other-user.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);
afterAll(removeRuntimeCopy);

const T = 120_000;

/**
 * Prints one `name result` line per probe: HTTP GETs to the given targets (`ok <body>` or the error
 * code), the network interfaces it sees, and which /tmp files exist.
 */
const PROBE = `
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
const get = (url) => new Promise((done) => {
  const req = request(url, { timeout: 3000 }, (res) => {
    let body = '';
    res.on('data', (d) => (body += d));
    res.on('end', () => done('ok ' + body));
  });
  req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
  req.on('error', (e) => done(e.code ?? e.message));
  req.end();
});
const out = [];
for (const [name, url] of JSON.parse(process.env.PROBE_TARGETS)) out.push(name + ' ' + (await get(url)));
out.push('interfaces ' + Object.keys(networkInterfaces()).sort().join(','));
const me = String(Math.random()).slice(2);
writeFileSync('/tmp/probe-' + me, me);
await new Promise((r) => setTimeout(r, 1500));
const others = readdirSync('/tmp').filter((f) => f.startsWith('probe-') && f !== 'probe-' + me);
out.push('other-jobs ' + (others.join(',') || 'none'));
out.push('host-file ' + (existsSync(process.env.HOST_FILE) ? 'visible' : 'hidden'));
out.push('setup-file ' + (existsSync('/tmp/from-setup') ? 'visible' : 'hidden'));
out.push('workspace ' + (existsSync(process.cwd()) ? 'ok' : 'missing'));
out.push('uid ' + process.getuid());
process.stdout.write(out.join('\\n'));
`;

function listen(host: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end(`hello from ${host}`));
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve({ server, port: (server.address() as { port: number }).port })),
  );
}

/** The host's first non-loopback IPv4 address, if it has one. */
function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

const NOBODY = 65534;

/** The two ways of starting a job's namespaces: AXIS's one-exec helper, and the util-linux chain. */
const CHAINS: { chain: string; env: Record<string, string>; says: string }[] = [
  { chain: 'axis-contain', env: {}, says: 'per process (axis-contain, one exec; dies with AXIS)' },
  {
    chain: 'util-linux',
    env: { AXIS_CONTAINMENT: 'util-linux' },
    says: 'per process (util-linux unshare, dies with AXIS; axis-contain not used: AXIS_CONTAINMENT=util-linux)',
  },
];
const bwrap = bwrapProblem() === null;

function chownTree(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) chownTree(path, uid);
    else chownSync(path, uid, uid);
  }
}

/** `node bin/axis.js <args>` as another user (setpriv), like `axis` in ../run/helpers.ts. */
function asUser(
  uid: number,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const ids = ['--reuid', String(uid), '--regid', String(uid), '--clear-groups'];
    execFile(
      'setpriv',
      [...ids, process.execPath, axisBinForOthers(), ...args],
      { cwd, env: { ...process.env, HOME: cwd, NO_COLOR: '1', ...env }, timeout: T },
      (_err, stdout, stderr) => resolve({ stdout, stderr }),
    );
  });
}

interface Detail {
  status: string;
  reason?: string;
  transcript: { result: string | null };
  checks?: Array<{ passed: boolean; rationale: string }>;
  teardownError?: string;
}

function details(dir: string): Record<string, Detail> {
  const root = join(dir, '.axis/reports');
  const id = readdirSync(root)[0]!;
  const out: Record<string, Detail> = {};
  for (const key of readdirSync(join(root, id, 'scenarios')))
    out[key] = readJson<Detail>(join(root, id, 'scenarios', key, 'probe.json'));
  return out;
}

function lines(d: Detail): Record<string, string> {
  return Object.fromEntries(
    (d.transcript.result ?? '').split('\n').map((l) => [l.split(' ')[0]!, l.slice(l.indexOf(' ') + 1)]),
  );
}

describe('job isolation', () => {
  let allowed: { server: Server; port: number };
  let other: { server: Server; port: number };
  let wide: { server: Server; port: number };
  const hostFile = `/tmp/axis-isolation-host-${process.pid}`;
  const lan = lanAddress();

  beforeAll(async () => {
    allowed = await listen('127.0.0.1');
    other = await listen('127.0.0.1');
    wide = await listen('0.0.0.0');
    writeFileSync(hostFile, 'host');
  });
  afterAll(() => {
    for (const s of [allowed, other, wide]) s.server.close();
    rmSync(hostFile, { force: true });
  });

  function project(
    network: unknown,
    extra: Record<string, unknown> = {},
    settings: Record<string, unknown> = {},
  ): string {
    const targets = [
      ['allowed', `http://127.0.0.1:${allowed.port}/`],
      ['localhost', `http://localhost:${allowed.port}/`],
      ['other-port', `http://127.0.0.1:${other.port}/`],
      // Only probed from inside the network namespace, where no packet can leave (tests stay on loopback).
      ...(network === undefined ? [] : [['internet', 'http://198.51.100.1/']]),
      ...(lan ? [['lan', `http://${lan}:${wide.port}/`]] : []),
    ];
    const scenario = (name: string) => ({
      name,
      prompt: 'probe',
      judge: [{ check: 'it ran' }],
      setup: [{ action: 'run_script', command: 'echo setup > /tmp/from-setup' }],
      // Every process of the job shares its /tmp: the `run` check and teardown as well as the agent.
      checks: [{ name: 'job /tmp', run: 'test -f /tmp/from-setup && test ! -e "$HOST_FILE"' }],
      teardown: [{ action: 'run_script', command: 'test -f /tmp/from-setup && test ! -e "$HOST_FILE"' }],
      ...(network === undefined ? {} : { network }),
    });
    const dir = makeProject({
      'probe.mjs': PROBE,
      'scenarios/a.json': scenario('a'),
      'scenarios/b.json': scenario('b'),
      ...extra,
    });
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        scenarios: './scenarios',
        agents: [
          nodeAgent('probe', join(dir, 'probe.mjs'), {
            env: { PROBE_TARGETS: JSON.stringify(targets), HOST_FILE: hostFile },
          }),
        ],
        settings: { concurrency: 2, ...settings },
      }),
    );
    return dir;
  }

  it.each(CHAINS)(
    'loopback ($chain): only the allowed host port is reachable; other ports, the LAN address and the internet are not',
    async ({ env, says }) => {
      const dir = project({ mode: 'loopback', ports: [allowed.port] });
      const r = await axis(['run', '--no-score', '-v'], dir, env);
      const out = r.stdout + r.stderr;
      expect(out).toContain(says);
      expect(out).toContain('network: loopback-only for every scenario');
      expect(out).toContain(`host 127.0.0.1 ports forwarded: ${allowed.port} (network.ports)`);
      for (const d of Object.values(details(dir))) {
        expect(d.status, out).toBe('completed');
        const seen = lines(d);
        expect(seen.allowed).toBe('ok hello from 127.0.0.1');
        expect(seen.localhost).toBe('ok hello from 127.0.0.1');
        expect(seen['other-port']).toBe('ECONNREFUSED');
        expect(seen.internet).toBe('ENETUNREACH');
        if (lan) expect(seen.lan).toBe('ENETUNREACH');
        expect(seen.interfaces).toBe('lo');
      }
    },
    T,
  );

  it(
    "a variant's own ports add to its scenario's: its job reaches both, the plain scenario's only its own",
    async () => {
      const dir = project({ mode: 'loopback', ports: [allowed.port] });
      const file = join(dir, 'scenarios/a.json');
      const variants = [{ name: 'v', network: { mode: 'loopback', ports: [other.port] } }];
      writeFileSync(file, JSON.stringify({ ...readJson<object>(file), variants }));
      const r = await axis(['run', '--no-score', '-v'], dir);
      const out = r.stdout + r.stderr;
      expect(out).toContain(
        `[a@v · probe] network: loopback only; host 127.0.0.1 ports forwarded: ${allowed.port} (network.ports), ${other.port} (network.ports)`,
      );
      const { 'a@v': v, b } = details(dir);
      expect([v?.status, b?.status], out).toEqual(['completed', 'completed']);
      const ok = 'ok hello from 127.0.0.1';
      expect([lines(v!).allowed, lines(v!)['other-port']]).toEqual([ok, ok]);
      expect([lines(b!).allowed, lines(b!)['other-port']]).toEqual([ok, 'ECONNREFUSED']);
    },
    T,
  );

  it(
    'host (the default): the same probe reaches the other port and the LAN address',
    async () => {
      const dir = project(undefined);
      const r = await axis(['run', '--no-score', '-v'], dir);
      expect(r.stdout + r.stderr).toContain('network: host (the agent shares the host network)');
      for (const d of Object.values(details(dir))) {
        const seen = lines(d);
        expect(seen['other-port']).toBe('ok hello from 127.0.0.1');
        if (lan) expect(seen.lan).toBe('ok hello from 0.0.0.0');
      }
    },
    T,
  );

  it.each(CHAINS)(
    "private /tmp ($chain): a job sees its own setup files, never the host's or the other job's, and leaves nothing in /tmp",
    async ({ env, says }) => {
      const dir = project(undefined);
      const r = await axis(['run', '--no-score', '-v'], dir, env);
      const out = r.stdout + r.stderr;
      expect(out).toContain(says);
      expect(out).toContain('private /tmp: per job (mount namespace');
      for (const d of Object.values(details(dir))) {
        expect(d.status, out).toBe('completed');
        const seen = lines(d);
        expect(seen['other-jobs']).toBe('none');
        expect(seen['host-file']).toBe('hidden');
        expect(seen['setup-file']).toBe('visible');
        expect(seen.workspace).toBe('ok');
        expect(d.checks?.map((c) => [c.passed, c.rationale])).toEqual([
          [true, 'Passed: exit code 0 (expected 0); no output'],
        ]);
        expect(d.teardownError).toBeUndefined();
      }
      expect(existsSync('/tmp/from-setup')).toBe(false);
      expect(readdirSync('/tmp').filter((f) => f.startsWith('probe-'))).toEqual([]);
    },
    T,
  );

  it(
    'without namespaces: /tmp is shared (said in -v) and a loopback job fails naming why, its agent never started',
    async () => {
      const dir = project('loopback');
      const r = await axis(['run', '--no-score', '-v'], dir, { AXIS_CONTAINMENT: 'process-group' });
      const out = r.stdout + r.stderr;
      expect(out).toContain('private /tmp: no, only a private TMPDIR per job');
      expect(out).toMatch(/network: loopback-only requested by every scenario, not possible here/);
      for (const d of Object.values(details(dir))) {
        expect(d.status).toBe('failed');
        expect(d.reason).toMatch(
          /network "loopback" cannot be honoured: network namespaces need the PID-namespace containment/,
        );
        expect(d.transcript.result ?? '').toBe('');
      }
      expect(r.code).not.toBe(0);
    },
    T,
  );

  it.skipIf(process.getuid?.() !== 0).each(CHAINS)(
    'unprivileged ($chain, a user namespace): the same private /tmp and loopback network, processes keep their own uid',
    async ({ env, says }) => {
      const dir = project({ mode: 'loopback', ports: [allowed.port] });
      chownTree(dir, NOBODY);
      const r = await asUser(NOBODY, ['run', '--no-score', '-v'], dir, env);
      const out = r.stdout + r.stderr;
      expect(out).toContain(`containment: PID namespace in a user namespace ${says}`);
      expect(out).toContain('private /tmp: per job (mount namespace');
      for (const d of Object.values(details(dir))) {
        expect(d.status, out).toBe('completed');
        const seen = lines(d);
        expect(seen.allowed).toBe('ok hello from 127.0.0.1');
        expect(seen['other-port']).toBe('ECONNREFUSED');
        expect(seen.interfaces).toBe('lo');
        expect(seen['other-jobs']).toBe('none');
        expect(seen['host-file']).toBe('hidden');
        expect(seen['setup-file']).toBe('visible');
        expect(seen.uid).toBe(String(NOBODY));
      }
    },
    T,
  );

  it.skipIf(!bwrap)(
    'with settings.sandbox "bwrap" a loopback scenario is cut off the same way',
    async () => {
      const dir = project({ mode: 'loopback', ports: [allowed.port] }, {}, { sandbox: 'bwrap' });
      const r = await axis(['run', '--no-score', '-v'], dir);
      const out = r.stdout + r.stderr;
      expect(out).toContain('containment: bubblewrap sandbox');
      for (const d of Object.values(details(dir))) {
        expect(d.status, out).toBe('completed');
        const seen = lines(d);
        expect(seen.allowed).toBe('ok hello from 127.0.0.1');
        expect(seen['other-port']).toBe('ECONNREFUSED');
        expect(seen.internet).toBe('ENETUNREACH');
        expect(seen.interfaces).toBe('lo');
      }
    },
    T,
  );

  it(
    'after kill -9 of AXIS a loopback job leaves nothing running: agent, forwarders and their holder die with it',
    async () => {
      const token = sleepToken();
      const dir = shellProject(
        { hang: `cat >/dev/null; exec sleep ${token}` },
        { hang: { network: { mode: 'loopback', ports: [allowed.port] } } },
      );
      // A private TMPDIR (under /tmp, so the job dir is bound back one level down): its path names the
      // job's forwarder sockets, so every forwarder process is findable by it.
      const tmp = tempDir('axis-netkill-');
      const first = startAxis(['run', '--no-score'], dir, { TMPDIR: tmp });
      try {
        await waitFor(() => processesWith(token).length > 0, 30_000);
        expect(processesWith(`${tmp}/`).length).toBeGreaterThan(0);
      } finally {
        first.child.kill('SIGKILL');
      }
      await first.done;
      await waitFor(() => processesWith(token).length + processesWith(`${tmp}/`).length === 0, 5000);
      expect(processesWith(token)).toEqual([]);
      expect(processesWith(`${tmp}/`)).toEqual([]);
      // What the killed run left on disk goes with the next run's start-up sweep.
      const second = await axis(['run', '--no-score', '-s', 'nothing-*'], dir, { TMPDIR: tmp });
      expect(second.code).toBe(2);
      expect(readdirSync(tmp)).toEqual([]);
    },
    T,
  );

  it(
    'a bad network value is a validation error naming the field (exit 2)',
    async () => {
      const dir = project({ mode: 'loopback', ports: [70000] });
      const r = await axis(['validate'], dir);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toMatch(/network\.ports\[0\].*a TCP port from 1 to 65535, found 70000/);
      const bad = project('offline');
      const r2 = await axis(['validate'], bad);
      expect(r2.code).toBe(2);
      expect(r2.stdout + r2.stderr).toMatch(/network.*"host", "loopback"/);
    },
    T,
  );
});
