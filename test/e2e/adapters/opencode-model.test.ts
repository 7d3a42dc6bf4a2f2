/**
 * opencode takes `-m provider/model`; a bare model name only means something against OPENAI_BASE_URL
 * (the adapter declares that endpoint as a provider). Against a real provider without it, the job failed
 * with opencode's "Unexpected server error" after its retries; it is now refused before anything runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/sim/index.js';
import { axis, project } from '../hostile/helpers.js';

/** opencode with the bare model "gpt-5", the simulator off, one scenario. */
const bareModelProject = () =>
  project({
    'axis.config.json': {
      scenarios: './scenarios',
      agents: [{ agent: 'opencode', model: 'gpt-5' }],
      settings: { simulate: false },
    },
    'scenarios/s.json': { name: 'S', prompt: 'go', judge: [{ check: 'done' }] },
  });

describe('an opencode model without a provider', () => {
  it('is exit 2 before any agent runs, naming the config, the agent and the form expected', async () => {
    const dir = bareModelProject();
    const env = { OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' };
    const out = await axis(['run', '--no-score'], dir, { env });
    expect(out.code, out.stdout + out.stderr).toBe(2);
    expect(out.stderr).toContain(
      'axis.config.json: agents "opencode|gpt-5": model: expected provider/model for opencode (e.g. "openai/gpt-5" or "anthropic/gpt-5"), found "gpt-5"',
    );
    expect(out.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, '.axis/reports'))).toBe(false);
  });

  it('is found by axis validate too, in text and --json', async () => {
    const dir = bareModelProject();
    // A key, so the model is the one problem (validate checks credentials too).
    const env = { OPENAI_BASE_URL: '', OPENAI_API_KEY: 'sk-test-0123456789' };
    const text = await axis(['validate'], dir, { env });
    expect(text.code, text.stdout + text.stderr).toBe(2);
    expect(text.stderr).toContain(
      'axis.config.json: agents "opencode|gpt-5": model: expected provider/model',
    );
    const json = await axis(['validate', '--json'], dir, { env });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: false,
      issues: [{ file: 'axis.config.json', path: 'agents "opencode|gpt-5": model' }],
    });
    const withUrl = await axis(['validate'], dir, {
      env: { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(withUrl.code, withUrl.stderr).toBe(0);
  });

  it('runs with OPENAI_BASE_URL set, whose provider a bare name means', async () => {
    const sim = await startSimulator({ tape: { turns: [{ text: 'done' }] } });
    try {
      const dir = bareModelProject();
      const env = { OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-test-0123456789' };
      const out = await axis(['run', '--no-score'], dir, { env, budgetMs: 120_000 });
      expect(out.code, out.stdout + out.stderr).toBe(0);
      expect(out.stdout).toContain('1 completed');
    } finally {
      await sim.close();
    }
  }, 120_000);

  it('runs with the model written as axis/<name>, the provider the adapter declares', async () => {
    const dir = project({
      'axis.config.json': {
        scenarios: './scenarios',
        agents: [{ agent: 'opencode', model: 'axis/my-model' }],
        settings: { simulate: true },
      },
      'scenarios/s.json': { name: 'S', prompt: 'go', judge: [{ check: 'done' }] },
      'tapes/s.json': { turns: [{ text: 'done' }] },
    });
    const out = await axis(['run', '--no-score', '--json'], dir, { budgetMs: 120_000 });
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as { results: { status: string }[] };
    expect(report.results[0]!.status).toBe('completed');
  }, 120_000);

  it("under the simulator a model of another provider (upstream's anthropic/…) is played by it, never sent to that provider", async () => {
    const dir = project({
      'axis.config.json': {
        scenarios: './scenarios',
        agents: [{ agent: 'opencode', model: 'anthropic/claude-sonnet-4' }],
        settings: { simulate: true },
      },
      'scenarios/s.json': { name: 'S', prompt: 'go', judge: [{ check: 'done' }] },
      'tapes/s.json': { turns: [{ text: 'done' }] },
    });
    const out = await axis(['run', '--no-score', '--json', '-v'], dir, { budgetMs: 120_000 });
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as { reportId: string; results: { status: string }[] };
    expect(report.results[0]!.status).toBe('completed');
    const detail = JSON.parse(
      readFileSync(
        join(dir, '.axis/reports', report.reportId, 'scenarios/s/opencode|anthropic-claude-sonnet-4.json'),
        'utf8',
      ),
    ) as { simulator: { requests: number } };
    expect(detail.simulator.requests).toBeGreaterThan(0);
    expect(out.stderr).toContain('-m axis/claude-sonnet-4');
  }, 120_000);

  it("an unknown provider fails with opencode's own error, not as a provider call being retried", async () => {
    const sim = await startSimulator({ tape: { turns: [{ text: 'done' }] } });
    try {
      const dir = project({
        'axis.config.json': {
          scenarios: './scenarios',
          agents: [{ agent: 'opencode', model: 'nope/foo' }],
          settings: { simulate: false },
        },
        'scenarios/s.json': { name: 'S', prompt: 'go', judge: [{ check: 'done' }] },
      });
      const env = { OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-test-0123456789' };
      const out = await axis(['run', '--no-score', '--json'], dir, { env, budgetMs: 120_000 });
      expect(out.code, out.stdout + out.stderr).toBe(1);
      const report = JSON.parse(out.stdout) as { results: { status: string; reason?: string }[] };
      const [result] = report.results;
      expect(result!.status).toBe('failed');
      expect(result!.reason).toContain('Unexpected server error');
      expect(result!.reason).not.toContain('retrying');
      expect(out.stderr).not.toContain('↻');
    } finally {
      await sim.close();
    }
  }, 120_000);
});
