/** `axis agents` and the ACP presets: a preset name resolves to the acp adapter; a typo suggests a preset. */
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
beforeAll(buildDist);
function project(agents: unknown[], settings?: object, scenario: object = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-agents-')));
  dirs.push(dir);
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ scenarios: ['./s.json'], agents, settings }));
  writeFileSync(join(dir, 's.json'), JSON.stringify({ name: 'S', prompt: 'p', judge: 'j', ...scenario }));
  return dir;
}

describe('agent catalogue', () => {
  it('axis agents lists built-ins and ACP presets with their command, needs and npm package', async () => {
    const r = await axis(['agents', '--json'], process.cwd());
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as {
      name: string;
      kind: string;
      command: string;
      needs: string;
      npm: string;
    }[];
    const by = Object.fromEntries(rows.map((x) => [x.name, x]));
    for (const n of ['claude-code', 'codex', 'gemini', 'qwen-code', 'opencode', 'acp', 'command'])
      expect(by[n]?.kind).toBe('built-in');
    expect(by.goose).toMatchObject({ kind: 'acp preset', command: 'goose acp' });
    expect(by['cursor-agent']).toMatchObject({
      command: 'agent acp',
      needs: 'CURSOR_API_KEY (list under "env")',
    });
    expect(by['claude-sdk']).toMatchObject({ npm: '@zed-industries/claude-code-acp' });
    expect(by['codex-sdk']).toMatchObject({ npm: '@zed-industries/codex-acp' });
    expect(by['kiro-cli']).toMatchObject({ command: 'kiro-cli acp' });
    expect(by.copilot).toMatchObject({
      command: 'copilot --acp',
      needs: 'COPILOT_GITHUB_TOKEN (list under "env")',
      npm: '@github/copilot',
    });
    expect(by['kiro-cli']).toMatchObject({ needs: 'KIRO_API_KEY (list under "env")' });
    const text = await axis(['agents'], process.cwd());
    expect(text.stdout).toMatch(/\ngoose +acp preset +goose acp +(yes|no) /);
  });

  it('axis agents says whether each command is found on PATH or in node_modules/.bin, and where', async () => {
    const bin = realpathSync(mkdtempSync(join(tmpdir(), 'axis-agents-bin-')));
    dirs.push(bin);
    writeFileSync(join(bin, 'goose'), '#!/bin/sh\n');
    chmodSync(join(bin, 'goose'), 0o755);
    writeFileSync(join(bin, 'kimi'), 'not executable');
    const r = await axis(['agents', '--json'], process.cwd(), { PATH: `${bin}:/usr/bin:/bin` });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { name: string; installed: boolean | null; path?: string }[];
    const by = Object.fromEntries(rows.map((x) => [x.name, x]));
    expect(by.goose).toMatchObject({ installed: true, path: join(bin, 'goose') });
    expect(by.kimi).toMatchObject({ installed: false });
    expect(by.kimi!.path).toBeUndefined();
    // The pinned bridges and CLIs are found where a run finds them: node_modules/.bin above AXIS.
    for (const [name, cmd] of [
      ['claude-acp', 'claude-code-acp'],
      ['codex-acp', 'codex-acp'],
      ['claude-code', 'claude'],
    ])
      expect(by[name!]).toMatchObject({ installed: true, path: join(ROOT, 'node_modules/.bin', cmd!) });
    expect(by.acp).toMatchObject({ installed: null });
    const text = await axis(['agents'], process.cwd(), { PATH: `${bin}:/usr/bin:/bin` });
    expect(text.stdout).toMatch(/^Agent +Kind +Command +Installed +Needs +npm package$/m);
    expect(text.stdout).toMatch(/\ngoose +acp preset +goose acp +yes /);
    expect(text.stdout).toMatch(/\nkimi +acp preset +kimi acp +no /);
    expect(text.stdout).toMatch(/\nacp +built-in +"command" you set +— /);
  });

  it('a preset name validates as the acp adapter with its command; command/args may be overridden', async () => {
    const dir = project(['goose', { agent: 'cursor-agent', command: './bin/agent', args: ['acp', '--x'] }]);
    const r = await axis(['validate', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    const agents = (JSON.parse(r.stdout) as { agents: Record<string, unknown>[] }).agents;
    expect(agents[0]).toMatchObject({ name: 'goose', agent: 'acp', command: 'goose', args: ['acp'] });
    expect(agents[1]).toMatchObject({
      name: 'cursor-agent',
      agent: 'acp',
      command: './bin/agent',
      args: ['acp', '--x'],
    });
  });

  it('an unknown name suggests the closest preset and says acp runs any ACP agent', async () => {
    const r = await axis(['validate'], project(['gooose']));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown agent "gooose"; did you mean "goose"?');
    expect(r.stderr).toContain(
      'Any ACP agent runs as { "agent": "acp", "command": "<executable>" }; `axis agents` lists the presets',
    );
  });

  it('a token limit on a bridge preset that reports no tokens is a validation error, not ignored', async () => {
    const run = await axis(
      ['validate'],
      project(['claude-code', 'codex-acp'], { limits: { run: { tokens: 9 } } }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'settings.limits.run.tokens: agent "codex-acp" (agents[1], preset "codex-acp") reports no token counts over ACP, so a token limit cannot stop it; remove the limit or the agent',
    );
    const own = await axis(['validate'], project(['claude-acp'], undefined, { limits: { tokens: 5 } }));
    expect(own.code).toBe(2);
    expect(own.stderr).toContain(
      'agents[0]: agent "claude-acp" (agents[0], preset "claude-acp") reports no token counts over ACP, so a token limit cannot stop it, and scenario s set limits.tokens',
    );
    // Kept off that scenario by its filter (or a preset that reports tokens): valid.
    const off = project(
      [{ agent: 'claude-acp', scenarios: ['other*'] }, 'goose'],
      { limits: { scenario: {} } },
      {
        limits: { tokens: 5 },
      },
    );
    // The filter's scenario: a glob that matches none is an error of its own.
    writeFileSync(join(off, 'other.json'), JSON.stringify({ name: 'O', prompt: 'p', judge: 'j' }));
    const offConfig = JSON.parse(readFileSync(join(off, 'axis.config.json'), 'utf8')) as object;
    writeFileSync(
      join(off, 'axis.config.json'),
      JSON.stringify({ ...offConfig, scenarios: ['./s.json', './other.json'] }),
    );
    const ok = await axis(['validate'], off);
    expect(ok.code, ok.stderr).toBe(0);
  });
});
