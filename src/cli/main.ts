/**
 * The `axis` program. Kept lean on purpose: each command's code (and its heavy dependencies) is
 * imported only when that command runs, so `axis --help` starts fast.
 */
import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { runAction, usageError } from './action.js';
import { trackUsageErrors, usageOptions } from './usage-failure.js';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../util/package-root.js';
import { writeErrorReason } from '../util/write-error.js';

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

/** Commander accumulator for repeatable options. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A repeated comma-list option adds to the list (upstream's `-a a -a b`) instead of replacing it. */
function joinList(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/** The commands in the order `axis --help` lists them. */
export function buildProgram(): Command {
  const program = new Command('axis')
    .description('AXIS — Agent Experience Index Score: how well your service works for AI agents')
    .version(pkg.version, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    // Commander's own usage errors (an unknown option, a missing value, a value outside its choices)
    // throw instead of exiting 1, so they exit 2 as every other bad flag does (see main below).
    // Subcommands inherit this setting because it is set before they are added.
    .exitOverride()
    // Lets `axis reports merge` have its own --json and -c (see addReports).
    .enablePositionalOptions();
  addInit(program);
  addAgents(program);
  addValidate(program);
  addRun(program);
  addScore(program);
  addReports(program);
  addCompare(program);
  addBaseline(program);
  addBadge(program);
  addHistory(program);
  addSim(program);
  refuseRepeats(program);
  trackUsageErrors(program);
  return program;
}

/**
 * A value option given twice is an error: commander keeps the last one silently, so `--shard 1/4 …
 * --shard 2/4` would run one shard and drop the other. Repeatable options (collect, joinList) add up.
 */
function refuseRepeats(command: Command): void {
  for (const option of command.options) {
    const repeatable = option.parseArg === collect || option.parseArg === joinList || option.variadic;
    if (option.isBoolean() || repeatable) continue;
    let first: unknown;
    command.on(`option:${option.name()}`, (value: unknown) => {
      if (first === undefined) first = value;
      else
        command.error(
          `error: option '${option.flags}' given twice (${String(first)}, then ${String(value)}): give it once`,
          { exitCode: 2, code: 'axis.repeatedOption' },
        );
    });
  }
  for (const sub of command.commands) refuseRepeats(sub);
}

function addInit(program: Command): void {
  program
    .command('init')
    .description('Scaffold axis.config and a hello-world scenario, then install the AXIS skills')
    .option('-s, --scenarios <path>', 'scenarios directory', './scenarios')
    // No commander default: it would be the first `previous` of joinList (claude-code,codex for -a codex).
    .option(
      '-a, --agent <names>',
      'comma-separated or repeated agents (e.g. claude-code,codex) (default: "claude-code")',
      joinList,
    )
    .addOption(
      new Option('--format <format>', 'config file format').choices(['json', 'js', 'ts']).default('json'),
    )
    .option('-f, --force', 'overwrite existing files', false)
    .option('--no-skills', "don't copy the AXIS skills into the agents' skill folders")
    .action(runAction(() => import('./commands/init.js')));
}

function addAgents(program: Command): void {
  program
    .command('agents')
    .description('List the agents a config may name (built-ins and ACP presets) and what each needs')
    .option('--json', 'print the list as JSON', false)
    .action(runAction(() => import('./commands/agents.js')));
}

/** Which config and which jobs: `validate` and `run` take the same selection. */
function selectionOptions(command: Command): void {
  command
    .option('-c, --config <path>', 'config path (default: search upward for axis.config.*)')
    .option('--profile <name>', 'apply a named profile from the config')
    .option('-s, --scenario <keys>', 'comma-separated scenario keys or globs (cms/*, hello-*)', joinList)
    .option('-a, --agent <names>', 'comma-separated agent names or globs (claude-code|*)', joinList)
    .option('-t, --tag <tags>', 'comma-separated scenario tags: only scenarios with any of them', joinList);
}

/** `run` and `reports merge` write a report the same ways, and give CI outputs on a usage error too. */
function reporterOption(command: Command): void {
  command.option(
    '--reporter <name>',
    'add an output: list, json[=file], junit[=file], github (repeatable; github is on under GitHub Actions)',
    collect,
    [],
  );
}

function addValidate(program: Command): void {
  const validate = program
    .command('validate')
    .description('Load the config and every scenario, report all problems, print the job matrix');
  selectionOptions(validate);
  validate
    .option('--json', 'print the resolved plan as JSON', false)
    .option('--no-score', "as `axis run --no-score`: the judge's key is not needed")
    .option('--no-credentials', "don't check the agents' and the judge's keys (a CI job without secrets)")
    .action(runAction(() => import('./commands/validate.js')));
}

function addRun(program: Command): void {
  const run = program
    .command('run')
    .description('Run every scenario against every agent in isolated workspaces and write a report');
  selectionOptions(run);
  run
    .option('--refresh-skills', 'fetch remote skills again even when .axis/skills-cache/ has them', false)
    .option('--concurrency <n>', 'max parallel jobs (default: settings.concurrency, 15)')
    .option('--runs <n>', 'runs per scenario × agent pair, odd 1..19 (default: settings.runs, 1)')
    .option(
      '--failed [reportId]',
      "re-run only the failed pairs of a report (default: latest), under the report's profile",
    )
    .option('--no-score', 'skip the LLM judges, write raw results only (deterministic checks still run)')
    .option('--no-cache', 'ask the judges even when an answer is cached in .axis/cache/judge/');
  runOutputOptions(run);
  run.action(
    runAction(async () => {
      // The spawner first: its process starts while the rest of `run` loads, and the host's checks
      // (containment, private /tmp) are started before that load, not after the config. From the
      // bundle each load is a synchronous require() (scripts/bundle.mjs): the checks' processes run
      // while run.js compiles.
      (await import('../exec/spawner.js')).prewarmSpawner();
      await import('../exec/job-space.js').then(
        (j) => j.startPrivateTmpCheck(),
        () => undefined, // run.js imports it too, and says what failed
      );
      return import('./commands/run.js');
    }),
  );
}

/** What `run` prints and writes, sharding and the baseline gate. */
function runOutputOptions(run: Command): void {
  run.option('--json', 'print one JSON document (summary and results, or { error }) on stdout', false);
  reporterOption(run);
  run
    .option('-v, --verbose', 'log each step to stderr: spawned commands, judge calls, retries', false)
    .option('--debug', 'also keep raw agent stdout/stderr as <agent>.debug.ndjson / .debug.stderr.log', false)
    .option(
      '-o, --output-dir <dir>',
      'also write the report manifest to this directory (with --shard: the blob too, instead of .axis/blobs/)',
    )
    .option('--shard <k/n>', 'run only shard k of n of the jobs and write its blob for `axis reports merge`')
    .option(
      '--shard-durations <report>',
      'balance the shards by the run durations of this report.json (the same file on every shard)',
    )
    .option(
      '--compare-baseline [name]',
      'compare the report with a baseline (default: main); exit 1 on a regression',
    );
}

function addScore(program: Command): void {
  program
    .command('score [reportId]')
    .description("(Re)score a report's stored raw results with the configured judge (default: latest report)")
    .option('-c, --config <path>', 'config path (default: search upward for axis.config.*)')
    .option('--profile <name>', "apply this profile from the config (default: the report's profile)")
    .option('--no-cache', 'ask the judges even when an answer is cached in .axis/cache/judge/')
    .option('--concurrency <n>', 'runs scored at once (default: settings.concurrency, at most 4)')
    .option('--json', 'print the rescored manifest as JSON on stdout', false)
    .action(runAction(() => import('./commands/score.js')));
}

function addReports(program: Command): void {
  const reports = program
    .command('reports [reportId] [scenarioKey]')
    .description(
      "List reports, show one (`latest` works), or one scenario's per-run detail; never loads the config",
    )
    .option('-c, --config <path>', 'config file or directory whose .axis/ is read (not loaded)')
    .option(
      '-a, --agent <name>',
      'only these agents (exact name, adapter name or glob; comma-separated or repeated)',
      joinList,
    )
    .option('-n, --limit <count>', 'list: how many reports to show (default: every report)')
    .option(
      '--json',
      'machine output: list → summaries, report → report.json, scenario → per-run detail',
      false,
    )
    .option(
      '--html',
      'write report.html and open it in a browser when one is available, else print its path',
      false,
    )
    .action(runAction(() => import('./commands/reports.js')));
  // Options after `merge` are merge's own (`reports` has a --json and -c too).
  reports.enablePositionalOptions();
  addMerge(reports);
}

function addMerge(reports: Command): void {
  const merge = reports
    .command('merge <blobs...>')
    .description('Merge the blobs of a sharded run (`axis run --shard k/n`) into one report')
    .option(
      '-c, --config <path>',
      'config the shards ran (default: search upward): its thresholds gate, its .axis/ receives the report',
    )
    .option('--allow-partial', 'merge even when shards are missing (the report is marked incomplete)', false)
    .option('--json', 'print the merged report.json (and the verdict) on stdout', false);
  reporterOption(merge);
  merge
    .option(
      '--compare-baseline [name]',
      'compare the merged report with a baseline (default: main); exit 1 on a regression',
    )
    .action(runAction(() => import('./commands/merge.js')));
}

function addCompare(program: Command): void {
  program
    .command('compare [reportId]')
    .description(
      "A/B within one report: the second variant's (or agent's) lift over the first, per scenario; never loads the config",
    )
    .option('-c, --config <path>', 'config file or directory whose .axis/ is read (not loaded)')
    .option('--variants <a,b>', 'compare scenario variants: cms/post@a vs cms/post@b')
    .option('--agents <a,b>', 'compare two agents on each scenario')
    .option('--json', 'print the comparison as one JSON document', false)
    .action(runAction(() => import('./commands/compare.js')));
}

function baselineConfigOption(): Option {
  return new Option('-c, --config <path>', 'config file or directory whose .axis/ is used');
}

/** The action of one `baseline` subcommand: a named export of commands/baseline.ts. */
function baselineAction(name: keyof typeof import('./commands/baseline.js')) {
  return runAction(() => import('./commands/baseline.js').then((m) => ({ default: m[name] })));
}

function addBaseline(program: Command): void {
  const baseline = program
    .command('baseline')
    .description(
      'Save, list, show, compare and delete baselines (.axis/baselines/<name>.json, default main)',
    );
  baseline
    .command('set [name]')
    .description('Save the scored pairs of a report into a baseline (merged: other pairs are kept)')
    .addOption(baselineConfigOption())
    .option('--from <reportId>', 'report to save (default: latest)')
    .option('--replace', "make the baseline exactly the report's scored pairs (drop the others)", false)
    .option('--json', 'print what was saved as JSON', false)
    .action(baselineAction('setCommand'));
  baseline
    .command('list')
    .description('List the baselines, newest first')
    .addOption(baselineConfigOption())
    .option('--json', 'print the list as JSON', false)
    .action(baselineAction('listCommand'));
  baseline
    .command('show [name]')
    .description("Show a baseline's pairs (default: main)")
    .addOption(baselineConfigOption())
    .option('--json', 'print the baseline file as JSON', false)
    .action(baselineAction('showCommand'));
  baseline
    .command('compare [name]')
    .description('Compare a report with a baseline (default: main); exit 1 on any regression')
    .addOption(baselineConfigOption())
    .option('--report <reportId>', 'report to compare (default: latest)')
    .option('--profile <name>', "take the tolerance from this profile (default: the report's profile)")
    .option('--json', 'print the comparison as JSON', false)
    .action(baselineAction('compareCommand'));
  baseline
    .command('delete [name]')
    .description('Delete a baseline (default: main)')
    .addOption(baselineConfigOption())
    .action(baselineAction('deleteCommand'));
}

function addBadge(program: Command): void {
  program
    .command('badge')
    .description("Write an SVG badge of a report's average AXIS Result (shields style)")
    .option('-c, --config <path>', 'config file or directory whose .axis/ is read (not loaded)')
    .option('--from <reportId>', 'report to draw (default: latest)')
    .option('-o, --output <file>', 'write the SVG here instead of stdout')
    .option('--label <text>', 'left-hand text (default: AXIS)')
    .action(runAction(() => import('./commands/badge.js')));
}

function addHistory(program: Command): void {
  program
    .command('history [scenarioKey]')
    .description('The AXIS Result over the stored reports, oldest first (one scenario: per agent)')
    .option('-c, --config <path>', 'config file or directory whose .axis/ is read (not loaded)')
    .option('-n, --limit <count>', 'how many recent reports (default 20)')
    .option('--json', 'print the points as one JSON document', false)
    .action(runAction(() => import('./commands/history.js')));
}

function addSim(program: Command): void {
  const sim = program
    .command('sim')
    .description('Model simulator: a local fake model provider that drives the real agent CLIs offline');
  sim
    .command('serve')
    .description('Serve a tape on 127.0.0.1, print how to point each agent CLI at it, log every request')
    .requiredOption('-t, --tape <file>', 'tape file (.json, .ts, .js)')
    .option('-p, --port <n>', 'port on 127.0.0.1 (default: a free port)')
    .option('--json', 'print the setup as one JSON object and log requests as NDJSON', false)
    .action(runAction(() => import('./commands/sim.js')));
  sim
    .command('record')
    .description('Proxy a real provider and record the conversation as a tape (keys are never written)')
    .requiredOption('-u, --upstream <url>', 'provider base URL, e.g. https://api.anthropic.com')
    .requiredOption('-o, --out <file>', 'recorded tape to write (.json)')
    .option('-p, --port <n>', 'port on 127.0.0.1 (default: a free port)')
    .option('--json', 'print the setup as one JSON object and log exchanges as NDJSON', false)
    .action(runAction(() => import('./commands/sim.js').then((m) => ({ default: m.record }))));
  sim
    .command('replay')
    .description('Serve a recorded tape turn by turn and report where the agent diverges from it')
    .requiredOption('-t, --tape <file>', 'recorded tape (from axis sim record)')
    .option('-p, --port <n>', 'port on 127.0.0.1 (default: a free port)')
    .option('--strict', 'fail the request (HTTP 400) on divergence instead of serving the turn', false)
    .option('--json', 'print the setup as one JSON object and log requests and events as NDJSON', false)
    .action(runAction(() => import('./commands/sim.js').then((m) => ({ default: m.replay }))));
}

// A reader that goes away (`axis run | head`) must not take the run down: the report, its files and the
// exit code still matter, so what would have gone to the closed pipe is dropped. Any other failure (a
// redirect to a full disk) loses output the user asked for: said once, and the exit code is not 0.
let outputLost = false;
for (const [name, stream] of [
  ['stdout', process.stdout],
  ['stderr', process.stderr],
] as const) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || outputLost) return;
    outputLost = true;
    if (name === 'stdout')
      process.stderr.write(`axis: could not write to stdout: ${writeErrorReason(err)}\n`);
  });
}
process.on('exit', (code) => {
  if (outputLost && code === 0) process.exitCode = 1;
});

// Once nothing is left to do, end the process without V8 tearing its heap down page by page: after a
// long run (a heap of ~200 MB) that took 40-80 ms here, and the kernel frees the memory at exit anyway.
// 'beforeExit' comes only when no I/O, timer or child is pending; 'exit' handlers still run.
process.once('beforeExit', () => process.exit());

/**
 * The command line parsed and run. Not awaited at the module's top level: bin/axis.js loads this module
 * with require(), which takes only ES modules without top-level await. A failure that is not commander's
 * is thrown on as an unhandled rejection, which ends the process with its stack as before.
 */
async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // Help and --version end here too (exit 0, or 1 for `axis` with no command, as commander chose).
    process.exitCode =
      err.code.startsWith('commander.help') || err.code === 'commander.version' ? err.exitCode : 2;
    if (process.exitCode === 2) await usageError(err.message, usageOptions(err));
  }
}

void main();
