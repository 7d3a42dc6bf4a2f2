/**
 * An agent CLI as judge, through its adapter. Each call gets a fresh temp workspace and HOME holding only
 * the prompt file (nothing from the project, no copied logins); the environment is the minimal job
 * environment plus the adapter's own provider variables and the judge agent's `env`. The prompt is
 * written to a file the agent is told to read — never passed on the command line.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentAdapter } from '../../adapters/types.js';
import type { ResolvedAgent } from '../../config/types.js';
import { jobSandbox } from '../../exec/bwrap.js';
import { buildAgentEnv } from '../../exec/env.js';
import { createWorkspace, removeWorkspace } from '../../exec/workspace.js';
import type { ErrorClass } from '../../transcript/model.js';
import { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS, sleep } from './http.js';
import { JudgeError, type JudgeClient, type JudgeReply, type JudgeRequest } from './types.js';

export const AGENT_PROMPT_FILE = 'AXIS_JUDGE_PROMPT.md';
export const AGENT_INSTRUCTION =
  `Read the file ${AGENT_PROMPT_FILE} in the current directory and do exactly what it asks. ` +
  'Do not change any file. Your final answer must be only the JSON object it asks for.';

/** Agent failures worth another attempt; auth and quota problems are not. */
const RETRYABLE: ReadonlySet<ErrorClass> = new Set([
  'rate_limit',
  'network',
  'timeout',
  'api_error',
  'crash',
]);

export interface AgentJudgeOptions {
  agent: ResolvedAgent;
  adapter: AgentAdapter;
  timeoutMs: number;
  maxRetries: number;
  baseDelayMs?: number;
  /** Host variables the provider variables are read from; default process.env. */
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** Extra values, e.g. provider variables pointing at the simulator. */
  env?: Record<string, string>;
}

/**
 * The judge agent's identity for the cache: its whole entry but the scenario filter. Its command, args or
 * env choose the model as surely as `model` does; the id is only ever hashed, so env values stay unwritten.
 */
function agentCacheId(agent: ResolvedAgent): string {
  const { scenarios: _scenarios, ...entry } = agent;
  return `agent|${JSON.stringify(entry)}`;
}

export function createAgentJudge(opts: AgentJudgeOptions): JudgeClient {
  const { agent } = opts;
  return {
    provider: 'agent',
    model: agent.model ?? agent.name,
    label: `agent ${agent.name}`,
    cacheId: agentCacheId(agent),
    async complete(req): Promise<JudgeReply> {
      let lastReason = '';
      for (let attempt = 0; ; attempt++) {
        if (req.signal?.aborted) throw new JudgeError('judge call cancelled', attempt);
        const outcome = await runOnce(opts, req);
        if (outcome.ok) return { ...outcome.reply, attempts: attempt + 1 };
        lastReason = outcome.reason;
        if (!outcome.retryable || attempt >= opts.maxRetries) {
          const tries = attempt + 1;
          throw new JudgeError(`${lastReason} (${tries} attempt${tries === 1 ? '' : 's'})`, tries);
        }
        const delay = Math.min(
          DEFAULT_MAX_DELAY_MS,
          (opts.baseDelayMs ?? DEFAULT_BASE_DELAY_MS) * 2 ** attempt,
        );
        await sleep(delay, req.signal);
      }
    },
  };
}

type Outcome =
  { ok: true; reply: Omit<JudgeReply, 'attempts'> } | { ok: false; retryable: boolean; reason: string };

/** The whole conversation as one document: system text, then each message under its role. */
export function promptDocument(req: JudgeRequest): string {
  const parts = [req.system.trim(), ''];
  for (const m of req.messages)
    parts.push(`## ${m.role === 'user' ? 'Request' : 'Your earlier answer'}`, '', m.content, '');
  return parts.join('\n');
}

async function runOnce(opts: AgentJudgeOptions, req: JudgeRequest): Promise<Outcome> {
  const ws = await createWorkspace({ prefix: 'axis-judge-' });
  try {
    await writeFile(join(ws.work, AGENT_PROMPT_FILE), promptDocument(req));
    const env = buildAgentEnv({
      home: ws.home,
      tmpDir: ws.tmp,
      hostEnv: opts.hostEnv,
      passthrough: opts.env ? [] : opts.adapter.providerEnv,
      values: { ...opts.agent.env, ...opts.env },
    });
    const controller = new AbortController();
    const signal = req.signal ? AbortSignal.any([req.signal, controller.signal]) : controller.signal;
    const judge = () =>
      opts.adapter.run({
        agent: opts.agent,
        prompt: AGENT_INSTRUCTION,
        workDir: ws.work,
        homeDir: ws.home,
        tmpDir: ws.tmp,
        env,
        mcpServers: {},
        skills: [],
        timeoutMs: opts.timeoutMs,
        signal,
      });
    // Under settings.sandbox "bwrap" the judge gets a sandbox of its own, never the finished job's
    // (whose private /tmp hides this workspace): it writes only here, and reads what the job could.
    const job = jobSandbox.getStore();
    const transcript = job
      ? await jobSandbox.run({ writable: [ws.root], readable: job.readable ?? [] }, judge)
      : await judge();
    if (transcript.error) {
      const cls = transcript.error.class;
      return {
        ok: false,
        retryable: RETRYABLE.has(cls),
        reason: `judge agent ${opts.agent.name} failed (${cls}): ${transcript.error.message}`,
      };
    }
    if (transcript.exitCode !== null && transcript.exitCode !== 0 && !transcript.result)
      return {
        ok: false,
        retryable: true,
        reason: `judge agent ${opts.agent.name} exited with code ${transcript.exitCode}`,
      };
    return {
      ok: true,
      reply: {
        text: transcript.result ?? '',
        model: transcript.model ?? opts.agent.model ?? opts.agent.name,
        usage: {
          input: transcript.usage.input + transcript.usage.cacheReadInput,
          output: transcript.usage.output,
        },
        ...(transcript.costUsd !== undefined ? { costUsd: transcript.costUsd } : {}),
      },
    };
  } catch (err) {
    return {
      ok: false,
      retryable: false,
      reason: `judge agent ${opts.agent.name} could not run: ${String(err)}`,
    };
  } finally {
    await removeWorkspace(ws, () => {});
  }
}
