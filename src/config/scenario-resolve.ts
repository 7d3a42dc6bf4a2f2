/**
 * One scenario's data (already shape-checked by the zod schema) → resolved scenarios: rules that span
 * fields, variants expanded, criteria weights resolved, defaults filled. Pure apart from checking which
 * tape files and skill folders exist (scenario-needs.ts notes what is missing).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { duplicateLabels } from './criterion-labels.js';
import { keyFolderProblem } from './file-names.js';
import { closest, joinPath, type PathMessage } from './issues.js';
import { resolveNetwork, variantNetwork } from './network.js';
import { noteNeeds } from './scenario-needs.js';
import { skillSourceIssues } from './skill-sources.js';
import type {
  CheckConfig,
  LifecycleActionConfig,
  McpServerConfig,
  ScenarioConfig,
  ScenarioVariantConfig,
} from './schema.js';
import type { Check, Criterion, LifecycleAction, Limits, McpServer, ResolvedScenario } from './types.js';
import { resolveWeights } from './weights.js';

export interface ScenarioContext {
  /** Path-derived key (files) or declared key (inline). */
  key: string;
  /** Absolute path of the file; undefined for inline scenarios. */
  file?: string;
  /** Prefix for issue paths: '' for files, `scenarios[3]` for inline scenarios in the config. */
  pathPrefix: string;
  configDir: string;
  /** The project's config dir (holding the skills cache), when configDir is a remote's checkout. */
  projectDir?: string;
  tapesDir: string;
  scenarioLimits: Limits & { time_minutes: number };
  /** Agent names a scenario's `agents` filter may use (adapters and configured names); unset = no check. */
  knownAgents?: readonly string[];
  /** Simulate is on: a missing tape file is noted on the scenario (`missingTape`). */
  requireTapes?: boolean;
  /** The file a `missingTape` names, as issues show it (the scenario file, or the config for inline ones). */
  issueFile?: string;
}

const TAPE_EXTENSIONS = ['.json', '.ts', '.mts', '.js', '.mjs'];

/** A `run_script` action's time limit when it sets none, in seconds (docs/scenarios.md). */
export const DEFAULT_SCRIPT_TIMEOUT_S = 180;

export function resolveLifecycle(actions: readonly LifecycleActionConfig[] | undefined): LifecycleAction[] {
  return (actions ?? []).map((a) =>
    a.action === 'run_script'
      ? { action: 'run_script', command: a.command, timeout: a.timeout ?? DEFAULT_SCRIPT_TIMEOUT_S }
      : { ...a },
  );
}

export function resolveMcp(servers: Record<string, McpServerConfig> | undefined): Record<string, McpServer> {
  return { ...(servers ?? {}) } as Record<string, McpServer>;
}

function normalizeCheck(c: CheckConfig): Check {
  if ('run' in c) return { kind: 'run', run: c.run, expect_exit: c.expect_exit ?? 0 };
  if ('exists' in c) return { kind: 'file_exists', file: c.file, exists: c.exists };
  if ('contains' in c) return { kind: 'file_contains', file: c.file, contains: c.contains };
  if ('matches' in c) return { kind: 'file_matches', file: c.file, matches: c.matches };
  if ('result_matches' in c) return { kind: 'result_matches', result_matches: c.result_matches };
  const h = c.http;
  const http: Extract<Check, { kind: 'http' }>['http'] = {
    url: h.url,
    status: h.status ?? 200,
    method: h.method ?? 'GET',
  };
  if (h.contains !== undefined) http.contains = h.contains;
  return { kind: 'http', http };
}

export function checkLabel(check: Check): string {
  switch (check.kind) {
    case 'run':
      return `\`${check.run}\` exits with ${check.expect_exit}`;
    case 'file_exists':
      return check.exists ? `${check.file} exists` : `${check.file} does not exist`;
    case 'file_contains':
      return `${check.file} contains ${JSON.stringify(check.contains)}`;
    case 'file_matches':
      return `${check.file} matches ${check.matches}`;
    case 'result_matches':
      return `final answer matches ${check.result_matches}`;
    case 'http':
      return `${check.http.method} ${check.http.url} returns ${check.http.status}${
        check.http.contains !== undefined ? ` with ${JSON.stringify(check.http.contains)}` : ''
      }`;
  }
}

