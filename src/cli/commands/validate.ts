/**
 * `axis validate`: load the config and every scenario, report every problem (exit 2), else print what
 * `axis run` would execute — a readable summary, or the plan as JSON with --json.
 */
import { limitPercent, minimumsFor } from '../../compare/thresholds.js';
import { agentCapabilities } from '../../config/index.js';
import type { Criterion, LoadedConfig, ResolvedAgent, ResolvedScenario } from '../../config/types.js';
import { networkOver } from '../../config/network.js';
import { noScenarioIssues } from '../../config/no-scenarios.js';
import { displayPath } from '../../config/scenarios.js';
import { maskSecretNames } from '../../exec/env.js';
import { shownUrl } from '../../config/sources.js';
import { planJobs, type Plan } from '../../plan/index.js';
import { agentIssues, loadConfigForRun, neededFileIssues } from '../../runner/load-for-run.js';
import { AxisError, ConfigError } from '../../util/errors.js';
import { padEndWidth, textWidth } from '../../util/width.js';
import { redactSecrets, redactText } from '../../report/redacted-error.js';

export interface ValidateOptions {
  config?: string;
  profile?: string;
  scenario?: string;
  agent?: string;
  tag?: string;
  json?: boolean;
  score?: boolean;
  credentials?: boolean;
}

export default async function validate(opts: ValidateOptions): Promise<number> {
  const cwd = process.cwd();
  let loaded: LoadedConfig;
  let plan: Plan;
  const filters = { scenarios: opts.scenario, agents: opts.agent, tags: opts.tag };
  // As `axis run --no-score`: no judge is asked, so its key is not needed.
  const judge = opts.score !== false;
  try {
    loaded = await loadConfigForRun(
      opts.config,
      { ...(opts.profile !== undefined ? { profile: opts.profile } : {}), cwd, judge },
      filters,
    );
    for (const notice of loaded.notices) process.stderr.write(`note: ${notice}\n`);
    const none = noScenarioIssues(loaded, cwd);
    if (none.length) throw new ConfigError(none);
    plan = planJobs(loaded, filters);
    const agents = await agentIssues(loaded, plan, cwd, judge, opts.credentials !== false);
    const problems = [...(await neededFileIssues(loaded, plan, cwd)), ...agents.issues];
    if (problems.length) throw new ConfigError(problems, agents.note);
  } catch (err) {
    if (opts.json && err instanceof AxisError) {
      const issues = err instanceof ConfigError ? err.issues : [{ file: '', path: '', message: err.message }];
      const doc = redactSecrets({ valid: false, issues }, process.env);
      process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      // Already one JSON document on stdout: say it on stderr and exit, without a second `{ error }`.
      process.stderr.write(`${redactText(err.message, process.env)}\n`);
      return err.exitCode;
    }
    throw err;
  }
  process.stdout.write(
    opts.json
      ? `${JSON.stringify(planJson(loaded, plan, cwd), null, 2)}\n`
      : renderSummary(loaded, plan, cwd),
  );
  return 0;
}

const num = (n: number) => String(Math.round(n * 1000) / 1000);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function criteriaText(criteria: readonly Criterion[]): string {
  const parts = criteria.map((c) => `${c.kind} ${num(c.weight)}`);
  return `${criteria.length} ${criteria.length === 1 ? 'criterion' : 'criteria'} (${parts.join(', ')})`;
}

function limitText(l: { time_minutes?: number; tokens?: number }): string {
  const parts = [];
  if (l.time_minutes !== undefined) parts.push(`${num(l.time_minutes)} min`);
  if (l.tokens !== undefined) parts.push(`${l.tokens.toLocaleString('en-US')} tokens`);
  return parts.length ? parts.join(', ') : 'none';
}

function agentText(a: ResolvedAgent): string {
  const parts: string[] = [];
  if (a.model) parts.push(`model: ${a.model}`);
  else if (agentCapabilities(a.agent).acceptsModel) parts.push('model: CLI default');
  if (a.name !== a.agent && !a.name.startsWith(`${a.agent}|`)) parts.push(`agent: ${a.agent}`);
  if (a.command) parts.push(`command: ${a.command}`);
  if (a.module) parts.push('custom adapter');
  return parts.join(' · ');
}

function table(rows: string[][], indent = '  '): string {
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, textWidth(c))), []);
  return rows
    .map((r) =>
      `${indent}${r.map((c, i) => (i === r.length - 1 ? c : padEndWidth(c, widths[i]!))).join('   ')}`.trimEnd(),
    )
    .join('\n');
}

