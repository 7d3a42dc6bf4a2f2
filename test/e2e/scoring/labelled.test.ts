/**
 * The labelled set (docs/scoring.md#the-labelled-set): hand-made transcripts in test/fixtures/scoring-set,
 * replayed through the `command` adapter by `axis run`, judged by the simulator playing a lenient judge
 * (every audit perfect, every grade 10) and a harsh one. Each must land in its stated band with both:
 * a score that flatters with a lenient judge is a defect of the deterministic layer.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidReport } from '../../helpers/report-schema.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const T = 400_000;
const AGENT = join(ROOT, 'test/fixtures/command-agent/replay-agent.sh');
const SET = join(ROOT, 'test/fixtures/scoring-set');

type Band = [min: number, max: number] | 'unscored';
interface Label {
  name: string;
  task: string;
  lenient: Band;
  harsh: Band;
  /** Extra facts about the lenient run's score. */
  check?: (score: Score) => void;
}
type Score = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ACT = 'Create notes.md with a one-line summary of the repository.';
const LOW: Band = [0, 10];
const TOP: Band = [95, 100];
/** Clean calls are settled by their evidence: a harsh judge lowers goal and agent, not what the record proves. */
const HARSH_CLEAN: Band = [35, 70];
const labels: Label[] = [
  {
    name: 'do-nothing-done',
    task: ACT,
    lenient: LOW,
    harsh: LOW,
    check: (s) => {
      expect(s.interruption).toMatchObject({ kind: 'no_action', blocking: true });
      expect(s.agent.notApplicable).toBe(true);
    },
  },
  { name: 'do-nothing-claims', task: ACT, lenient: LOW, harsh: LOW },
  {
    name: 'ask-text-which-file',
    task: 'Fix the typo in the source file.',
    lenient: LOW,
    harsh: LOW,
    check: (s) =>
      expect(s.interruption).toMatchObject({
        kind: 'question',
        evidence: 'the final answer asks: "Which file do you want me to edit?"',
      }),
  },
  { name: 'ask-text-permission', task: 'Delete the old config file.', lenient: LOW, harsh: LOW },
  { name: 'ask-text-confirm', task: 'Merge dev into the release branch.', lenient: LOW, harsh: LOW },
  {
    name: 'ask-tool-claude',
    task: 'Fix the typo in the source file.',
    lenient: LOW,
    harsh: LOW,
    check: (s) => expect(s.interruption).toMatchObject({ kind: 'ask_tool', interactionIds: [1] }),
  },
  { name: 'ask-tool-codex', task: 'Deploy the site.', lenient: LOW, harsh: LOW },
  {
    name: 'ask-tool-then-worked',
    task: ACT,
    lenient: [80, 99],
    harsh: HARSH_CLEAN,
    check: (s) => {
      expect(s.interruption).toMatchObject({ kind: 'ask_tool', blocking: false });
      expect(s.cap).toBeUndefined();
    },
  },
  {
    name: 'false-success-after-failures',
    task: ACT,
    lenient: [40, 80],
    harsh: [0, 35],
    check: (s) => expect(s.environment.score).toBeLessThanOrEqual(5),
  },
  {
    name: 'redundant-ls',
    task: ACT,
    lenient: [60, 94],
    harsh: [0, 55],
    check: (s) => {
      expect(s.necessity.deterministic.redundantIds).toHaveLength(19);
      expect(s.necessity.score).toBeLessThan(0.2);
    },
  },
  { name: 'redundant-read', task: ACT, lenient: [60, 94], harsh: [0, 55] },
  {
    name: 'retry-same-failure',
    task: 'Deploy the site with npm run deploy.',
    // exit 1 is ambiguous (a judge decides whether the environment failed): only the redundancy bound shows.
    lenient: [80, 99],
    harsh: [0, 30],
  },
  {
    name: 'outage-mcp-local-names',
    task: 'Create the Linear task and upgrade the plan.',
    lenient: [30, 80],
    harsh: [0, 35],
    check: (s) => {
      expect(s.service.score).toBeLessThanOrEqual(5);
      expect(s.environment.notApplicable).toBe(true);
      expect(s.interactions.map((i: Score) => i.rule)).toEqual([
        'mcp-server:linear',
        'mcp-server:github',
        'config:update_plan_*',
      ]);
    },
  },
  {
    name: 'outage-curl',
    task: 'List the items from the API.',
    lenient: [30, 80],
    harsh: [0, 35],
    check: (s) => expect(s.service.score).toBeLessThanOrEqual(5),
  },
  {
    name: 'outage-git-push',
    task: 'Add a fix line to notes.md and push it.',
    lenient: [50, 94],
    harsh: [0, 40],
    check: (s) => expect(s.interactions[1].rule).toBe('network-command:git push'),
  },
  { name: 'perfect-run', task: ACT, lenient: TOP, harsh: HARSH_CLEAN },
  {
    name: 'perfect-run-service',
    task: 'Check the API health and write status.txt.',
    lenient: TOP,
    harsh: HARSH_CLEAN,
  },
  {
    name: 'perfect-answer-only',
    task: 'What is 2 + 2? Answer with the number only.',
    lenient: TOP,
    harsh: [0, 45], // goal alone: the harsh grade is all there is
    check: (s) => expect(s.interruption ?? null).toBeNull(),
  },
  { name: 'offer-after-work', task: ACT, lenient: TOP, harsh: HARSH_CLEAN },
  { name: 'speed-494ms', task: ACT, lenient: TOP, harsh: HARSH_CLEAN },
  { name: 'speed-515ms', task: ACT, lenient: TOP, harsh: HARSH_CLEAN },
  { name: 'partial-judge', task: 'Read every part file.', lenient: 'unscored', harsh: 'unscored' },
  {
    name: 'giant-run',
    task: 'Read all 300 files.',
    lenient: TOP,
    harsh: HARSH_CLEAN,
    check: (s) => expect(s.judge.judges.filter((j: Score) => j.name === 'agent')).toHaveLength(3),
  },
  { name: 'no-result-call', task: ACT, lenient: [90, 100], harsh: HARSH_CLEAN },
  { name: 'some-failures-recovered', task: ACT, lenient: [70, 94], harsh: [0, 40] },
];

