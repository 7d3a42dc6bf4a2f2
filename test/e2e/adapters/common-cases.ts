/**
 * The cases every built-in CLI adapter must pass (success, failing tool, 401 crash, hang → timeout),
 * registered once per CLI from a small spec of what differs between the CLIs.
 */
import { expect, it } from 'vitest';
import type { ResolvedAgent } from '../../../src/config/types.js';
import type { Tape } from '../../../src/sim/index.js';
import {
  authFaultTape,
  type CliCase,
  type CliReport,
  explain,
  failingToolTape,
  FINAL,
  hangTape,
  MCP_SERVERS,
  PROMPT,
  runCliCase,
  SKILLS,
  successTape,
  toolCalls,
  toolResults,
} from './cli-harness.js';

export interface AdapterSpec {
  agent: ResolvedAgent;
  /** vitest timeout of each case. */
  testTimeoutMs: number;
  /** The adapter's run timeout for the success, failing-tool and crash cases. */
  runTimeoutMs: number;
  /** The adapter's run timeout in the hang case (short: the model never answers). */
  hangTimeoutMs: number;
  success: {
    /** How the title ends, e.g. 'usage is set'. */
    titleEnd: string;
    toolCalls: object[];
    toolResults: object[];
    /** 'input': input tokens are counted; 'total': input + output tokens are. */
    usage: 'input' | 'total';
    /** Further assertions only this CLI makes. */
    check?: (r: CliReport, why: string) => void;
  };
  /** Defaults to the generic wording. */
  failingToolTitle?: string;
  crash: {
    title?: string;
    error: Record<string, unknown>;
    nonZeroExit?: boolean;
    nullResult?: boolean;
  };
  hang?: { nullResult?: boolean };
}

/** One run of the spec's adapter with the shared prompt and a single retry. */
export function runSpec(spec: AdapterSpec, tape: Tape, extra: Partial<CliCase> = {}): Promise<CliReport> {
  return runCliCase({
    agent: spec.agent,
    tape,
    prompt: PROMPT,
    timeoutMs: spec.runTimeoutMs,
    maxRetries: 1,
    ...extra,
  });
}

/** Runs `agent` with the spec's timeouts, the MCP fixture server and the demo skill, listing the home. */
export function runMcpSpec(spec: AdapterSpec, agent: ResolvedAgent, tape: Tape): Promise<CliReport> {
  return runSpec(spec, tape, { agent, mcpServers: MCP_SERVERS, skills: SKILLS, listHome: true });
}

export function commonAdapterCases(spec: AdapterSpec): void {
  const T = spec.testTimeoutMs;

  it(
    `success: the file is written, the tool call and result are in the transcript, ${spec.success.titleEnd}`,
    async () => {
      const r = await runSpec(spec, successTape);
      const t = r.transcript;
      const why = explain(r);
      expect(t.error, why).toBeUndefined();
      expect(t.exitCode, why).toBe(0);
      expect(r.files['out.txt'], why).toBe('hello\n');
      expect(toolCalls(t), why).toMatchObject(spec.success.toolCalls);
      expect(toolResults(t), why).toMatchObject(spec.success.toolResults);
      expect(t.result, why).toBe(FINAL);
      const tokens = spec.success.usage === 'total' ? t.usage.input + t.usage.output : t.usage.input;
      expect(tokens, why).toBeGreaterThan(0);
      spec.success.check?.(r, why);
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );

  it(
    `failing tool: ${spec.failingToolTitle ?? 'the non-zero exit shows as isError with its exit code'}`,
    async () => {
      const r = await runSpec(spec, failingToolTape);
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(toolResults(r.transcript), why).toMatchObject([{ isError: true, exitCode: 2 }]);
    },
    T,
  );

  it(
    `crash: ${spec.crash.title ?? 'a rejected API key ends the run with error class auth'}`,
    async () => {
      const r = await runSpec(spec, authFaultTape);
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject(spec.crash.error);
      if (spec.crash.nonZeroExit) expect(r.transcript.exitCode, why).not.toBe(0);
      if (spec.crash.nullResult) expect(r.transcript.result, why).toBeNull();
    },
    T,
  );

  it(
    'hang: a model that never answers ends in a timeout and the process group is gone',
    async () => {
      // The relaunch kept: the group to end holds the launcher and the CLI it started.
      const r = await runSpec(spec, hangTape, { timeoutMs: spec.hangTimeoutMs, relaunch: true });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'timeout' });
      if (spec.hang?.nullResult) expect(r.transcript.result, why).toBeNull();
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );
}
