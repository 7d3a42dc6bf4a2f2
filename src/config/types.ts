/**
 * Resolved (validated, defaults filled, paths absolute) config and scenarios: what the rest of AXIS reads.
 * The input types users write (AxisConfig, ScenarioConfig, ...) are inferred from the zod schema in schema.ts.
 */
import type { AxisConfig, InlineScenarioConfig } from './schema.js';

export interface RunScriptAction {
  action: 'run_script';
  command: string;
  /** Seconds; default 180. */
  timeout: number;
}

export interface CopyAction {
  action: 'copy';
  /** Glob relative to the config directory, or to `root`. */
  match: string;
  /** Path relative to the workspace. */
  destination: string;
  /**
   * A remote scenario's checkout: `match` resolves in it, and every file copied must stay inside it
   * (symlinks included). Absent: the config directory.
   */
  root?: string;
}

export type LifecycleAction = RunScriptAction | CopyAction;

export type McpServer =
  | { type: 'stdio'; command: string; args?: string[]; env?: Record<string, string> }
  | { type: 'http'; url: string; headers?: Record<string, string> };

export interface ResolvedAgent {
  /** Identity used in reports and filters: `name`, or `agent`, or `agent|<sanitized model>`; lowercase. */
  name: string;
  /** Adapter name (built-in or a key of `adapters`); lowercase. */
  agent: string;
  model?: string;
  flags: Record<string, string | boolean>;
  /** Explicit variables set for this agent's process. */
  env: Record<string, string>;
  /** Scenario filter (keys or globs); undefined = all. */
  scenarios?: string[];
  skills: string[];
  command?: string;
  args: string[];
  /** The ACP preset this `acp` entry was written as (`claude-acp`, `goose`, ...). */
  preset?: string;
  /** Only for agent "command" (default "stdin"). */
  prompt_via?: 'stdin' | 'arg';
  /** Only for agent "command" (default "text"). */
  output?: 'ndjson' | 'text';
  /** Absolute module path when `agent` names a custom adapter from `adapters`. */
  module?: string;
}

export interface Limits {
  time_minutes?: number;
  tokens?: number;
}

export interface ScoringWeights {
  goal_achievement: number;
  environment: number;
  service: number;
  agent: number;
}

/** Minimums a pair must reach; `axis run` exits 1 below any (src/compare/thresholds.ts). */
export interface Minimums {
  axis_score?: number;
  goal_achievement?: number;
  environment?: number;
  service?: number;
  agent?: number;
  /** 0..1: completed ÷ (runs − unscored − cancelled). */
  reliability?: number;
}

export interface Thresholds extends Minimums {
  /** Points a score may drop below its baseline before it counts as a regression; default 1. */
  baseline_tolerance: number;
}

export interface ResolvedSettings {
  concurrency: number;
  runs: number;
  scoring_weights: ScoringWeights;
  /** `api_failures`: minutes of consecutive failed provider calls before a job is stopped. */
  limits: { run: Limits; scenario: Limits & { time_minutes: number }; api_failures: number };
  thresholds: Thresholds;
  /** false, or the absolute tapes directory the simulator reads. */
  simulate: false | { tapes: string };
  remotes: {
    maxDepth: number;
    /** Remote TypeScript/JavaScript may run: every remote (true), none (false), or these URLs. */
    trust_code: boolean | string[];
  };
  /** `bwrap`: job processes run under bubblewrap (read-only host filesystem). */
  sandbox: 'none' | 'bwrap';
  /** The agent's network (a scenario's own `network` wins; see {@link NetworkPolicy}). */
  network: NetworkPolicy;
}

/**
 * `network`: `host` leaves the agent on the host's network; `loopback` gives it a network namespace with
 * only loopback, where the simulator and these host 127.0.0.1 `ports` (plus the ones the job's own
 * configuration names) are forwarded in.
 */
export interface NetworkPolicy {
  mode: 'host' | 'loopback';
  ports: number[];
}

export interface ResolvedJudge {
  provider: 'anthropic' | 'openai' | 'agent';
  model?: string;
  base_url?: string;
  api_key_env?: string;
  /**
   * Judge agents for provider "agent": one from `judge.agent`, or upstream's `judging.agents` list
   * (use the first whose adapter differs from the agent under test, else the first).
   */
  agents: ResolvedAgent[];
  max_retries: number;
  timeout_seconds: number;
}

/** The remote checkout a source was found in. */
export interface RemoteOrigin {
  /** The git source as written in the parent config. */
  spec: string;
  /** Absolute checkout directory. */
  root: string;
  /** `settings.remotes.trust_code` allows its TypeScript/JavaScript to run. */
  trusted: boolean;
  commit: string;
}