type Fields = Omit<ScenarioVariantConfig, 'name'>;

function judgeList(fields: Fields): { check: string; weight?: number }[] {
  const judge = fields.judge ?? fields.rubric;
  if (judge === undefined) return [];
  return typeof judge === 'string' ? [{ check: judge }] : judge;
}

function criteriaOf(fields: Fields, where: string, issues: PathMessage[]): Criterion[] | undefined {
  const judge = judgeList(fields);
  const checks = (fields.checks ?? []).map((c) => ({ raw: c, check: normalizeCheck(c) }));
  const judgeName = fields.judge !== undefined ? 'judge' : 'rubric';
  const labels = [...judge.map((_, i) => `${judgeName}[${i}]`), ...checks.map((_, i) => `checks[${i}]`)];
  const declared = [...judge.map((j) => j.weight), ...checks.map((c) => c.raw.weight)];
  const result = resolveWeights(declared, labels);
  if (!result.ok) {
    issues.push({ path: declared.length === 0 ? joinPath(where, 'judge') : where, message: result.message });
    return undefined;
  }
  const criteria: Criterion[] = judge.map((j, i) => ({
    kind: 'judge',
    index: i,
    label: j.check,
    weight: result.weights[i]!,
    check: j.check,
  }));
  checks.forEach((c, i) => {
    criteria.push({
      kind: 'check',
      index: i,
      label: c.raw.name ?? checkLabel(c.check),
      weight: result.weights[judge.length + i]!,
      check: c.check,
    });
  });
  const named = checks.map((c, i) => ({ label: criteria[judge.length + i]!.label, named: !!c.raw.name }));
  issues.push(
    ...duplicateLabels(
      judge.map((j) => j.check),
      named,
      where,
      judgeName,
    ),
  );
  return criteria;
}

function tapeFor(key: string, baseKey: string, explicit: string | undefined, ctx: ScenarioContext): string {
  if (explicit) return resolve(ctx.file ? dirname(ctx.file) : ctx.configDir, explicit);
  for (const k of key === baseKey ? [key] : [key, baseKey]) {
    for (const ext of TAPE_EXTENSIONS) {
      const candidate = join(ctx.tapesDir, `${k}${ext}`);
      if (existsSync(candidate)) return candidate;
    }
  }
  return join(ctx.tapesDir, `${key}.json`);
}

export function resolveScenario(
  data: ScenarioConfig,
  ctx: ScenarioContext,
): { scenarios: ResolvedScenario[]; issues: PathMessage[] } {
  const r: Resolving = {
    data,
    ctx,
    variants: data.variants ?? [],
    issues: [],
    at: (p: string) => joinPath(ctx.pathPrefix, p),
  };
  checkKey(r);
  checkJudgeAlias(data, r.at(''), r.issues);
  checkAgents(r, data.agents, ctx.pathPrefix);
  r.issues.push(...skillSourceIssues(data.skills, r.at('skills'), ctx.configDir));
  checkVariants(r);
  checkNetworkPorts(r);
  const out = buildScenarios(r);
  const { issues } = r;
  return { scenarios: issues.length > 0 ? [] : out, issues: uniqueIssues(issues) };
}

/** One {@link resolveScenario} call: its input and the problems found so far. */
interface Resolving {
  data: ScenarioConfig;
  ctx: ScenarioContext;
  variants: ScenarioVariantConfig[];
  issues: PathMessage[];
  /** An issue path inside this scenario. */
  at: (p: string) => string;
}

