/**
 * The `axis` command line: the program (program.ts) parsed and run, and what the process does with its
 * output streams and at its end.
 */
import { CommanderError } from 'commander';
import { usageError } from './action.js';
import { buildProgram } from './program.js';
import { whenMade } from './std-output.js';
import { usageOptions } from './usage-failure.js';
import { writeErrorReason } from '../util/write-error.js';

// A reader that goes away (`axis run | head`) must not take the run down: the report, its files and the
// exit code still matter, so what would have gone to the closed pipe is dropped. Any other failure (a
// redirect to a full disk) loses output the user asked for: said once, and the exit code is not 0.
// The handlers are attached when a stream is first made (std-output.ts): help never makes one.
let outputLost = false;
for (const name of ['stdout', 'stderr'] as const) {
  whenMade(name, (stream) =>
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || outputLost) return;
      outputLost = true;
      if (name === 'stdout')
        process.stderr.write(`axis: could not write to stdout: ${writeErrorReason(err)}\n`);
    }),
  );
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
