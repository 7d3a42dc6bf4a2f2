/**
 * `axis init`: write axis.config.<format>, <scenarios>/hello-world.json and its simulator tape, keep
 * AXIS's caches out of git, then copy AXIS's own skills from this package into the chosen agents' project
 * skill folders (offline; nothing is downloaded or run).
 * Never overwrites without --force, and writes nothing when it refuses.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BUILTIN_AGENT_NAMES, agentCapabilities, isBuiltinAgent } from '../../config/agents.js';
import { isPreset, PRESET_NAMES } from '../../config/catalogue.js';
import { CONFIG_NAMES } from '../../config/find.js';
import { closest } from '../../config/issues.js';
import { SCHEMA_URLS } from '../../config/schema.js';
import { AxisError } from '../../util/errors.js';
import { PACKAGE_ROOT } from '../../util/package-root.js';
import { cannotWrite } from '../../util/write-error.js';
import { HELLO_TAPE, helloTape } from './init-tape.js';

export interface InitOptions {
  scenarios: string;
  /** Absent: claude-code. */
  agent?: string;
  format: 'json' | 'js' | 'ts';
  force: boolean;
  skills: boolean;
}

/**
 * What AXIS generates: the spec's three (reports and cached clones; `.axis/repos/` is kept for projects
 * set up by earlier tools), then the skill clones, the judge and trend caches and shard blobs.
 * `.axis/baselines/` is meant to be committed.
 */
export const GITIGNORE_LINES = [
  '.axis/reports/',
  '.axis/remotes/',
  '.axis/repos/',
  '.axis/skills-cache/',
  '.axis/cache/',
  '.axis/blobs/',
];

const FORMATS: readonly string[] = ['json', 'js', 'ts'] satisfies InitOptions['format'][];

const toPosix = (p: string) => p.split(sep).join('/');

