/** `axis badge [--from <id>] [-o file]`: an SVG badge of a report's AXIS Result (default: the latest). */
import { resolve } from 'node:path';
import { findProjectDir, readReport, resolveReport } from '../../report/read.js';
import { checkOutputFile, writeOutputFile } from '../../util/output-file.js';
import { badgeSvg } from '../../reporters/badge.js';
import { AxisError } from '../../util/errors.js';

/** Control characters other than tab: XML (the SVG) cannot hold most of them, and none belongs in a label. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

export interface BadgeCommandOptions {
  config?: string;
  from?: string;
  output?: string;
  label?: string;
}

export default async function badgeCommand(opts: BadgeCommandOptions): Promise<number> {
  if (opts.label !== undefined && CONTROL.test(opts.label))
    throw new AxisError(
      `--label: expected text without control characters, found ${JSON.stringify(opts.label)}`,
      {
        exitCode: 2,
      },
    );
  const output = opts.output === undefined ? undefined : resolve(process.cwd(), opts.output);
  if (output) checkOutputFile(output, `-o ${opts.output}`);
  const projectDir = findProjectDir(process.cwd(), opts.config);
  const id = await resolveReport(projectDir, opts.from ?? 'latest');
  const m = await readReport(projectDir, id);
  const svg = badgeSvg({
    score: m.summary?.averageAxisScore ?? null,
    failed: m.summary?.failed ?? 0,
    incomplete: m.incomplete === true,
    ...(m.shard ? { shard: m.shard } : {}),
    gate: m.verdict ? (m.verdict.pass ? 'pass' : 'fail') : null,
    ...(opts.label ? { label: opts.label } : {}),
  });
  if (output) {
    await writeOutputFile(output, svg, `-o ${opts.output}`);
    process.stderr.write(`Badge for report ${id} written to ${opts.output}\n`);
  } else process.stdout.write(svg);
  return 0;
}
