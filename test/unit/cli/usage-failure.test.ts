/** The --reporter values of a command line commander stopped parsing, read as commander reads them. */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { reporterValues } from '../../../src/cli/usage-failure.js';

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
