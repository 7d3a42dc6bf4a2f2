/**
 * Reports, the terminal and the judge's prompt show each criterion by its label only, so two of one
 * scenario with the same label could not be told apart there (one passed, which?): validation refuses them.
 */
import { joinPath, type PathMessage } from './issues.js';

const ADVICE = 'reports show each check by its name';

/** Judge checks by their text; checks by their label (`named`: set by the check's own `name`). */
export function duplicateLabels(
  judge: readonly string[],
  checks: readonly { label: string; named: boolean }[],
  where: string,
  judgeName: string,
): PathMessage[] {
  const issues: PathMessage[] = [];
  const seenJudge = new Map<string, number>();
  judge.forEach((text, i) => {
    const first = seenJudge.get(text);
    if (first === undefined) seenJudge.set(text, i);
    else
      issues.push({
        path: joinPath(where, `${judgeName}[${i}].check`),
        message: `duplicate judge check ${JSON.stringify(text)} (also ${judgeName}[${first}]); remove one`,
      });
  });
  const seen = new Map<string, number>();
  checks.forEach(({ label, named }, i) => {
    const first = seen.get(label);
    if (first === undefined) seen.set(label, i);
    else if (named)
      issues.push({
        path: joinPath(where, `checks[${i}].name`),
        message: `duplicate check name ${JSON.stringify(label)} (also checks[${first}]): ${ADVICE}; give each its own`,
      });
    else
      issues.push({
        path: joinPath(where, `checks[${i}]`),
        message: `duplicate check ${JSON.stringify(label)} (also checks[${first}]): ${ADVICE}; remove one, or give each its own "name"`,
      });
  });
  return issues;
}
