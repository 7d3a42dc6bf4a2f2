import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A throwaway AXIS project: `files` maps relative paths to contents (objects are written as JSON).
 * Returns the real path of the directory (it holds axis.config.json).
 */
export function makeProject(files: Record<string, string | object>): string {
  const dir = tempDir('axis-run-test-');
  for (const [rel, content] of Object.entries(files)) writeIn(dir, rel, content);
  return dir;
}

/** Writes `content` to `root/rel`, making its folders: a string as it is, anything else as JSON. */
export function writeIn(root: string, rel: string, content: unknown): void {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
}

const created: string[] = [];

/** A fresh real-path temp dir, removed by {@link removeTempDirs}. */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Removes every dir made by {@link tempDir} / {@link makeProject} (call from afterAll). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A `command` agent entry running `node <script>` (absolute, since the agent's cwd is its workspace). */
export function nodeAgent(
  name: string,
  script: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { agent: 'command', name, command: process.execPath, args: [script], ...extra };
}

export function scenario(prompt: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: prompt.slice(0, 30), prompt, judge: [{ check: 'the agent did it' }], ...extra };
}

/** Every file under `dir`, relative, sorted. */
export function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path, base));
    else out.push(path.slice(base.length + 1));
  }
  return out.sort();
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** Node one-liner agents (written as files by the tests). */
export const AGENTS = {
  /** Writes the prompt to answer.txt and prints it back. */
  echo: `import { readFileSync, writeFileSync } from 'node:fs';
const prompt = readFileSync(0, 'utf8');
writeFileSync('answer.txt', prompt);
process.stdout.write('answer: ' + prompt + '\\n');
`,
  /** Prints AXIS NDJSON usage lines, then hangs: a token limit must stop it. */
  tokenHog: `process.stdout.write(JSON.stringify({ type: 'text', text: 'thinking hard' }) + '\\n');
for (let i = 0; i < 5; i++) process.stdout.write(JSON.stringify({ type: 'usage', input: 400, output: 100 }) + '\\n');
setInterval(() => {}, 1000);
`,
  /** Never finishes. */
  hang: `process.stdout.write('starting\\n'); setInterval(() => {}, 1000);\n`,
  /** Prints its environment and cwd as JSON. */
  env: `process.stdout.write(JSON.stringify({ env: process.env, cwd: process.cwd() }) + '\\n');\n`,
};