export function parseAgentList(value: string): string[] {
  const names = [
    ...new Set(
      value
        .split(/[\s,]+/)
        .map((n) => n.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  // A bad --agent value is bad input (exit 2), like every other bad flag.
  if (names.length === 0)
    throw new AxisError(
      `--agent: expected one or more agent names, found ${JSON.stringify(value)}. Built-in agents: ${BUILTIN_AGENT_NAMES.join(', ')}.`,
      { exitCode: 2 },
    );
  // ACP presets are agent names a config may use, as upstream's init took them.
  const unknown = names.filter((n) => !isBuiltinAgent(n) && !isPreset(n));
  if (unknown.length > 0) {
    const guess =
      unknown.length === 1 ? closest(unknown[0]!, [...BUILTIN_AGENT_NAMES, ...PRESET_NAMES]) : undefined;
    throw new AxisError(
      `Unknown agent${unknown.length > 1 ? 's' : ''} for --agent: ${unknown.join(', ')}` +
        `${guess ? `; did you mean "${guess}"?` : '.'} Built-in agents: ${BUILTIN_AGENT_NAMES.join(', ')}; ` +
        'the ACP presets: `axis agents`.',
      { exitCode: 2 },
    );
  }
  const needCommand = names.filter((n) => agentCapabilities(n).needsCommand);
  if (needCommand.length > 0) {
    throw new AxisError(
      `Agent "${needCommand[0]}" needs a "command" that init cannot guess. Run init with another agent, then add ` +
        `{ "agent": "${needCommand[0]}", "command": "<executable>" } to "agents" by hand.`,
      { exitCode: 2 },
    );
  }
  return names;
}

function scenariosSpec(path: string): string {
  const p = toPosix(path);
  return isAbsolute(path) || p.startsWith('./') || p.startsWith('../') ? p : `./${p}`;
}

/** JSON with short objects and arrays kept on one line, as a person would write it. */
export function prettyJson(value: unknown, indent = ''): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = indent + '  ';
  const isArray = Array.isArray(value);
  const items = isArray
    ? (value as unknown[]).map((v) => prettyJson(v, inner))
    : Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${prettyJson(v, inner)}`);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return `${open}${close}`;
  const flat = isArray ? `[${items.join(', ')}]` : `{ ${items.join(', ')} }`;
  const hasObjects = isArray && (value as unknown[]).some((v) => typeof v === 'object' && v !== null);
  if (indent !== '' && !hasObjects && !flat.includes('\n') && flat.length + indent.length <= 100) return flat;
  return `${open}\n${items.map((i) => inner + i).join(',\n')}\n${indent}${close}`;
}

/** A single-quoted JS string literal: JSON's escapes, with `'` escaped since it ends the literal. */
function jsString(value: string): string {
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

export function configText(format: InitOptions['format'], scenarios: string, agents: string[]): string {
  if (format === 'json') {
    return `${prettyJson({ $schema: SCHEMA_URLS.config, scenarios, agents })}\n`;
  }
  const body = [
    "import { defineConfig } from 'axis-eval';",
    '',
    'export default defineConfig({',
    `  scenarios: ${jsString(scenarios)},`,
    `  agents: [${agents.map((a) => `'${a}'`).join(', ')}],`,
    '});',
    '',
  ];
  return format === 'js' ? ['// @ts-check', ...body].join('\n') : body.join('\n');
}

export function helloWorldText(schemaRef: string): string {
  const scenario = {
    $schema: schemaRef,
    name: 'Hello world',
    prompt: "Create a file called hello.txt with the content 'Hello, World!'",
    judge: [
      { check: 'The agent created hello.txt in the working directory' },
      { check: 'hello.txt contains the text Hello, World!' },
    ],
    checks: [
      { file: 'hello.txt', exists: true },
      { file: 'hello.txt', contains: 'Hello, World!' },
    ],
  };
  return `${prettyJson(scenario)}\n`;
}

/** The file with the missing AXIS lines appended; undefined when none is missing. */
export function gitignoreText(path: string): string | undefined {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw cannotWrite(path, err, 'Nothing was written.');
  }
  // `/.axis/cache/` in the root .gitignore is the same rule as `.axis/cache/`.
  const present = new Set(current.split(/\r?\n/).map((l) => l.trim().replace(/^\//, '')));
  const missing = GITIGNORE_LINES.filter((l) => !present.has(l) && !present.has(l.replace(/\/$/, '')));
  if (missing.length === 0) return undefined;
  // Keep the file's own line ends: a CRLF file stays CRLF.
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const prefix = current === '' || current.endsWith('\n') ? '' : eol;
  return `${current}${prefix}${missing.join(eol)}${eol}`;
}

/**
 * Where each agent CLI discovers project skills (checked against the pinned CLIs: Claude Code
 * `.claude/skills`, Codex `.agents/skills`, Gemini CLI `.gemini/skills`, Qwen Code `.qwen/skills`, opencode
 * `.opencode/skills`).
 */
export const PROJECT_SKILL_DIRS: Record<string, string> = {
  'claude-code': '.claude/skills',
  codex: '.agents/skills',
  gemini: '.gemini/skills',
  'qwen-code': '.qwen/skills',
  opencode: '.opencode/skills',
};

/** The skills folder shipped in this package (next to dist/). */
export function bundledSkillsDir(): string {
  return join(PACKAGE_ROOT, 'skills');
}

/**
 * AXIS's own skills from the installed package, as the files to write into each agent's project skill
 * folder. Offline and local: nothing is downloaded or executed.
 */
export function skillFiles(
  cwd: string,
  agents: readonly string[],
  from = bundledSkillsDir(),
): { targets: string[]; files: PlannedFile[] } {
  if (!existsSync(from)) throw new AxisError(`the AXIS skills are missing from this install (${from})`);
  const names = readdirSync(from).filter((n) => existsSync(join(from, n, 'SKILL.md')));
  const targets = [...new Set(agents.map((a) => PROJECT_SKILL_DIRS[a]).filter((d): d is string => !!d))];
  const files: PlannedFile[] = [];
  for (const name of names) {
    const dir = join(from, name);
    for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!statSync(join(dir, rel)).isFile()) continue;
      const content = readFileSync(join(dir, rel));
      for (const target of targets) files.push({ path: join(cwd, target, name, rel), content });
    }
  }
  return { targets, files };
}

/** A file there already with other content than init would write (or something else in its place). */
function changed(f: PlannedFile): boolean {
  try {
    return !readFileSync(f.path).equals(Buffer.from(f.content));
  } catch (err) {
    // Nothing there, or a file in the way of its folder (writeAll says so): not the user's edits.
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

interface PlannedFile {
  path: string;
  content: string | Buffer;
}

/**
 * A symlink to nothing at `path` or on its way there: writing would create its target elsewhere (and
 * undoing would delete the link, not the file made), so init refuses it.
 */
function danglingLink(path: string): { link: string; target: string } | undefined {
  for (let p = path; dirname(p) !== p; p = dirname(p)) {
    let isLink: boolean;
    try {
      isLink = lstatSync(p).isSymbolicLink();
    } catch {
      continue; // Not there yet: init makes it, unless something above is in the way.
    }
    if (!isLink || existsSync(p)) return undefined;
    return { link: p, target: readlinkSync(p) };
  }
  return undefined;
}

function refuseDanglingLinks(files: readonly PlannedFile[]): void {
  for (const f of files) {
    const found = danglingLink(f.path);
    if (!found) continue;
    const subject = found.link === f.path ? 'it is' : `${toPosix(relative(process.cwd(), found.link))} is`;
    throw new AxisError(
      `Cannot write ${toPosix(relative(process.cwd(), f.path))}: ${subject} a symbolic link to ${found.target}, ` +
        'which does not exist. Nothing was written.',
    );
  }
}

/**
 * Writes every file or none: on a failure the files written so far get their old content back (or
 * go), the folders made for them go, and the error names the file that failed.
 */
function writeAll(files: readonly PlannedFile[]): void {
  refuseDanglingLinks(files);
  const undo: Array<() => void> = [];
  for (const f of files) {
    try {
      const made = mkdirSync(dirname(f.path), { recursive: true });
      if (made) undo.push(() => rmSync(made, { recursive: true, force: true }));
      const before = existsSync(f.path) ? readFileSync(f.path) : undefined;
      undo.push(() =>
        before !== undefined ? writeFileSync(f.path, before) : rmSync(f.path, { force: true }),
      );
      writeFileSync(f.path, f.content);
    } catch (err) {
      for (const step of undo.reverse()) {
        try {
          step();
        } catch {
          // Best effort: the write error below is what the user needs.
        }
      }
      // mkdir says EEXIST for a file where the folder goes: the same case as ENOTDIR further down.
      const code = (err as NodeJS.ErrnoException).code === 'EEXIST' ? 'ENOTDIR' : undefined;
      throw cannotWrite(f.path, code ? { code } : err, 'Nothing was written.');
    }
  }
}

export default async function init(opts: InitOptions): Promise<number> {
  const cwd = process.cwd();
  const agents = parseAgentList(opts.agent ?? 'claude-code');
  const scenarios = scenariosSpec(opts.scenarios);
  const configName = `axis.config.${opts.format}`;
  const configPath = join(cwd, configName);
  const scenarioPath = resolve(cwd, scenarios, 'hello-world.json');
  const shown = (p: string) => toPosix(relative(cwd, p)) || p;

  const otherConfigs = CONFIG_NAMES.filter((n) => n !== configName && existsSync(join(cwd, n)));
  if (otherConfigs.length > 0) {
    // --format takes only the formats init writes (not mjs, mts, cjs).
    const ext = otherConfigs[0]!.replace('axis.config.', '');
    const or = FORMATS.includes(ext) ? `, or run init with --format ${ext} --force` : '';
    throw new AxisError(
      `${otherConfigs.join(', ')} already exists; nothing was written. Two configs in one folder are ambiguous: ` +
        `remove it first${or}.`,
    );
  }
  const skills = opts.skills ? skillFiles(cwd, agents) : undefined;
  // The tape under the default tapes folder, where simulate looks for the scenario's key.
  const tape = { path: join(cwd, HELLO_TAPE), content: `${prettyJson(helloTape())}\n` };
  const existing = [
    ...[configPath, scenarioPath].filter((p) => existsSync(p)),
    ...[tape, ...(skills?.files ?? [])].filter(changed).map((f) => f.path),
  ];
  if (existing.length > 0 && !opts.force) {
    const shownAll = existing.map(shown);
    const names = [shownAll.slice(0, -1).join(', '), shownAll.at(-1)].filter(Boolean).join(' and ');
    throw new AxisError(
      `${names} already exist${existing.length === 1 ? 's' : ''}; nothing was written. Use --force to overwrite.`,
    );
  }

  const schemaRef = toPosix(relative(dirname(scenarioPath), join(cwd, SCHEMA_URLS.scenario)));
  const gitignorePath = join(cwd, '.gitignore');
  const gitignore = gitignoreText(gitignorePath);
  writeAll([
    { path: configPath, content: configText(opts.format, scenarios, agents) },
    { path: scenarioPath, content: helloWorldText(schemaRef) },
    tape,
    ...(gitignore === undefined ? [] : [{ path: gitignorePath, content: gitignore }]),
    ...(skills?.files ?? []),
  ]);
  const out = process.stdout;
  for (const p of [configPath, scenarioPath, tape.path])
    out.write(`${existing.includes(p) ? 'Replaced' : 'Created'} ${shown(p)}\n`);
  if (gitignore !== undefined) out.write('Updated .gitignore\n');
  if (skills) {
    out.write(
      skills.targets.length
        ? `Installed the AXIS skills (using-axis, configure-axis) into ${skills.targets.join(', ')}\n`
        : `No skill folder is known for ${agents.join(', ')}; the AXIS skills were not installed\n`,
    );
  }
  out.write('\nNext: `axis validate` checks the setup, `axis run` runs your first scenario.\n');
  out.write(
    `No API key? Set "settings": { "simulate": true } in ${configName}: the model simulator then plays ` +
      `${HELLO_TAPE} (docs/simulator.md in axis-eval).\n`,
  );
  return 0;
}