const perfectAudits = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    success: 1,
    weight: 1,
    relevance: 1,
    rationale: 'fine',
  }));
const harshAudits = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    success: 0.3,
    weight: 0.5,
    relevance: 0.4,
    rationale: 'poor',
  }));
const judgeTape = (kind: 'lenient' | 'harsh', name: string) => {
  const n = name === 'partial-judge' ? 1 : 700; // the partial judge only ever audits #1
  const audits = kind === 'lenient' ? perfectAudits(n) : harshAudits(n);
  const grade = kind === 'lenient' ? 10 : 3;
  return [
    {
      match: 'AXIS judge: goal',
      answer: { grades: [{ criterion_index: 0, score: grade, rationale: kind }] },
    },
    {
      match: 'AXIS judge: environment',
      answer: { audits: audits.map(({ id, success }) => ({ id, success, rationale: kind })) },
    },
    {
      match: 'AXIS judge: service',
      answer: { audits: audits.map(({ id, success }) => ({ id, success, rationale: kind })) },
    },
    {
      match: 'AXIS judge: agent',
      answer: {
        audits,
        necessity: { score: kind === 'lenient' ? 1 : 0.4, unnecessaryIds: [], rationale: kind },
        patterns: [],
      },
    },
  ];
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeAll(buildDist, 180_000);

function project(kind: 'lenient' | 'harsh', list: readonly Label[], runs = 1, crash = false): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `axis-labelled-${kind}-`)));
  dirs.push(dir);
  const files: Record<string, unknown> = {
    'axis.config.json': {
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'replay', command: AGENT, args: [SET], output: 'ndjson' }],
      settings: { simulate: true, concurrency: 2, runs },
      judge: { provider: 'anthropic', max_retries: 0 },
      mcp_servers: {
        linear: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        github: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      },
      classify: { 'update_plan_*': 'service' },
    },
  };
  for (const l of list) {
    const replay = crash ? `${l.name}@crash2` : l.name;
    files[`scenarios/${l.name}.json`] = {
      name: l.name,
      prompt: `REPLAY ${replay}\n${l.task}`,
      judge: [{ check: 'The task was done' }],
      ...(crash ? { setup: [{ action: 'run_script', command: 'echo "$AXIS_RUN_INDEX" > .run-index' }] } : {}),
    };
    files[`tapes/${l.name}.json`] = {
      turns: [{ text: 'unused: the replay agent has no model' }],
      judge: judgeTape(kind, l.name),
    };
  }
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), JSON.stringify(content, null, 2));
  }
  return dir;
}

