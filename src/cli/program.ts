/**
 * The `axis` commands and their options (commander). Kept lean on purpose: each command's code (and its
 * heavy dependencies) is imported only when that command runs, so `axis --help` starts fast.
 */
import { Command, Help, Option } from 'commander';
import { runAction } from './action.js';
import { addBaseline, addSim } from './program-groups.js';
import { plainStdOutput as plain, writeStd } from './std-output.js';
import { trackUsageErrors } from './usage-failure.js';
import { packageVersion } from '../util/package-root.js';

/** Commander accumulator for repeatable options. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A repeated comma-list option adds to the list (upstream's `-a a -a b`) instead of replacing it. */
function joinList(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/**
 * The commands in the order `axis --help` lists them. Only the command the line runs (`invoked`) is
 * built whole; the others get their name, arguments and description, all that `axis --help` and
 * commander's "did you mean" need. Building every command's options was about a fifth of what
 * `axis --version` and `--help` cost over bare Node (docs/performance.md, "Start-up").
 */
export function buildProgram(argv: readonly string[] = process.argv): Command {
  const program = new Command('axis')
    .description('AXIS — Agent Experience Index Score: how well your service works for AI agents')
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    // A command defined by name only still shows `[options]` in the list (commander looks at its options).
    .configureHelp({
      subcommandTerm(cmd) {
        const term = Help.prototype.subcommandTerm.call(this, cmd);
        return named.has(cmd) ? `${cmd.name()} [options]${term.slice(cmd.name().length)}` : term;
      },
    })
    // Commander's own usage errors (an unknown option, a missing value, a value outside its choices)
    // throw instead of exiting 1, so they exit 2 as every other bad flag does (main.ts).
    // Subcommands inherit this setting because it is set before they are added.
    .exitOverride()
    // Lets `axis reports merge` have its own --json and -c (see addReports).
    .enablePositionalOptions();
  quietOutput(program);
  const runs = invoked(argv);
  for (const [name, add] of COMMANDS) add(program, name === runs);
  refuseRepeats(program);
  trackUsageErrors(program);
  return program;
}

/**
 * Help, version and commander's messages written without making `process.stdout` or `stderr` where the
 * output is a pipe or a file (std-output.ts): there help is 80 columns wide and has no colours unless
 * forced, as commander's own defaults decide for anything that is not a terminal. Subcommands share
 * this setting because it is set before they are added.
 */
function quietOutput(program: Command): void {
  const PLAIN_WIDTH = 80; // what commander's Help takes when the output has no width
  const given = program.configureOutput();
  const forced = () => process.env.FORCE_COLOR !== undefined || process.env.CLICOLOR_FORCE !== undefined;
  program.configureOutput({
    writeOut: (text) => writeStd('stdout', text),
    writeErr: (text) => writeStd('stderr', text),
    getOutHelpWidth: () => (plain('stdout') ? PLAIN_WIDTH : given.getOutHelpWidth!()),
    getErrHelpWidth: () => (plain('stderr') ? PLAIN_WIDTH : given.getErrHelpWidth!()),
    getOutHasColors: () => (plain('stdout') && !forced() ? false : given.getOutHasColors!()),
    getErrHasColors: () => (plain('stderr') && !forced() ? false : given.getErrHasColors!()),
  });
}

/** Top-level commands with options that were defined by name only. */
const named = new WeakSet<Command>();
function byName(command: Command): void {
  named.add(command);
}

/**
 * The top-level command a command line runs, or whose help `axis help <command>` shows. The root's own
 * options (`-V`, `-h`) take no value, so the first word that is not an option is the command.
 */
export function invoked(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
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

function addInit(program: Command, whole: boolean): void {
  const init = program
    .command('init')
    .description('Scaffold axis.config and a hello-world scenario, then install the AXIS skills');
  if (!whole) return byName(init);
  init
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

function addAgents(program: Command, whole: boolean): void {
  const agents = program
    .command('agents')
    .description('List the agents a config may name (built-ins and ACP presets) and what each needs');
  if (!whole) return byName(agents);
  agents
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

function addValidate(program: Command, whole: boolean): void {
  const validate = program
    .command('validate')
    .description('Load the config and every scenario, report all problems, print the job matrix');
  if (!whole) return byName(validate);
  selectionOptions(validate);
  validate
    .option('--json', 'print the resolved plan as JSON', false)
    .option('--no-score', "as `axis run --no-score`: the judge's key is not needed")
    .option('--no-credentials', "don't check the agents' and the judge's keys (a CI job without secrets)")
    .action(runAction(() => import('./commands/validate.js')));
}

function addRun(program: Command, whole: boolean): void {
  const run = program
    .command('run')
    .description('Run every scenario against every agent in isolated workspaces and write a report');
  if (!whole) return byName(run);
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

function addScore(program: Command, whole: boolean): void {
  const score = program
    .command('score [reportId]')
    .description(
      "(Re)score a report's stored raw results with the configured judge (default: latest report)",
    );
  if (!whole) return byName(score);
  score
    .option('-c, --config <path>', 'config path (default: search upward for axis.config.*)')
    .option('--profile <name>', "apply this profile from the config (default: the report's profile)")
    .option('--no-cache', 'ask the judges even when an answer is cached in .axis/cache/judge/')
    .option('--concurrency <n>', 'runs scored at once (default: settings.concurrency, at most 4)')
    .option('--json', 'print the rescored manifest as JSON on stdout', false)
    .action(runAction(() => import('./commands/score.js')));
}

function addReports(program: Command, whole: boolean): void {
  const reports = program
    .command('reports [reportId] [scenarioKey]')
    .description(
      "List reports, show one (`latest` works), or one scenario's per-run detail; never loads the config",
    );
  if (!whole) return byName(reports);
  reports
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

function addCompare(program: Command, whole: boolean): void {
  const compare = program
    .command('compare [reportId]')
    .description(
      "A/B within one report: the second variant's (or agent's) lift over the first, per scenario; never loads the config",
    );
  if (!whole) return byName(compare);
  compare
    .option('-c, --config <path>', 'config file or directory whose .axis/ is read (not loaded)')
    .option('--variants <a,b>', 'compare scenario variants: cms/post@a vs cms/post@b')
    .option('--agents <a,b>', 'compare two agents on each scenario')
    .option('--json', 'print the comparison as one JSON document', false)
    .action(runAction(() => import('./commands/compare.js')));
}

function addBadge(program: Command, whole: boolean): void {
  const badge = program
    .command('badge')
    .description("Write an SVG badge of a report's average AXIS Result (shields style)");
  if (!whole) return byName(badge);
  badge
    .option('-c, --config <path>', 'config file or directory whose .axis/ is read (not loaded)')
    .option('--from <reportId>', 'report to draw (default: latest)')
    .option('-o, --output <file>', 'write the SVG here instead of stdout')
    .option('--label <text>', 'left-hand text (default: AXIS)')
    .action(runAction(() => import('./commands/badge.js')));
}

function addHistory(program: Command, whole: boolean): void {
  const history = program
    .command('history [scenarioKey]')
    .description('The AXIS Result over the stored reports, oldest first (one scenario: per agent)');
  if (!whole) return byName(history);
  history
    .option('-c, --config <path>', 'config file or directory whose .axis/ is read (not loaded)')
    .option('-n, --limit <count>', 'how many recent reports (default 20)')
    .option('--json', 'print the points as one JSON document', false)
    .action(runAction(() => import('./commands/history.js')));
}

/** The commands in the order `axis --help` lists them. */
const COMMANDS: ReadonlyArray<[string, (program: Command, whole: boolean) => void]> = [
  ['init', addInit],
  ['agents', addAgents],
  ['validate', addValidate],
  ['run', addRun],
  ['score', addScore],
  ['reports', addReports],
  ['compare', addCompare],
  ['baseline', addBaseline],
  ['badge', addBadge],
  ['history', addHistory],
  ['sim', addSim],
];
