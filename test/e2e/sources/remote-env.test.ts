/**
 * A remote's env as a local one: a JSON scenario with an `env` field (not a scenario field) is refused
 * naming the remote's file and the field, exactly as the same file in the project is, and the values a
 * remote's config puts in `env` are secrets: the agent sees them, no report file does.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepo } from '../../helpers/git-repos.js';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

const T = 120_000;
afterAll(removeTempDirs);
beforeAll(buildDist);

const SECRET = 'sekret-remote-env-7f3a9c';
const withEnv = {
  name: 'J',
  prompt: 'p',
  env: { API_TOKEN: SECRET },
  checks: [{ file: 'out.txt', exists: true }],
};
const plain = { name: 'J', prompt: 'p', checks: [{ file: 'out.txt', exists: true }] };

/** A command agent printing $API_TOKEN in its answer, so a report would hold it unless redacted. */
function project(scenarios: unknown): string {
  const dir = tempDir('axis-renv-proj-');
  const agent = join(dir, 'agent.sh');
  writeFileSync(
    agent,
    '#!/bin/sh\ncat >/dev/null\necho hi > out.txt\n' +
      'echo "{\\"type\\":\\"text\\",\\"text\\":\\"token=$API_TOKEN\\"}"\n' +
      'echo "{\\"type\\":\\"result\\",\\"text\\":\\"done $API_TOKEN\\"}"\n',
    { mode: 0o755 },
  );
  const agents = [{ agent: 'command', name: 'env', command: agent, output: 'ndjson' }];
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ scenarios, agents }));
  return dir;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

it(
  "a remote JSON scenario's env field is refused as the project's own is (file, field, exit 2)",
  async () => {
    const repo = createRepo(tempDir('axis-renv-git-'), 'acme', 'envs');
    repo.commit({ 'scenarios/j.json': withEnv });
    const remote = await axis(['validate'], project([repo.url]));
    const local = project('./scenarios');
    mkdirSync(join(local, 'scenarios'));
    writeFileSync(join(local, 'scenarios/j.json'), JSON.stringify(withEnv));
    const own = await axis(['validate'], local);
    expect([remote.code, own.code]).toEqual([2, 2]);
    const problem = 'j.json: env: unknown key; expected one of: $schema, key, name,';
    expect(remote.stderr).toContain(`.axis/remotes/local/acme/envs@HEAD/scenarios/${problem}`);
    expect(own.stderr).toContain(`  scenarios/${problem}`);
    expect(remote.stderr).not.toContain(SECRET);
  },
  T,
);

it(
  "a remote config's env values reach the agent but no report file",
  async () => {
    const repo = createRepo(tempDir('axis-renv-git2-'), 'acme', 'cfg');
    repo.commit({ 'axis.config.json': { env: { API_TOKEN: SECRET } }, 'scenarios/j.json': plain });
    const dir = project([repo.url]);
    const r = await axis(['run', '--no-score'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const files = filesUnder(join(dir, '.axis/reports'));
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    expect(texts.some((t) => t.includes('token=[REDACTED]'))).toBe(true);
    expect(files.filter((_, i) => texts[i]!.includes(SECRET))).toEqual([]);
  },
  T,
);
