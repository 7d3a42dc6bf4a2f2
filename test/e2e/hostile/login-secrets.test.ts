/**
 * A local CLI login (laptop use, no API key): Claude Code's OAuth tokens in ~/.claude/.credentials.json
 * are copied into the job's home. An agent that prints the file (real `claude` against the simulator as
 * its provider, `settings.simulate` off) must not put the tokens into any report file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src/sim/index.js';
import { axis, project } from './helpers.js';

const ACCESS = 'sk-ant-oat01-login-access-token-0123456789';
const REFRESH = 'sk-ant-ort01-login-refresh-token-9876543210';
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({
    tape: {
      turns: [{ text: 'Reading.', tools: [{ shell: 'cat ~/.claude/.credentials.json' }] }, { text: 'Done.' }],
    },
  });
});
afterAll(() => sim.close());

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('a local login', () => {
  it('its tokens never reach a report file, though the agent prints them', async () => {
    const dir = project({
      'home/.claude/.credentials.json': {
        claudeAiOauth: {
          accessToken: ACCESS,
          refreshToken: REFRESH,
          expiresAt: 4102444800000,
          scopes: ['user:inference'],
        },
      },
      'axis.config.json': {
        scenarios: './scenarios',
        agents: ['claude-code'],
        settings: { simulate: false },
      },
      'scenarios/creds.json': { name: 'creds', prompt: 'Show the credentials', judge: [{ check: 'shown' }] },
    });
    const out = await axis(['run', '--no-score'], dir, {
      budgetMs: 120_000,
      env: { HOME: join(dir, 'home'), ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: sim.url },
    });
    expect(out.code, out.stdout + out.stderr).toBe(0);
    // The agent did print the file: its tool result is in the report, the tokens masked.
    const files = filesUnder(join(dir, '.axis/reports'));
    const texts = files.map((f) => readFileSync(f, 'latin1'));
    expect(texts.some((t) => t.includes('claudeAiOauth') && t.includes('[REDACTED]'))).toBe(true);
    for (const [i, t] of texts.entries()) {
      expect(t, files[i]).not.toContain(ACCESS);
      expect(t, files[i]).not.toContain(REFRESH);
    }
  }, 120_000);
});
