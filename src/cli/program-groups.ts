/**
 * The `axis` commands made of subcommands and without options of their own: `baseline` and `sim`
 * (program.ts adds them, whole only when the command line runs one of theirs).
 */
import { Option, type Command } from 'commander';
import { runAction } from './action.js';

function baselineConfigOption(): Option {
  return new Option('-c, --config <path>', 'config file or directory whose .axis/ is used');
}

/** The action of one `baseline` subcommand: a named export of commands/baseline.ts. */
function baselineAction(name: keyof typeof import('./commands/baseline.js')) {
  return runAction(() => import('./commands/baseline.js').then((m) => ({ default: m[name] })));
}

export function addBaseline(program: Command, whole: boolean): void {
  const baseline = program
    .command('baseline')
    .description(
      'Save, list, show, compare and delete baselines (.axis/baselines/<name>.json, default main)',
    );
  if (!whole) return; // no options of its own: its line is the same either way
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

export function addSim(program: Command, whole: boolean): void {
  const sim = program
    .command('sim')
    .description('Model simulator: a local fake model provider that drives the real agent CLIs offline');
  if (!whole) return; // no options of its own
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
