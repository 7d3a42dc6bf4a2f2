/**
 * Errors a user can act on. The CLI prints `message` (never a stack) and exits with `exitCode`.
 * Anything that is not an AxisError is a bug in AXIS and is reported as such.
 */
export class AxisError extends Error {
  readonly exitCode: number;
  /** The json reporters already wrote the command's one document: no `{ "error" }` document follows it. */
  readonly documentPrinted: boolean;
  /** The reporters had their end (the run is reported): no failure outputs replace theirs. */
  readonly reported: boolean;
  constructor(
    message: string,
    options: { exitCode?: number; cause?: unknown; documentPrinted?: boolean; reported?: boolean } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AxisError';
    this.exitCode = options.exitCode ?? 1;
    this.documentPrinted = options.documentPrinted ?? false;
    this.reported = options.reported ?? false;
  }
}

/** One problem in one file: `scenarios/cms/post.json: judge[2].weight: expected …, found …`. */
export interface ValidationIssue {
  /** Path of the file, relative to the cwd when possible. */
  file: string;
  /** JSON path inside the file, e.g. `judge[2].weight`; empty for the whole file. */
  path: string;
  message: string;
}

export function formatIssue(issue: ValidationIssue): string {
  return issue.path ? `${issue.file}: ${issue.path}: ${issue.message}` : `${issue.file}: ${issue.message}`;
}

/** Config or scenario problems. Always exit code 2, all issues reported together. */
export class ConfigError extends AxisError {
  readonly issues: ValidationIssue[];
  /** `note`: a line after the list, e.g. how to run without the keys it names. */
  constructor(issues: ValidationIssue[], note?: string) {
    const lines = issues.map((i) => `  ${formatIssue(i)}`);
    const noun = issues.length === 1 ? 'problem' : 'problems';
    const tail = note ? `\n${note}` : '';
    super(`Invalid configuration (${issues.length} ${noun}):\n${lines.join('\n')}${tail}`, { exitCode: 2 });
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** Errors that came after the run made its report folder, with that folder. */
const runFolders = new WeakMap<object, string>();

/** `err` came after the run made `dir`: its failure outputs (a bare junit.xml) go there, not a new folder. */
export function noteRunFolder(err: unknown, dir: string): void {
  if (typeof err === 'object' && err !== null) runFolders.set(err, dir);
}

/** The report folder of the run `err` ended, when it had made one. */
export function runFolderOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? runFolders.get(err) : undefined;
}
