/** The `{ "error": { … } }` document `--json` prints when a command fails, so stdout is always one document. */
import { AxisError, ConfigError, formatIssue } from './errors.js';

export interface ErrorDocument {
  error: {
    message: string;
    exitCode: number;
    /** `config` for invalid configuration, `usage` for other user errors, `internal` for AXIS bugs. */
    kind: 'config' | 'usage' | 'internal';
    issues?: { file: string; path: string; message: string; text: string }[];
  };
}

export function errorDocument(err: unknown, exitCode: number): ErrorDocument {
  if (err instanceof ConfigError) {
    return {
      error: {
        message: err.message,
        exitCode,
        kind: 'config',
        issues: err.issues.map((i) => ({ ...i, text: formatIssue(i) })),
      },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { error: { message, exitCode, kind: err instanceof AxisError ? 'usage' : 'internal' } };
}
