/**
 * The judge contract: a client answers one tool-less prompt with text. Anthropic and OpenAI-compatible
 * clients talk HTTP; the agent client runs an agent CLI through its adapter. Everything above a client
 * (prompts, JSON validation, repair, cache) is shared.
 */

export type JudgeProvider = 'anthropic' | 'openai' | 'agent';

export interface JudgeMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface JudgeRequest {
  system: string;
  /** Alternating, starting and ending with a user message. */
  messages: JudgeMessage[];
  signal?: AbortSignal;
}

export interface JudgeTokens {
  input: number;
  output: number;
}

export interface JudgeReply {
  text: string;
  /** The model that answered (as the provider reports it, else as configured). */
  model: string;
  usage: JudgeTokens;
  /** When the provider (or the agent CLI) reports it; else computed from the price table. */
  costUsd?: number;
  /** Requests sent for this answer: 1 + transport retries. */
  attempts: number;
}

export interface JudgeClient {
  provider: JudgeProvider;
  model: string;
  /** `anthropic claude-sonnet-4-5`, `openai gpt-4.1 (simulator)`, `agent codex`. */
  label: string;
  /** Identity for the judge cache (provider, model, endpoint); null: never cached. */
  cacheId: string | null;
  /** The job's model simulator (settings.simulate): its answers have no real cost. */
  simulated?: boolean;
  complete(req: JudgeRequest): Promise<JudgeReply>;
}

/** Why a judge call failed after its retries: reported as the run's `unscored` reason. */
export class JudgeError extends Error {
  constructor(
    message: string,
    readonly attempts = 1,
  ) {
    super(message);
    this.name = 'JudgeError';
  }
}
