/**
 * The judge cache end to end: `axis run` against a judge that is not the simulator (`axis sim serve` in a
 * process of its own, set as judge.base_url) stores its answers in one pack file; `axis score` then
 * re-scores from the cache without one request; `--no-cache` asks again and stores nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs, tempDir, writeIn } from '../../unit/run/helpers.js';
import { axis, BIN, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 120_000;
const audits = [1, 2, 3].map((id) => ({ id, success: 0.9, rationale: 'fine' }));
const TAPE = {
  name: 'judge',
  turns: [],
  judge: [
    { match: 'AXIS judge: goal', answer: { grades: [{ criterion_index: 0, score: 9, rationale: 'done' }] } },
    { match: 'AXIS judge: environment', answer: { audits } },
    { match: 'AXIS judge: service', answer: { audits } },
    {
      match: 'AXIS judge: agent',
      answer: {
        audits: [1, 2, 3].map((id) => ({ id, weight: 1, relevance: 1, success: 1 })),
        necessity: { score: 1, unnecessaryIds: [], rationale: 'all needed' },
        patterns: [],
      },
    },
  ],
};

let server: ChildProcess | undefined;
let requests = 0;
let dir = '';
const env = { ANTHROPIC_API_KEY: 'axis-test-key' };

beforeAll(async () => {
  buildDist();
  dir = tempDir('axis-judge-cache-e2e-');
  writeFileSync(join(dir, 'judge.json'), JSON.stringify(TAPE));
  server = spawn(process.execPath, [BIN, 'sim', 'serve', '-t', join(dir, 'judge.json'), '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr!.on('data', (d: Buffer) => (requests += d.toString().split('"log":"request"').length - 1));
  const url = await new Promise<string>((resolve, reject) => {
    let head = '';
    server!.stdout!.on('data', (d: Buffer) => {
      head += d.toString();
      if (head.includes('\n'))
        resolve((JSON.parse(head.slice(0, head.indexOf('\n'))) as { url: string }).url);
    });
    server!.on('exit', (code) => reject(new Error(`axis sim serve exited ${code}`)));
  });
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(
    join(dir, 'scenarios/write.json'),
    JSON.stringify({ name: 'Write out', prompt: 'Write out.txt', judge: [{ check: 'out.txt was written' }] }),
  );
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [TOY_AGENT],
      settings: { simulate: false },
      judge: { provider: 'anthropic', base_url: url, model: 'judge-model', max_retries: 0 },
    }),
  );
}, T);

afterAll(() => {
  server?.kill('SIGKILL');
  removeTempDirs();
});

/**
 * The server's request count once it has logged at least `n` (log lines reach its stderr a moment after
 * the answer), then a short wait so a request beyond them would show too.
 */
const logged = async (n: number): Promise<number> => {
  for (const end = Date.now() + 15_000; requests < n && Date.now() < end;)
    await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 200));
  return requests;
};
/** HTTP requests the latest report's run made to its judge, as recorded in its detail file. */
const judgeRequests = (): number => {
  const reports = join(dir, '.axis/reports');
  const id = readdirSync(reports).sort().at(-1)!;
  const detail = JSON.parse(readFileSync(join(reports, id, 'scenarios/write/toy.json'), 'utf8')) as {
    score: { judge: { requests: number } };
  };
  return detail.score.judge.requests;
};
const cacheFiles = () => readdirSync(join(dir, '.axis/cache/judge')).sort();

describe('the judge cache (judge in its own process)', () => {
  it(
    'a run stores its answers in one pack; re-scoring asks nothing; --no-cache asks again and stores nothing',
    async () => {
      const run = await axis(['run'], dir, env);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('(1 scored');
      const asked = judgeRequests();
      expect(asked).toBeGreaterThanOrEqual(2);
      expect(await logged(asked)).toBe(asked);
      expect(cacheFiles()).toEqual([expect.stringMatching(/^[0-9a-z]+-\d+-[0-9a-z]+\.pack$/)]);

      const again = await axis(['score'], dir, env);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`0 call\\(s\\), ${asked} cached`));
      expect(await logged(asked)).toBe(asked);

      const fresh = await axis(['score', '--no-cache'], dir, env);
      expect(fresh.code, fresh.stdout + fresh.stderr).toBe(0);
      expect(fresh.stdout).toContain('0 cached');
      expect(await logged(2 * asked)).toBe(2 * asked);
      // --no-cache neither reads the cache nor writes it.
      expect(cacheFiles()).toHaveLength(1);
    },
    T,
  );
});