export function renderSummary(loaded: LoadedConfig, plan: Plan, cwd: string): string {
  const { config } = loaded;
  const lines: string[] = [];
  lines.push(table(settingsRows(loaded, cwd), ''));
  lines.push('', `Agents (${config.agents.length})`);
  lines.push(table(config.agents.map((a) => [a.name, agentText(a)])));

  const skipped = loaded.scenarios.filter((x) => x.skip).length;
  lines.push('', `Scenarios (${loaded.scenarios.length}${skipped ? `, ${skipped} skipped` : ''})`);
  lines.push(
    table(
      loaded.scenarios.map((x: ResolvedScenario) => [
        x.key,
        x.name,
        x.skip ? 'skipped' : criteriaText(x.criteria),
      ]),
    ),
  );

  lines.push(...jobLines(plan));
  lines.push(
    '',
    plan.jobs.length
      ? '✓ Configuration is valid.'
      : '✓ Configuration is valid, but no job matches the filters.',
  );
  return `${lines.join('\n')}\n`;
}

/** The config's header: where it came from, its settings, limits, weights, thresholds and judge. */
function settingsRows(loaded: LoadedConfig, cwd: string): string[][] {
  const { config } = loaded;
  const s = config.settings;
  const w = s.scoring_weights;
  const thresholds = (['axis_score', 'goal_achievement', 'environment', 'service', 'agent'] as const)
    .filter((k) => s.thresholds[k] !== undefined)
    .map((k) => `${k} ≥ ${s.thresholds[k]}`);
  // A share in the config, a percent wherever it is shown, as the gate's messages show it.
  if (s.thresholds.reliability !== undefined)
    thresholds.push(`reliability ≥ ${limitPercent(s.thresholds.reliability)}`);
  const configured = config.judge
    ? `${config.judge.provider}${config.judge.model ? ` ${config.judge.model}` : ''}${
        config.judge.agents.length ? ` (${config.judge.agents.map((a) => a.name).join(', ')})` : ''
      }`
    : 'default';
  // Under simulate the judge's requests go to the simulator, whatever provider is configured.
  const judge = s.simulate ? `${configured} · answered by the simulator (settings.simulate)` : configured;
  return [
    ['Config', displayPath(loaded.configPath, cwd)],
    ['Profile', loaded.profile ?? '(none)'],
    [
      'Settings',
      `concurrency ${s.concurrency} · runs ${s.runs} · simulate ${s.simulate ? `on (tapes ${displayPath(s.simulate.tapes, cwd)})` : 'off'}`,
    ],
    ['Limits', `per scenario ${limitText(s.limits.scenario)} · per run ${limitText(s.limits.run)}`],
    [
      'Weights',
      `goal ${num(w.goal_achievement)} · environment ${num(w.environment)} · service ${num(w.service)} · agent ${num(w.agent)}`,
    ],
    [
      'Thresholds',
      `${thresholds.length ? thresholds.join(' · ') : 'none'} · baseline tolerance ${num(s.thresholds.baseline_tolerance)}`,
    ],
    ['Judge', judge],
  ];
}

/** The jobs line, one row per scenario × agent pair with its runs, and the skipped scenarios. */
function jobLines(plan: Plan): string[] {
  const pairs = new Map<string, { scenario: string; agent: string; runs: number }>();
  for (const job of plan.jobs) {
    const id = `${job.scenario.key}\u0000${job.agent.name}`;
    const pair = pairs.get(id) ?? { scenario: job.scenario.key, agent: job.agent.name, runs: 0 };
    pair.runs += 1;
    pairs.set(id, pair);
  }
  const lines = [
    '',
    `Jobs: ${plural(plan.jobs.length, 'job')} = ${plural(pairs.size, 'scenario × agent pair')} × ${plural(plan.runs, 'run')}`,
  ];
  if (pairs.size) {
    lines.push(
      table(
        [...pairs.values()].map((p) => [p.scenario, p.agent, p.runs === 1 ? 'run 1' : `runs 1-${p.runs}`]),
      ),
    );
  }
  if (plan.skipped.length) lines.push(`  skipped: ${plan.skipped.map((x) => x.key).join(', ')}`);
  return lines;
}

export function planJson(loaded: LoadedConfig, plan: Plan, cwd: string) {
  return {
    valid: true,
    configPath: displayPath(loaded.configPath, cwd),
    profile: loaded.profile ?? null,
    settings: loaded.config.settings,
    // As the run's detail files show them: CI logs keep what this prints.
    agents: loaded.config.agents.map((a) => ({
      ...a,
      env: maskSecretNames(a.env),
      skills: a.skills.map(shownUrl),
    })),
    scenarios: loaded.scenarios.map((x) => ({
      key: x.key,
      name: x.name,
      ...(x.description !== undefined ? { description: x.description } : {}),
      tags: x.tags,
      file: x.file ? displayPath(x.file, cwd) : null,
      skip: x.skip,
      criteria: x.criteria.map((c) => ({ kind: c.kind, label: c.label, weight: c.weight })),
      // As the run applies them: over settings.limits.scenario, settings.thresholds and settings.network.
      limits: x.limits,
      thresholds: minimumsFor(loaded.config.settings.thresholds, x.thresholds),
      network: networkOver(loaded.config.settings.network, x.network),
    })),
    jobs: plan.jobs.map((j) => ({ scenario: j.scenario.key, agent: j.agent.name, run: j.run })),
    skipped: plan.skipped.map((x) => x.key),
    notices: loaded.notices,
  };
}
