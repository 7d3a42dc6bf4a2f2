/** The pure parts of a job's isolation: which network policy applies and which host ports it forwards. */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import {
  forwardedPorts,
  jobNetwork,
  keptUnderTmp,
  loopbackPorts,
} from '../../../src/runner/job-isolation.js';
import { writeJobFstab } from '../../../src/exec/job-space.js';
import { removeTempDirs, tempDir } from '../run/helpers.js';
import { project } from '../config/helpers.js';

afterAll(removeTempDirs);

describe('keptUnderTmp: what a private /tmp keeps at its own path', () => {
  it("the project dir and AXIS's install dir when they are under /tmp (a CI clone there keeps its agent CLIs)", () => {
    // Under /tmp itself whatever TMPDIR says: that is what a private /tmp hides.
    const clone = realpathSync(mkdtempSync('/tmp/axis-test-clone-'));
    const projectDir = realpathSync(mkdtempSync('/tmp/axis-test-proj-'));
    try {
      expect(keptUnderTmp(projectDir, clone).sort()).toEqual([projectDir, clone].sort());
      expect(keptUnderTmp(projectDir, projectDir)).toEqual([projectDir]);
    } finally {
      for (const d of [clone, projectDir]) rmSync(d, { recursive: true, force: true });
    }
  });
  it('nothing outside /tmp', () => {
    expect(keptUnderTmp('/usr/share', '/opt/axis')).toEqual([]);
  });
});

describe('jobNetwork', () => {
  const settings = { mode: 'host' as const, ports: [5432] };
  it('uses settings.network when the scenario has none', () => {
    expect(jobNetwork(settings, undefined)).toEqual(settings);
  });
  it("takes the scenario's mode and allows the ports of both", () => {
    expect(jobNetwork(settings, { mode: 'loopback', ports: [8080, 5432] })).toEqual({
      mode: 'loopback',
      ports: [5432, 8080],
    });
  });
});

describe('loopbackPorts', () => {
  it('finds 127.0.0.1 and localhost URLs, with the default port of the scheme when none is written', () => {
    expect(loopbackPorts('http://127.0.0.1:4000/v1')).toEqual([4000]);
    expect(loopbackPorts('https://localhost/x and ws://localhost:9/')).toEqual([443, 9]);
    expect(loopbackPorts('http://localhost')).toEqual([80]);
  });
  it('ignores other hosts, look-alikes and impossible ports', () => {
    expect(loopbackPorts('https://api.anthropic.com http://127.0.0.10:80 http://localhost.evil:81')).toEqual(
      [],
    );
    expect(loopbackPorts('http://127.0.0.1:70000/')).toEqual([]);
  });
});

describe('forwardedPorts', () => {
  it('forwards the simulator, local provider URLs, loopback HTTP MCP servers and declared ports, once each', () => {
    const ports = forwardedPorts({
      policy: { mode: 'loopback', ports: [8080, 4000] },
      simulatorUrl: 'http://127.0.0.1:4000',
      env: {
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000',
        OPENAI_BASE_URL: 'http://localhost:5000/v1',
        SOME_OTHER_URL: 'http://127.0.0.1:6000',
      },
      providerVars: ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL'],
      mcpServers: {
        docs: { type: 'http', url: 'http://127.0.0.1:7000/mcp' },
        remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
        local: { type: 'stdio', command: 'node', args: ['http://127.0.0.1:7100'] },
      },
    });
    expect(ports).toEqual([
      { port: 4000, why: 'simulator' },
      { port: 5000, why: '$OPENAI_BASE_URL' },
      { port: 7000, why: 'MCP server docs' },
      { port: 8080, why: 'network.ports' },
    ]);
  });
});

describe('network in the config', () => {
  it("resolves the string and object forms, and a variant's mode overrides its scenario's", async () => {
    const dir = project({
      'axis.config.json': { agents: ['claude-code'], settings: { network: 'loopback' } },
      'scenarios/a.json': {
        name: 'a',
        prompt: 'p',
        judge: [{ check: 'c' }],
        network: { mode: 'loopback', ports: [8080, 8080] },
        variants: [{ name: 'open', network: 'host' }, { name: 'same' }],
      },
    });
    const loaded = await loadConfig(undefined, { cwd: dir });
    expect(loaded.config.settings.network).toEqual({ mode: 'loopback', ports: [] });
    const byKey = Object.fromEntries(loaded.scenarios.map((s) => [s.key, s.network]));
    expect(byKey).toEqual({
      // The scenario's ports stay listed; on the host network they open nothing.
      'a@open': { mode: 'host', ports: [8080] },
      'a@same': { mode: 'loopback', ports: [8080] },
    });
  });
});

describe('writeJobFstab', () => {
  it('binds each kept dir under /tmp into the job tmp, then the job tmp onto /tmp, escaping odd paths', async () => {
    const root = tempDir('axis-fstab-test-');
    const tmp = join(root, 'my tmp');
    const keep = [root, '/tmp/a b/proj', '/home/x', '/tmp'];
    const fstab = await writeJobFstab(root, tmp, keep);
    const rel = root.slice('/tmp/'.length);
    expect(readFileSync(fstab.path, 'utf8')).toBe(fstab.text);
    expect(fstab.points).toEqual([join(tmp, rel), join(tmp, 'a b/proj')]);
    expect(fstab.text.split('\n')).toEqual([
      `${root} ${root}/my\\040tmp/${rel} none bind 0 0`,
      `/tmp/a\\040b/proj ${root}/my\\040tmp/a\\040b/proj none bind 0 0`,
      `${root}/my\\040tmp /tmp none rbind 0 0`,
      '',
    ]);
    // The mount points exist (mount needs them); /home/x and /tmp itself are not under /tmp: left out.
    expect(existsSync(join(tmp, rel))).toBe(true);
    expect(existsSync(join(tmp, 'a b/proj'))).toBe(true);
    // A recycled workspace whose fstab already says this is not written again (nor its points made).
    writeFileSync(fstab.path, 'changed by hand\n');
    const points = [join(tmp, rel), join(tmp, 'a b/proj')];
    expect(await writeJobFstab(root, tmp, keep, { points, text: fstab.text })).toEqual(fstab);
    expect(readFileSync(fstab.path, 'utf8')).toBe('changed by hand\n');
    await writeJobFstab(root, tmp, keep, { points, text: 'an older one' });
    expect(readFileSync(fstab.path, 'utf8')).toBe(fstab.text);
  });
});