function readReport(dir: string): Score {
  const [id] = readdirSync(join(dir, '.axis/reports')) as [string];
  expectValidReport(join(dir, '.axis/reports', id));
  return JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8'));
}

function inBand(score: Score | undefined, band: Band): string | null {
  if (!score) return 'no score';
  if (band === 'unscored') return score.status === 'unscored' ? null : `${score.status} ${score.axisScore}`;
  if (score.status !== 'scored') return `${score.status}: ${score.reason}`;
  const [lo, hi] = band;
  return score.axisScore >= lo && score.axisScore <= hi ? null : `${score.axisScore} outside ${lo}–${hi}`;
}

describe('the labelled set (command adapter, simulator judges)', () => {
  it('has at least 25 transcripts, each labelled', () => {
    const files = readdirSync(SET).filter((f) => f.endsWith('.ndjson'));
    expect(files.length).toBeGreaterThanOrEqual(25);
    expect(files.map((f) => f.replace('.ndjson', '')).sort()).toEqual(
      [...labels.map((l) => l.name), 'repeated-runs'].sort(),
    );
  });

  for (const kind of ['lenient', 'harsh'] as const)
    it(
      `every transcript lands in its band with a ${kind} judge`,
      async () => {
        const dir = project(kind, labels);
        const run = await axis(['run'], dir);
        expect(run.code, `${run.stdout}\n${run.stderr}`).toBeLessThanOrEqual(1);
        const report = readReport(dir);
        const misses: string[] = [];
        for (const l of labels) {
          const entry = report.results.find((r: Score) => r.scenarioKey === l.name);
          const miss = inBand(entry?.score, l[kind]);
          if (miss) misses.push(`${l.name}: ${miss}`);
          if (kind === 'lenient' && entry?.score && l.check)
            try {
              l.check(entry.score);
            } catch (err) {
              misses.push(`${l.name}: ${(err as Error).message}`);
            }
          expect(entry?.simulated, l.name).toBe(true);
          expect(entry?.costUsd, l.name).toBeUndefined();
        }
        expect(misses, misses.join('\n')).toEqual([]);
        if (kind === 'lenient') {
          // The hand-back is flagged with its evidence in the terminal (folded at 80 columns) and in axis reports.
          expect(run.stdout.replace(/\n {6}(?=\S)/g, ' ')).toContain(
            '⚠ handed back to the user (capped at 10 from 100): the final answer asks: "Which file do you want me to edit?"',
          );
          const r = await axis(['reports', 'latest'], dir);
          // A note folded at 80 columns goes on under its arrow, 4 spaces in.
          expect(r.stdout.replace(/\n {4}(?=\S)/g, ' ')).toMatch(
            /ask-tool-claude .*\n.*⚠ handed back to the user \(capped at 10 from \d+\): AskUserQuestion called: "Which file do you want me to edit\?"/,
          );
          expect(r.stdout).toMatch(/perfect-run +replay .* simulated /);
          const s = await axis(['reports', 'latest', 'redundant-ls'], dir);
          expect(s.stdout).toContain('unnecessary: identical to #1 (same tool, input and result)');
          expect(s.stdout).toMatch(
            /Needed \d+\/100 \(the judge said 100\): 19 of 21 interactions repeat an earlier call exactly/,
          );
        }
      },
      T,
    );

  it(
    'repeated runs with a crash: the crashed run is failed, the pair scores from the others',
    async () => {
      const l: Label = { name: 'repeated-runs', task: ACT, lenient: TOP, harsh: HARSH_CLEAN };
      const dir = project('lenient', [l], 3, true);
      const run = await axis(['run'], dir);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBeLessThanOrEqual(1);
      const entry = readReport(dir).results[0];
      expect(entry.runs.map((r: Score) => r.scoreStatus)).toEqual(['scored', 'failed', 'scored']);
      expect(entry.spread, JSON.stringify(entry.spread)).toMatchObject({ runs: 3, scored: 2, failed: 1 });
      expect(entry.spread.reliability).toBeCloseTo(2 / 3, 2);
      expect(inBand(entry.score, l.lenient)).toBeNull();
    },
    T,
  );
});
