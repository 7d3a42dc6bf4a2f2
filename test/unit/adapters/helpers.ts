import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdapterRunContext } from '../../../src/adapters/types.js';
import type { ResolvedAgent } from '../../../src/config/types.js';

const created: string[] = [];

export function tempDir(prefix = 'axis-adapters-unit-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Removes every dir tempDir made (call from afterAll). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function agent(name: string, extra: Partial<ResolvedAgent> = {}): ResolvedAgent {
  return { name, agent: name, flags: {}, env: {}, skills: [], args: [], ...extra };
}

/** A run context for the pure invocation builders (nothing is started). */
export function ctx(a: ResolvedAgent, extra: Partial<AdapterRunContext> = {}): AdapterRunContext {
  const root = '/jobs/j1';
  return {
    agent: a,
    prompt: 'Do it.',
    workDir: `${root}/work`,
    homeDir: `${root}/home`,
    tmpDir: `${root}/tmp`,
    env: { PATH: '/usr/bin:/bin', HOME: `${root}/home`, XDG_CONFIG_HOME: `${root}/home/.config` },
    mcpServers: {},
    skills: [],
    timeoutMs: 1000,
    signal: new AbortController().signal,
    ...extra,
  };
}

/** MCP servers with names that break hand-written TOML/JSON keys. */
export const AWKWARD_SERVERS: AdapterRunContext['mcpServers'] = {
  'docs.v1': { type: 'stdio', command: 'node', args: ['server.js', '--flag=a b'], env: { 'API.KEY': 'k"1' } },
  'with space': { type: 'http', url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer x' } },
  'quo"te\\back': { type: 'stdio', command: 'srv' },
  'ünï[code]': { type: 'http', url: 'http://127.0.0.1:9/mcp' },
};