function checkKey({ data, ctx, issues, at, variants }: Resolving): void {
  if (ctx.file && data.key !== undefined && data.key !== ctx.key) {
    issues.push({
      path: at('key'),
      message: `expected ${JSON.stringify(ctx.key)} (the key derived from the file path) or no key, found ${JSON.stringify(data.key)}`,
    });
  }
  if (ctx.key.includes('@')) {
    issues.push({
      path: at(ctx.file ? '' : 'key'),
      message: `scenario keys may not contain "@" (reserved for variants), found ${JSON.stringify(ctx.key)}`,
    });
  }
  if (ctx.key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    issues.push({
      path: at(ctx.file ? '' : 'key'),
      message: `expected folder names separated by "/" (each part is a folder in the report; none may be empty, "." or ".."), found ${JSON.stringify(ctx.key)}`,
    });
  }
  const long =
    variants.length === 0 &&
    keyFolderProblem(ctx.key, at(ctx.file ? '' : 'key'), "this scenario's runs", 'shorten the key');
  if (long) issues.push(long);
}

function checkJudgeAlias(f: Fields, where: string, issues: PathMessage[]): void {
  if (f.judge !== undefined && f.rubric !== undefined) {
    issues.push({
      path: joinPath(where, 'rubric'),
      message: 'expected either "judge" or its legacy alias "rubric", found both',
    });
  }
}

function checkAgents({ ctx, issues }: Resolving, list: readonly string[] | undefined, where: string): void {
  if (!list || !ctx.knownAgents) return;
  list.forEach((name, i) => {
    const lower = name.toLowerCase();
    if (picomatch.scan(lower).isGlob || ctx.knownAgents!.includes(lower)) return;
    const guess = closest(lower, ctx.knownAgents!);
    issues.push({
      path: joinPath(where, `agents[${i}]`),
      message: `unknown agent ${JSON.stringify(name)}${guess ? `; did you mean "${guess}"?` : ''} (known: ${ctx.knownAgents!.join(', ')})`,
    });
  });
}

/** Each variant's judge alias and agents, and a name no earlier variant has. */
function checkVariants(r: Resolving): void {
  const { variants, issues, at } = r;
  const seen = new Map<string, number>();
  variants.forEach((v, i) => {
    checkJudgeAlias(v, at(`variants[${i}]`), issues);
    checkAgents(r, v.agents, at(`variants[${i}]`));
    issues.push(...skillSourceIssues(v.skills, at(`variants[${i}].skills`), r.ctx.configDir));
    const long = keyFolderProblem(
      `${r.ctx.key}@${v.name}`,
      at(`variants[${i}].name`),
      "this variant's runs",
      'shorten the file or variant name',
    );
    if (long) issues.push(long);
    const first = seen.get(v.name);
    if (first !== undefined) {
      issues.push({
        path: at(`variants[${i}].name`),
        message: `duplicate variant name "${v.name}" (also variants[${first}])`,
      });
    } else seen.set(v.name, i);
  });
}

/** `ports` open host ports to a loopback job; beside mode "host" (everything reachable) they do nothing. */
function checkNetworkPorts({ data, variants, issues, at }: Resolving): void {
  const own: [ScenarioConfig['network'], string][] = [
    [data.network, 'network.ports'],
    ...variants.map((v, i): [ScenarioConfig['network'], string] => [
      v.network,
      `variants[${i}].network.ports`,
    ]),
  ];
  for (const [network, path] of own)
    if (typeof network === 'object' && network.mode === 'host' && (network.ports?.length ?? 0) > 0)
      issues.push({
        path: at(path),
        message:
          'only used with mode "loopback" (the host network reaches every port); remove them or set "mode": "loopback"',
      });
}

/** The scenario, or one per variant; none for a variant whose criteria are wrong. */
function buildScenarios(r: Resolving): ResolvedScenario[] {
  const { data, variants, at } = r;
  const out: ResolvedScenario[] = [];
  if (variants.length === 0) {
    const s = buildScenario(r, data, at(''));
    if (s) out.push(s);
  } else {
    variants.forEach((v, i) => {
      const { name, ...overrides } = v;
      const hasCriteria =
        overrides.judge !== undefined || overrides.rubric !== undefined || overrides.checks !== undefined;
      const fields = variantFields(data, overrides);
      const s = buildScenario(r, fields, at(hasCriteria ? `variants[${i}]` : ''), name);
      if (s) out.push(s);
    });
  }
  return out;
}

