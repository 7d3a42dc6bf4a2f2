/**
 * The contract between the runner and an agent adapter. One adapter per agent kind; built-ins live in
 * this folder (one file each), custom ones are modules listed under `adapters` in the config and export
 * an object implementing `AgentAdapter` (default export, or a named `adapter` export).
 */
import type { McpServer, ResolvedAgent } from '../config/types.js';
import type { JobSpace } from '../exec/job-space.js';
import type { TokenUsage, Transcript } from '../transcript/model.js';

export interface ResolvedSkill {
  /** Skill name (directory name it is installed under). */
  name: string;
  /** Absolute directory that contains SKILL.md. */
  dir: string;
}

export interface AdapterRunContext {
  agent: ResolvedAgent;
  prompt: string;
  /** The agent's cwd (the job's `work/`). */
  workDir: string;
  /** The agent's HOME and config root (the job's `home/`). */
  homeDir: string;
  /** The job's temp dir for TMPDIR. */
  tmpDir: string;
  /**
   * Moves the runner's spare file (zeroed, mode 0600, in the workspace, nothing else refers to it) to
   * `target`, a file the adapter is about to write, instead of it creating one; false when there is
   * none or the move failed (the spare then stays for a later file). Creating a file in a directory
   * where files were just removed costs up to a millisecond on ext4 without a journal
   * (docs/performance.md); `writeFiles` uses it.
   */
  useSpareFile?: (target: string) => boolean;
  /**
   * The minimal environment the runner built for this job (PATH, locale, HOME/XDG into homeDir, the
   * config's passthrough and explicit values, and the provider variables from `providerEnv`). Adapters add
   * their own isolation variables on top; they never read process.env directly.
   */
  env: Record<string, string>;
  mcpServers: Record<string, McpServer>;
  skills: ResolvedSkill[];
  /** The scenario this job runs; module adapters also get it as upstream AXIS's `input.scenario`. */
  scenario?: { key: string; name: string; prompt: string };
  /**
   * Base for a relative `agent.command` (one containing a slash): the config's directory. Adapters from
   * `getAdapter` fill it in when the caller leaves it out.
   */
  configDir?: string;
  /** Wall-clock limit for the agent process. */
  timeoutMs: number;
  /** Aborted on Ctrl-C, run limits or the job's token limit. */
  signal: AbortSignal;
  /**
   * Every raw stdout line (or protocol message) as it arrives, for `<agent>.raw.ndjson` and --debug;
   * `utf8` is its UTF-8 encoding when the bytes read were that (so the raw log need not encode it);
   * `cut` when the line was longer than the line limit and only its start is here.
   */
  onRawLine?: (line: string, utf8?: Buffer, cut?: boolean) => void;
  /** Live token usage as it grows, so the runner can enforce token limits. */
  onUsage?: (usage: TokenUsage) => void;
  /** stderr chunks, for -v/--debug logging. */
  onStderr?: (chunk: string) => void;
  /** The command about to be spawned (for `-v`; the runner redacts it). */
  onSpawn?: (command: string, args: readonly string[]) => void;
  /**
   * How `preflightAuth` resolved this agent's credentials. A `local_login` lists the login files the
   * adapter copies into `homeDir` before the agent starts; absent means "use what is in env".
   */
  auth?: AuthResolution;
  /**
   * Cap on the agent CLI's own provider-call retries, set through each CLI's setting (opencode has
   * none). Absent: the CLI's default. The runner sets a low cap when it drives the simulator.
   */
  maxRetries?: number;
  /**
   * The job's private /tmp and network namespace: pass it to `spawnAgentProcess` (`space`) or
   * `containedLaunch`, so what the adapter starts gets them. Absent outside a job.
   */
  space?: JobSpace;
}

/** A login file copied from the host HOME into the job HOME (`to` is relative to the job HOME). */
export interface CredentialFile {
  from: string;
  to: string;
  /** Replaces the file's content (a sanitized copy); `from` is then only informative. */
  content?: string;
}

export type AuthResolution =
  | { source: 'env'; variable: string }
  | { source: 'local_login'; files: CredentialFile[] }
  /** The adapter declares no auth requirement. */
  | { source: 'none' };

export interface AuthRequirement {
  /** Any one of these variables satisfies the requirement (API keys are preferred over a local login). */
  envVars: string[];
  /** Detects a local CLI login under the host HOME (laptop use); absent = API key only. */
  detectLocalLogin?: (hostHome: string) => boolean;
  /**
   * The minimal login files to copy into the job HOME when a local login exists (undefined when there
   * is none). Takes precedence over `detectLocalLogin`. `hostEnv` lets it honour e.g. CODEX_HOME.
   */
  localLoginFiles?: (
    hostHome: string,
    hostEnv: Readonly<Record<string, string | undefined>>,
  ) => CredentialFile[] | undefined;
  /** One line telling the user what to set. */
  hint: string;
}

export interface AgentAdapter {
  /** Adapter name as written in `agents[].agent`. */
  name: string;
  acceptsModel: boolean;
  acceptsFlags: boolean;
  /**
   * Host variables this adapter reads when present (API keys, provider base URLs such as
   * ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL). The runner passes exactly these through.
   */
  providerEnv: string[];
  auth?: AuthRequirement;
  /**
   * The provider variables that point this adapter at a model provider served at `baseUrl` (a root
   * without a version segment, e.g. the simulator's URL) with `apiKey`. The runner merges them into the
   * job env in simulate mode; adapters then wire them exactly as they wire a real provider.
   */
  providerEnvFor?(baseUrl: string, apiKey: string): Record<string, string>;
  /**
   * Why `model` cannot reach a real provider with this environment (job env values over the host's),
   * or undefined. Checked before any agent runs when the run is not simulated.
   */
  modelProblem?(model: string, env: Readonly<Record<string, string | undefined>>): string | undefined;
  /** Run the agent once; never rejects for agent-side failures (they go into Transcript.error). */
  run(ctx: AdapterRunContext): Promise<Transcript>;
}
