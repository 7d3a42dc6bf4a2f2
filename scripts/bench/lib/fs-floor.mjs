// The file-system floor of a job: the file-system work one job of the runner bench's project does in the
// temp dir and the report, with plain fs calls at the same concurrency and nothing else. As in AXIS
// (src/exec/workspace-pool.ts), each of the `concurrency` workspaces (owner marker, XDG dirs, the
// private /tmp's fstab and bind points) is made once and recycled: per job its skeleton dirs are checked
// and listed and its kept files read back, the command agent's prompt file written (over the spare file
// the job before left, renamed into place, as AXIS does) and emptied back into the spare, and the raw and
// detail files written to a temp name and renamed. Resolves this process's CPU time (user + system,
// libuv's threads included) per job.
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfOwner } from '../../../dist/exec/contain.js';
import { discard, tempDir } from './measure.mjs';

/** The real marker: the start-up sweep of any AXIS running meanwhile must see these dirs as live. */
const OWNER = `${JSON.stringify(selfOwner())}\n`;

const LEVELS = [
  ['work', 'tmp', 'home'],
  ['home/.config', 'home/.cache', 'home/.local'],
  ['home/.local/share', 'home/.local/state'],
];
const SKELETON = ['', ...LEVELS.flat(), 'tmp/job', 'tmp/project'];

async function freshWorkspace() {
  const root = await mkdtemp(join(tmpdir(), 'axis-bench-fs-'));
  await writeFile(join(root, '.axis-owner'), OWNER);
  for (const level of LEVELS) await Promise.all(level.map((d) => mkdir(join(root, d))));
  await Promise.all(['tmp/job', 'tmp/project'].map((d) => mkdir(join(root, d))));
  await writeFile(join(root, '.axis-fstab'), `${root} ${join(root, 'tmp/job')} none bind 0 0\n`);
  return root;
}

async function oneJob(root, reports, n) {
  // Small files with synchronous calls, as AXIS writes them (src/util/small-write.ts says why).
  const prompt = join(root, 'tmp', 'axis-prompt.txt');
  const spare = join(root, '.axis-spare');
  if (existsSync(spare)) renameSync(spare, prompt);
  writeFileSync(prompt, 'Describe the project.', { mode: 0o600 });
  for (const name of [`${n}.raw.ndjson`, `${n}.json`]) {
    const final = join(reports, name);
    writeFileSync(`${final}.tmp`, '{"type":"text","text":"a line of the job"}\n');
    renameSync(`${final}.tmp`, final);
  }
  await Promise.resolve();
  // Recycled: every skeleton dir checked and listed, the kept files read back, the job's one file emptied
  // into the spare.
  for (const d of SKELETON) {
    lstatSync(join(root, d));
    readdirSync(join(root, d), { withFileTypes: true });
  }
  for (const f of ['.axis-owner', '.axis-fstab']) {
    lstatSync(join(root, f));
    readFileSync(join(root, f), 'utf8');
  }
  const fd = openSync(prompt, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  fstatSync(fd);
  ftruncateSync(fd, 0);
  fchmodSync(fd, 0o600);
  renameSync(prompt, spare);
  closeSync(fd);
  return root;
}

export async function fileFloorCpuPerJob(jobs, concurrency) {
  // The reports in the bench's root, as the runner bench's projects are; the workspaces in the temp dir,
  // as AXIS's are. Nothing is deleted (measure.mjs, discard).
  const reports = tempDir('axis-bench-fs-reports-');
  const roots = [];
  try {
    let next = 0;
    const cpu = process.cpuUsage();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, i) => {
        roots[i] = await freshWorkspace();
        while (next < jobs) roots[i] = await oneJob(roots[i], reports, next++);
        discard(roots[i]);
        roots[i] = undefined;
      }),
    );
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000 / jobs;
  } finally {
    discard(reports);
    for (const r of roots.filter(Boolean)) discard(r);
  }
}
