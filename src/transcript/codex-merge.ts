/**
 * Codex's two records of one session, merged: `exec --json` output with the tool calls it left out
 * filled in from the session's rollout file (codex-rollout.ts).
 */
import type { ParsedStream, ToolCallEvent, TranscriptEvent } from './model.js';
import { isRecord, rec, shellScript, str } from './util.js';

function callKey(call: ToolCallEvent): string {
  const input = rec(call.input);
  if (call.name === 'shell') return `shell:${shellScript(str(input?.command) ?? '')}`;
  if (call.name === 'apply_patch' && Array.isArray(input?.changes)) {
    const paths = input.changes.filter(isRecord).map((c) => str(c.path) ?? '');
    return `apply_patch:${paths.sort().join('\n')}`;
  }
  if (call.name === 'update_plan' && Array.isArray(input?.items)) {
    return `update_plan:${JSON.stringify(input.items)}`;
  }
  return `${call.name}:${JSON.stringify(call.input)}`;
}

/**
 * Fill in tool calls that `exec --json` left out, using the rollout of the same session.
 * A rollout call counts as present when `--json` has a call with the same name and input (shell commands
 * compared without their `bash -lc` wrapper), matched in order. Missing calls and their results are
 * inserted after the nearest earlier event both sources share (a matched call's result or an identical
 * assistant text). Usage, result, model and duration fall back to the rollout's when --json lacks them.
 */
export function mergeCodexRollout(json: ParsedStream, rollout: ParsedStream): ParsedStream {
  const merged = [...json.events];
  const pending = new Map<string, ToolCallEvent[]>();
  for (const ev of json.events) {
    if (ev.kind !== 'tool_call') continue;
    const key = callKey(ev);
    const list = pending.get(key) ?? [];
    list.push(ev);
    pending.set(key, list);
  }
  const resultOf = new Map<string, TranscriptEvent>();
  for (const ev of json.events) if (ev.kind === 'tool_result') resultOf.set(ev.callId, ev);

  let anchor = -1; // insert after this index of `merged`
  const inserted = new Set<string>();
  const usedTexts = new Set<TranscriptEvent>();
  for (const ev of rollout.events) {
    if (ev.kind === 'tool_call') {
      const match = pending.get(callKey(ev))?.shift();
      if (match) {
        const after = resultOf.get(match.id) ?? match;
        anchor = Math.max(anchor, merged.indexOf(after));
        continue;
      }
      merged.splice(++anchor, 0, ev);
      inserted.add(ev.id);
    } else if (ev.kind === 'tool_result') {
      if (inserted.has(ev.callId)) merged.splice(++anchor, 0, ev);
    } else if (ev.kind === 'text') {
      const idx = merged.findIndex(
        (m, i) => i > anchor && m.kind === 'text' && m.text === ev.text && !usedTexts.has(m),
      );
      if (idx !== -1) {
        usedTexts.add(merged[idx] as TranscriptEvent);
        anchor = idx;
      }
    }
  }

  const out: ParsedStream = { ...json, events: merged };
  const jsonUsage = json.usage;
  if (jsonUsage.input + jsonUsage.output + jsonUsage.cacheReadInput === 0) out.usage = rollout.usage;
  if (out.result === null && !json.error) out.result = rollout.result;
  out.sessionId ??= rollout.sessionId;
  out.model ??= rollout.model;
  out.agentDurationMs ??= rollout.agentDurationMs;
  out.error ??= rollout.error;
  if (out.sessionId === undefined) delete out.sessionId;
  if (out.model === undefined) delete out.model;
  if (out.agentDurationMs === undefined) delete out.agentDurationMs;
  if (out.error === undefined) delete out.error;
  return out;
}
