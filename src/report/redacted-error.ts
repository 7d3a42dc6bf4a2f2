/**
 * The `{ "error" }` document as every output holds it: `--json`'s stdout, `--reporter json=<file>` and
 * `-o <dir>`. No secret value of the environment is in it: a CI log keeps stdout as long as a report
 * file, so both are redacted here, the one way.
 */
import { secretValues } from '../exec/env.js';
import { errorDocument, type ErrorDocument } from '../util/error-document.js';
import { createScrubber } from './scrub.js';

export function redactedErrorDocument(
  err: unknown,
  exitCode: number,
  env: Readonly<Record<string, string | undefined>>,
): ErrorDocument {
  const scrub = createScrubber({ secrets: secretValues(env), paths: [] });
  return scrub.value(errorDocument(err, exitCode));
}
