// The file-system floor of a job: the directories and files one job of the runner bench's project makes
// in the temp dir and the report (workspace with its owner marker, the private /tmp's fstab and bind
// points, the command agent's prompt file, the raw and detail files written to a temp name and renamed),
// made and removed with plain fs calls at the same concurrency, nothing else. Resolves this process's
// CPU time (user + system, libuv's threads included) per job.
import { mkdir, mkdtemp, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfOwner } from '../../../dist/runner/contain.js';

/** The real marker: the start-up sweep of any AXIS running meanwhile must see these dirs as live. */
const OWNER = `${JSON.stringify(selfOwner())}\n`;

const LEVELS = [
  ['work', 'tmp', 'home'],
  ['home/.config', 'home/.cache', 'home/.local'],
  ['home/.local/share', 'home/.local/state'],
];

async function oneJob(reports, n) {
  const root = await mkdtemp(join(tmpdir(), 'axis-bench-fs-'));
  await writeFile(join(root, '.axis-owner'), OWNER);
  for (const level of LEVELS) await Promise.all(level.map((d) => mkdir(join(root, d))));
  const points = [join(root, 'tmp', 'job'), join(root, 'tmp', 'project')];
  await Promise.all(points.map((d) => mkdir(d)));
  await writeFile(join(root, '.axis-fstab'), `${root} ${points[0]} none bind 0 0\n`);
  await writeFile(join(root, 'tmp', 'axis-prompt.txt'), 'Describe the project.', { mode: 0o600 });
  for (const name of [`${n}.raw.ndjson`, `${n}.json`]) {
    const final = join(reports, name);
    await writeFile(`${final}.tmp`, '{"type":"text","text":"a line of the job"}\n');
    await rename(`${final}.tmp`, final);
  }
  await Promise.all([
    unlink(join(root, '.axis-owner')),
    unlink(join(root, '.axis-fstab')),
    unlink(join(root, 'tmp', 'axis-prompt.txt')),
    ...points.map((d) => rmdir(d)),
    ...LEVELS[2].map((d) => rmdir(join(root, d))),
  ]);
  await Promise.all(
    ['work', 'tmp', 'home/.config', 'home/.cache', 'home/.local'].map((d) => rmdir(join(root, d))),
  );
  await rmdir(join(root, 'home'));
  await rmdir(root);
}

export async function fileFloorCpuPerJob(jobs, concurrency) {
  const reports = await mkdtemp(join(tmpdir(), 'axis-bench-fs-reports-'));
  try {
    let next = 0;
    const cpu = process.cpuUsage();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < jobs) await oneJob(reports, next++);
      }),
    );
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000 / jobs;
  } finally {
    await rm(reports, { recursive: true, force: true, maxRetries: 3 });
  }
}
