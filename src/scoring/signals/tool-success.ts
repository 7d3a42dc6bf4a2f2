/**
 * tool-success: did each tool call (and each agent error) succeed, from the evidence the transcript
 * carries — permission denials, HTTP statuses, exit codes, the tool's own error flag.
 * Only evidence that settles the question is marked unambiguous (docs/scoring.md#tool-success).
 */
import { commandWords, shellCommand } from '../classify.js';
import { clean } from '../sparse-index.js';
import type { ClassifiedInteraction } from '../types.js';
import type { Signal, SignalValue } from './signal.js';

/** Commands whose exit code 1 conventionally means "no match" / "differs", not a failure. */
const PROBE_COMMANDS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'diff', 'cmp', 'test', '[', '[[']);

export const toolSuccess: Signal = {
  meta: {
    id: 'tool-success',
    title: 'Tool calls succeed',
    failureTitle: 'Tool calls fail',
    description:
      'Each tool call scores 1 when it completed and 0 when it failed (permission denied, HTTP status ≥ 400, ' +
      'non-zero exit code, or the tool reported an error); agent error events score 0.',
    field: 'success',
  },
  evaluate(interactions) {
    const values: SignalValue[] = [];
    for (const ix of interactions) {
      const v = successOf(ix);
      if (v) values.push(v);
    }
    return { values, patterns: [] };
  },
};

function successOf(ix: ClassifiedInteraction): SignalValue | undefined {
  const id = ix.id;
  if (ix.type === 'reasoning') return undefined;
  if (ix.type === 'error') {
    const what = ix.failure?.detail ?? 'agent error';
    return {
      interactionId: id,
      value: 0,
      unambiguous: true,
      evidence: `${what}: ${clean(ix.summary ?? '', 120)}`,
    };
  }
  if (ix.outcome === 'no_result')
    return {
      interactionId: id,
      value: null,
      unambiguous: false,
      evidence: 'no result was recorded for this call',
    };

  const tool = ix.tool;
  const f = ix.failure;
  if (f) {
    switch (f.kind) {
      case 'permission_denied':
        return { interactionId: id, value: 0, unambiguous: true, evidence: 'permission denied' };
      case 'http_status':
        return { interactionId: id, value: 0, unambiguous: true, evidence: `HTTP ${f.httpStatus}` };
      case 'exit_code':
        return exitCodeValue(id, f.exitCode!, ix);
      default:
        return { interactionId: id, value: 0, unambiguous: true, evidence: 'the tool reported an error' };
    }
  }
  if (tool?.exitCode === 0)
    return { interactionId: id, value: 1, unambiguous: true, evidence: 'exit code 0' };
  if (tool?.httpStatus !== undefined)
    return { interactionId: id, value: 1, unambiguous: true, evidence: `HTTP ${tool.httpStatus}` };
  if (ix.toolKind === 'shell')
    return {
      interactionId: id,
      value: 1,
      unambiguous: false,
      evidence: 'no error reported, but no exit code either: the output may show a failure',
    };
  return { interactionId: id, value: 1, unambiguous: true, evidence: 'completed without error' };
}

/** Exit codes of network clients that name a failed request (curl(1), wget(1), git's fatal 128). */
const NETWORK_EXIT: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  curl: {
    6: 'curl could not resolve the host',
    7: 'curl could not connect',
    22: 'curl got an HTTP error status (≥ 400)',
    28: 'curl timed out',
    35: 'curl TLS handshake failed',
    52: 'curl got an empty reply',
    56: 'curl failed receiving data',
  },
  wget: {
    4: 'wget network failure',
    5: 'wget TLS failure',
    6: 'wget authentication failure',
    8: 'wget got an error response',
  },
  git: { 128: 'git failed (fatal)' },
};

function networkFailure(command: string | undefined, code: number): string | undefined {
  if (command === undefined) return undefined;
  const words = commandWords(command);
  if (words.length !== 1) return undefined; // in a pipeline the exit code may be another command's
  return NETWORK_EXIT[words[0]!]?.[code];
}

function exitCodeValue(id: number, code: number, ix: ClassifiedInteraction): SignalValue {
  if (code === 127)
    return { interactionId: id, value: 0, unambiguous: true, evidence: 'exit code 127: command not found' };
  if (code === 126)
    return {
      interactionId: id,
      value: 0,
      unambiguous: true,
      evidence: 'exit code 126: command not executable',
    };
  if (code > 128 && code <= 128 + 64)
    return {
      interactionId: id,
      value: 0,
      unambiguous: true,
      evidence: `exit code ${code}: killed by signal ${code - 128}`,
    };
  const command = shellCommand(ix.tool?.input);
  const network = networkFailure(command, code);
  if (network)
    return { interactionId: id, value: 0, unambiguous: true, evidence: `exit code ${code}: ${network}` };
  const probe = command === undefined ? undefined : commandWords(command).find((w) => PROBE_COMMANDS.has(w));
  if (code === 1 && probe)
    return {
      interactionId: id,
      value: 1,
      unambiguous: false,
      evidence: `exit code 1 from ${probe} usually means "no match" or "differs", not a failure`,
    };
  return {
    interactionId: id,
    value: 0,
    unambiguous: false,
    evidence: `exit code ${code}: the command reported failure (a judge decides whether the environment was at fault)`,
  };
}
