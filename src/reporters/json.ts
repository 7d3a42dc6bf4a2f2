/**
 * `--json` / `--reporter json[=file]`: exactly one JSON document per run, in every outcome. The report
 * manifest (with the verdict when there is one); a failing command prints `{ "error": { … } }` instead
 * (cli/action.ts).
 */
import { resolve } from 'node:path';
import type { RunVerdict } from '../compare/verdict-types.js';
import { writeOutputFile } from '../util/output-file.js';
import type { Reporter, RunEnd, Screen } from './types.js';

export function createJsonReporter(screen: Screen, file?: string): Reporter {
  const emit = async (doc: unknown): Promise<void> => {
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    if (file) await writeOutputFile(resolve(screen.cwd, file), text, `--reporter json=${file}`);
    else screen.stdout.write(text);
  };
  return {
    name: 'json',
    printsToStdout: () => file === undefined,
    async onEnd(end: RunEnd, verdict?: RunVerdict) {
      await emit({
        ...end.manifest,
        reportDir: end.reportRel,
        ...(end.lost?.length ? { lost: end.lost } : {}),
        ...(end.blob ? { blob: end.blob } : {}),
        ...(end.comparison ? { comparison: end.comparison } : {}),
        ...(verdict ? { verdict } : {}),
      });
    },
  };
}