/** A judge agent grading every criterion `grade` out of 10, from the prompt file in its workspace. */
const gradingJudge = (grade: number) => `#!/bin/sh
if grep -q 'AXIS judge: goal' AXIS_JUDGE_PROMPT.md; then
  echo '{"grades":[{"criterion_index":0,"score":${grade},"rationale":"graded ${grade}"}]}'
else
  echo '{"audits":[],"necessity":{"score":1,"unnecessaryIds":[],"rationale":"needed"},"patterns":[]}'
fi
`;

describe('the judge cache with a judge agent', () => {
  it(
    'another judge agent (its command, args or env changed) is asked again, not answered from the cache',
    async () => {
      const config = (judge: Record<string, unknown>) => ({
        agents: [{ agent: 'command', name: 'a', command: 'sh', args: ['-c', 'echo done'] }],
        judge: { provider: 'agent', agent: { agent: 'command', name: 'judge', ...judge } },
      });
      const project = makeProject({
        'axis.config.json': config({ command: './judge9.sh' }),
        'scenarios/s.json': { name: 'S', prompt: 'go', judge: [{ check: 'the agent said done' }] },
      });
      for (const g of [9, 3]) {
        writeIn(project, `judge${g}.sh`, gradingJudge(g));
        chmodSync(join(project, `judge${g}.sh`), 0o755);
      }
      const run = await axis(['run'], project);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('goal 90');
      // Pairs of judges differing in one field: the second must be asked, though the first's answer is cached.
      const byEnv = (g: string) => ({
        command: 'sh',
        args: ['-c', `sh ${project}/judge$G.sh`],
        env: { G: g },
      });
      const pairs = [
        [{ command: './judge9.sh' }, { command: './judge3.sh' }],
        [
          { command: 'sh', args: [join(project, 'judge9.sh')] },
          { command: 'sh', args: [join(project, 'judge3.sh')] },
        ],
        [byEnv('9'), byEnv('3')],
      ];
      for (const [first, second] of pairs) {
        writeIn(project, 'axis.config.json', config(first!));
        expect((await axis(['score'], project)).stdout, JSON.stringify(first)).toContain('goal 90');
        writeIn(project, 'axis.config.json', config(second!));
        const again = await axis(['score'], project);
        expect(again.code, again.stdout + again.stderr).toBe(0);
        expect(again.stdout, JSON.stringify(second)).toContain('goal 30');
        expect(again.stdout).toContain('0 cached');
      }
    },
    T,
  );
});

describe('the judge under settings.simulate', () => {
  it(
    'is never cached: axis score asks the scenario tape again (a changed tape answers) and stores nothing',
    async () => {
      const tape = (grade: number) => ({
        ...TAPE,
        judge: [
          {
            match: 'AXIS judge: goal',
            answer: { grades: [{ criterion_index: 0, score: grade, rationale: `graded ${grade}` }] },
          },
          ...TAPE.judge.slice(1),
        ],
      });
      const project = makeProject({
        'axis.config.json': { agents: [TOY_AGENT], settings: { simulate: true } },
        'scenarios/write.json': {
          name: 'Write',
          prompt: 'Write out.txt',
          judge: [{ check: 'out.txt written' }],
        },
        'tapes/write.json': tape(9),
      });
      const run = await axis(['run'], project);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('goal 90');
      writeIn(project, 'tapes/write.json', tape(3));
      const again = await axis(['score'], project);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('goal 30');
      expect(again.stdout).toContain('0 cached');
      expect(existsSync(join(project, '.axis/cache/judge'))).toBe(false);

      // The tape gone: refused before anything is rewritten, not every run turned unscored.
      const [id] = readdirSync(join(project, '.axis/reports'));
      const manifest = join(project, '.axis/reports', id!, 'report.json');
      const before = readFileSync(manifest, 'utf8');
      rmSync(join(project, 'tapes/write.json'));
      const gone = await axis(['score'], project);
      expect(gone.code).toBe(2);
      expect(gone.stderr).toContain(
        `scenarios/write.json: simulate is on but there is no tape for "write": expected ${project}/tapes/write.json`,
      );
      expect(readFileSync(manifest, 'utf8')).toBe(before);
    },
    T,
  );
});
