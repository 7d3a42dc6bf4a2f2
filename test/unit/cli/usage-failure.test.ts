/** The --reporter values of a command line commander stopped parsing, read as commander reads them. */
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { reporterValues, trackUsageErrors, usageOptions } from '../../../src/cli/usage-failure.js';

const run = new Command('run')
  .option('-s, --scenario <keys>')
  .option('-v, --verbose')
  .option('--failed [reportId]')
  .option('--no-score')
  .option('--reporter <name>');

describe('reporterValues', () => {
  it.each([
    [
      ['--reporter', 'junit=a.xml', '--bogus', '--reporter=github'],
      ['junit=a.xml', 'github'],
    ],
    [['--reporter', 'junit=a.xml', '--reporter'], ['junit=a.xml']],
    // A value-taking option takes the next argument, whatever it looks like.
    [['-s', '--reporter', 'junit=x.xml'], []],
    [['-vs', '--reporter', 'junit=x.xml'], []],
    [['-sfoo', '--reporter', 'junit=x.xml'], ['junit=x.xml']],
    [['--scenario=a', '--no-score', '--reporter', 'list'], ['list']],
    // An optional value is taken only when it does not look like an option.
    [['--failed', '--reporter', 'list'], ['list']],
    [['--failed', 'r1', '--reporter', 'list'], ['list']],
    [['--', '--reporter', 'list'], []],
  ])('%j → %j', (args, values) => {
    expect(reporterValues(run, args)).toEqual(values);
  });
});

/** A program shaped like axis's (positional options, a subcommand with its own --json), tracked. */
function program(): Command {
  const axis = new Command('axis').exitOverride().enablePositionalOptions();
  axis.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const runCmd = axis
    .command('run')
    .option('-c, --config <path>')
    .option('-s, --scenario <keys>')
    .option('--runs <n>')
    .option('--json')
    .option('--reporter <name>', '', (v: string, p: string[]) => [...p, v], [] as string[])
    .action(() => {});
  // A repeated option is refused mid-parse, as main.ts's refuseRepeats does.
  let runs: unknown;
  runCmd.on('option:runs', (v: unknown) => {
    if (runs !== undefined) runCmd.error('error: given twice', { exitCode: 2 });
    runs = v;
  });
  axis
    .command('badge')
    .option('-o, --output <file>')
    .action(() => {});
  const reports = axis
    .command('reports [id]')
    .option('--json')
    .action(() => {});
  reports.enablePositionalOptions();
  reports
    .command('merge <blobs...>')
    .option('--json')
    .action(() => {});
  trackUsageErrors(axis);
  return axis;
}

function failure(args: string[]): CommanderError {
  try {
    program().parse(args, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err;
    throw err;
  }
  throw new Error(`no usage error for ${args.join(' ')}`);
}

describe('usageOptions: --json as commander parsed it for the command that failed', () => {
  it.each([
    [['run', '--json', '--bogus'], true],
    [['run', '--bogus', '--json'], true],
    [['run', '--json', '--runs'], true],
    // Commander stopped at the repeated option: the --json after it is still the command's.
    [['run', '--runs', '1', '--runs', '3', '--json'], true],
    [['reports', 'merge', '--json'], true],
    [['reports', 'merge', 'x', '--json', '--bogus'], true],
    // --json as another option's value, after `--`, given =false, or not an option of the command.
    [['run', '-s', '--json', '--bogus'], false],
    [['run', '--bogus', '--', '--json'], false],
    [['run', '--json=false'], false],
    [['badge', '--json'], false],
    [['--json', 'run', '--bogus'], false],
    // `reports --json` is the parent's: merge, which failed, was not asked for JSON.
    [['reports', '--json', 'merge', 'x', '--bogus'], false],
  ])('axis %j → json %s', (args, json) => {
    expect(usageOptions(failure(args)).json).toBe(json);
  });

  it('--reporter and -c values for the commands with --reporter; none for the others', () => {
    const args = ['run', '-c', 'ci/axis.config.json', '--reporter', 'junit', '--bogus', '--reporter=json'];
    expect(usageOptions(failure(args))).toEqual({
      json: false,
      reporter: ['junit', 'json'],
      config: 'ci/axis.config.json',
    });
    expect(usageOptions(failure(['reports', 'merge', '--json']))).toEqual({ json: true });
  });
});