/** A variant's fields over the scenario's. */
function variantFields(data: ScenarioConfig, overrides: Fields): Fields {
  return {
    ...data,
    ...definedOnly(overrides),
    // judge and its alias rubric are one field: the variant's wins over either of the parent's.
    judge: overrides.judge ?? overrides.rubric ?? data.judge ?? data.rubric,
    rubric: undefined,
    checks: overrides.checks ?? data.checks,
    // Objects of independent fields merge, the variant winning per field, as thresholds do.
    limits: { ...definedOnly(data.limits ?? {}), ...definedOnly(overrides.limits ?? {}) },
    mcp_servers: { ...(data.mcp_servers ?? {}), ...(overrides.mcp_servers ?? {}) },
    // The variant's mode; the ports of both (and, when the job runs, the settings') apply.
    network: variantNetwork(data.network, overrides.network),
  };
}

/** `where` is where the criteria's problems are reported. */
function buildScenario(
  r: Resolving,
  fields: Fields,
  where: string,
  variant?: string,
): ResolvedScenario | undefined {
  const { data, ctx, issues } = r;
  const criteria = criteriaOf(fields, where, issues);
  if (!criteria) return undefined;
  const key = variant ? `${ctx.key}@${variant}` : ctx.key;
  const scenario: ResolvedScenario = {
    key,
    baseKey: ctx.key,
    name: variant ? `${data.name} [${variant}]` : data.name,
    tags: [...new Set(data.tags ?? [])],
    prompt: fields.prompt ?? data.prompt,
    criteria,
    skip: fields.skip ?? false,
    setup: resolveLifecycle(fields.setup),
    teardown: resolveLifecycle(fields.teardown),
    skills: [...(fields.skills ?? [])],
    mcp_servers: resolveMcp(fields.mcp_servers),
    artifacts: [...(fields.artifacts ?? [])],
    limits: { ...ctx.scenarioLimits, ...definedOnly(fields.limits ?? {}) },
    tape: tapeFor(key, ctx.key, fields.tape, ctx),
  };
  noteNeeds(scenario, ctx, {
    tape: setAt(r, 'tape', variant),
    skills: setAt(r, 'skills', variant),
    scenario: r.at(''),
    explicitTape: fields.tape !== undefined,
  });
  addOptionalFields(r, scenario, fields, variant);
  return scenario;
}

/** Where a field was set: the variant that sets it, else the scenario. */
function setAt({ variants, at }: Resolving, field: 'tape' | 'skills', variant?: string): string {
  const i = variant ? variants.findIndex((v) => v.name === variant) : -1;
  return i >= 0 && variants[i]![field] !== undefined ? at(`variants[${i}]`) : at('');
}

/** The fields a resolved scenario has only when they are set. */
function addOptionalFields(
  { data, ctx }: Resolving,
  scenario: ResolvedScenario,
  fields: Fields,
  variant?: string,
): void {
  const network = resolveNetwork(fields.network);
  if (network) scenario.network = network;
  if (variant) scenario.variant = variant;
  if (data.description !== undefined) scenario.description = data.description;
  if (ctx.file) scenario.file = ctx.file;
  const thresholds = { ...definedOnly(data.thresholds ?? {}), ...definedOnly(fields.thresholds ?? {}) };
  if (Object.keys(thresholds).length > 0) scenario.thresholds = thresholds;
  if (fields.agents) scenario.agents = fields.agents.map((a) => a.toLowerCase());
}

/** Variants that inherit a broken field would repeat its problem once each. */
function uniqueIssues(issues: PathMessage[]): PathMessage[] {
  return issues.filter((i, n) => issues.findIndex((j) => j.path === i.path && j.message === i.message) === n);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
