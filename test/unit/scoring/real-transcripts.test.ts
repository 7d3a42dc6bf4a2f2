/**
 * The scoring core on transcripts the real agent CLIs printed (test/fixtures/agent-cli-samples), read by
 * the project's own stream parsers: the contract between the transcript model and scoring.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyInteractions } from '../../../src/scoring/classify.js';
import { groupInteractions } from '../../../src/scoring/interactions.js';
import { evaluateSignals } from '../../../src/scoring/signals/index.js';
import { buildSparseIndex } from '../../../src/scoring/sparse-index.js';
import { parseAll, parserFor } from '../../../src/transcript/index.js';

function score(file: string, format: string) {
  const text = readFileSync(new URL(`../../fixtures/agent-cli-samples/${file}`, import.meta.url), 'utf8');
  const parsed = parseAll(parserFor(format), text, Date.UTC(2026, 10, 30, 2, 31));
  const interactions = classifyInteractions(groupInteractions(parsed.events));
  return {
    interactions,
    signals: evaluateSignals(interactions),
    index: buildSparseIndex(interactions, { scenarioKey: 's', agentName: format }),
  };
}
const tools = (r: ReturnType<typeof score>) => r.interactions.filter((ix) => ix.type === 'tool');

describe('real CLI transcripts', () => {
  it.each([
    ['claude-stream.ndjson', 'claude', 'Bash'],
    ['codex-exec.ndjson', 'codex', undefined],
    ['gemini-stream.ndjson', 'gemini', 'run_shell_command'],
    ['qwen-stream.ndjson', 'qwen', 'run_shell_command'],
    ['opencode-run.ndjson', 'opencode', 'bash'],
  ])('%s: reasoning, one successful shell call in the environment, reasoning', (file, format, toolName) => {
    const r = score(file, format);
    expect(r.interactions.map((ix) => ix.type)).toEqual(['reasoning', 'tool', 'reasoning']);
    const [shell] = tools(r);
    if (toolName) expect(shell!.tool!.name).toBe(toolName);
    expect(shell).toMatchObject({ categories: ['environment'], outcome: 'ok', toolKind: 'shell' });
    expect(r.index).toMatch(/^#2 +env +tool +\S+\(command: .*echo hello > out\.txt && ls.*\) -> ok /m);
  });

  it.each([
    ['claude-stream-failed-command.ndjson', 'claude'],
    ['codex-exec-failed-command.ndjson', 'codex'],
  ])('%s: the failing command is an error with its exit code', (file, format) => {
    const [shell] = tools(score(file, format));
    expect(shell).toMatchObject({ outcome: 'error', failure: { kind: 'exit_code', exitCode: 2 } });
  });

  it('claude permission denial is an unambiguous failure', () => {
    const r = score('claude-stream-permission-denied.ndjson', 'claude');
    expect(tools(r)[0]).toMatchObject({ outcome: 'error', failure: { kind: 'permission_denied' } });
    const success = r.signals.audits.find(
      (a) => a.interactionId === tools(r)[0]!.id && a.success !== undefined,
    );
    expect(success).toMatchObject({ success: 0, unambiguous: true });
  });

  it('gemini reports a failing command as success: the signal asks a judge instead of trusting it', () => {
    const r = score('gemini-stream-failed-command.ndjson', 'gemini');
    const [shell] = tools(r);
    expect(shell!.outcome).toBe('ok');
    expect(r.signals.needsJudgement).toContainEqual(
      expect.objectContaining({ interactionId: shell!.id, category: 'environment', fields: ['success'] }),
    );
  });

  it.each([
    ['claude-stream-http500.ndjson', 'claude'],
    ['opencode-run-http500.ndjson', 'opencode'],
  ])('%s: the provider error is an agent error interaction', (file, format) => {
    const r = score(file, format);
    expect(r.interactions.filter((ix) => ix.type === 'error')).not.toHaveLength(0);
    expect(r.interactions.every((ix) => ix.type !== 'error' || ix.categories[0] === 'agent')).toBe(true);
  });
});
