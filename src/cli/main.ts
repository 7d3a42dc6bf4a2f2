/**
 * The `axis` program. Kept lean on purpose: each command's code (and its heavy dependencies) is
 * imported only when that command runs, so `axis --help` starts fast.
 */
import { Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { runAction } from './action.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export function buildProgram(): Command {
  const program = new Command('axis')
    .description('AXIS — Agent Experience Index Score: how well your service works for AI agents')
    .version(pkg.version, '-V, --version')
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('init')
    .description('Scaffold axis.config and a hello-world scenario, then install the AXIS skills')
    .option('-s, --scenarios <path>', 'scenarios directory', './scenarios')
    .option('-a, --agent <names>', 'comma-separated agents (e.g. claude-code,codex)', 'claude-code')
    .addOption(new Option('--format <format>', 'config file format').choices(['json', 'js', 'ts']).default('json'))
    .option('-f, --force', 'overwrite existing files', false)
    .option('--no-skills', 'skip the automatic `npx skills add` install')
    .action(runAction(() => import('./commands/init.js')));

  program
    .command('validate')
    .description('Load the config and every scenario, report all problems, print the job matrix')
    .option('-c, --config <path>', 'config path (default: search upward for axis.config.*)')
    .option('--profile <name>', 'apply a named profile from the config')
    .option('-s, --scenario <keys>', 'comma-separated scenario keys or globs (cms/*, hello-*)')
    .option('-a, --agent <names>', 'comma-separated agent names or globs (claude-code|*)')
    .option('--json', 'print the resolved plan as JSON', false)
    .action(runAction(() => import('./commands/validate.js')));

  return program;
}

await buildProgram().parseAsync(process.argv);