/** `spec` is the string as written; `at` is where it was declared (`scenarios[2]`), for messages. */
export type ScenarioSource =
  | { kind: 'dir'; spec: string; at: string; path: string; remote?: RemoteOrigin }
  | { kind: 'file'; spec: string; at: string; path: string; remote?: RemoteOrigin }
  | { kind: 'glob'; spec: string; at: string; pattern: string; base: string; remote?: RemoteOrigin }
  /** `dir` is the checkout: `<configDir>/.axis/remotes/<host>/<owner>/<repo>@<ref>`. */
  | { kind: 'git'; spec: string; at: string; url: string; ref?: string; dir: string }
  | { kind: 'inline'; index: number; scenario: InlineScenarioConfig };

export interface ResolvedConfig {
  name?: string;
  scenarios: ScenarioSource[];
  agents: ResolvedAgent[];
  settings: ResolvedSettings;
  /** Host variable names passed through, and explicit values set for every agent. */
  env: { pass: string[]; values: Record<string, string> };
  mcp_servers: Record<string, McpServer>;
  /** `classify`: tool-name glob → category, in the config's order (first match wins). */
  classify: Record<string, 'environment' | 'service' | 'agent'>;
  skills: string[];
  artifacts: string[];
  /** Custom adapter name → absolute module path. */
  adapters: Record<string, string>;
  /** Undefined when the config names no judge (the scoring stage picks its default). */
  judge?: ResolvedJudge;
  beforeAll: LifecycleAction[];
  afterAll: LifecycleAction[];
  /** Names of the profiles the config declares. */
  profiles: string[];
}

export type Check =
  | { kind: 'run'; run: string; expect_exit: number }
  | { kind: 'file_exists'; file: string; exists: boolean }
  | { kind: 'file_contains'; file: string; contains: string }
  | { kind: 'file_matches'; file: string; matches: string }
  | { kind: 'result_matches'; result_matches: string }
  | { kind: 'http'; http: { url: string; status: number; method: string; contains?: string } };

export type Criterion =
  | { kind: 'judge'; index: number; label: string; weight: number; check: string }
  | { kind: 'check'; index: number; label: string; weight: number; check: Check };

export interface ResolvedScenario {
  /** `cms/create-post`, or `cms/create-post@variant`. */
  key: string;
  /** Key without the `@variant` part. */
  baseKey: string;
  variant?: string;
  /** Display name; variants read `Name [variant]`. */
  name: string;
  description?: string;
  /** Labels the `-t/--tag` filter selects by; variants share their scenario's tags. */
  tags: string[];
  /** Absolute path of the defining file; undefined for inline scenarios. */
  file?: string;
  prompt: string;
  /** Judge checks and deterministic checks with resolved weights (judge checks first). */
  criteria: Criterion[];
  skip: boolean;
  setup: LifecycleAction[];
  teardown: LifecycleAction[];
  /** Agent filter (lowercase names or globs); undefined = all. */
  agents?: string[];
  skills: string[];
  mcp_servers: Record<string, McpServer>;
  artifacts: string[];
  /**
   * The scenario's own `network` with its variant's over it (the variant's mode, the ports of both);
   * the job's is this over `settings.network` (config/network.ts).
   */
  network?: NetworkPolicy;
  /** Field-wise merge of `settings.limits.scenario` and the scenario's own `limits`. */
  limits: Limits & { time_minutes: number };
  /** The scenario's own minimums (its variant's win); `settings.thresholds` fill in the rest at gate time. */
  thresholds?: Minimums;
  /** Absolute path of the simulator tape (explicit `tape`, else `<tapes>/<key>.json`, variants fall back). */
  tape: string;
  /**
   * Under simulate, the problem when `tape` does not exist (a skipped scenario has none): a config error
   * only when a run or `axis validate` selects the scenario, so unselected ones need no tape.
   */
  missingTape?: { file: string; path: string; message: string };
  /** Local skill folders of `skills` that do not exist: reported, as `missingTape`, when selected. */
  missingSkills?: SkillIssue[];
}

export interface LoadedConfig {
  /** Resolved: profile applied, defaults filled. */
  config: ResolvedConfig;
  /** The file's config as validated, before any profile. */
  baseConfig: AxisConfig;
  configPath: string;
  configDir: string;
  profile?: string;
  /** Every scenario (variants expanded, skipped ones included), sorted by key. */
  scenarios: ResolvedScenario[];
  /**
   * Things loading chose not to do and the user should know about (a helper module skipped, remote
   * code not run without opt-in); shown by `axis validate` and `axis run`, never an error.
   */
  notices: string[];
  /** The skill sources remotes' configs add that the run could not install (config/remotes.ts). */
  missingSkills?: SkillIssue[];
}

/** A skill source the run could not install, where it is written; `fetched`: its cached checkout's. */
export interface SkillIssue {
  file: string;
  path: string;
  message: string;
  fetched?: true;
}
