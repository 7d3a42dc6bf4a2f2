/**
 * Turns zod issues into AXIS messages: one line per problem, with a JSON path like `judge[2].weight`,
 * unknown keys reported one by one with a "did you mean" suggestion, and unions reduced to the branch the
 * user evidently meant.
 */
import type { z } from 'zod';
import { UNKNOWN_KEYS_MARK } from './schema-helpers.js';
import { describeValue } from '../util/describe-value.js';

export interface PathMessage {
  path: string;
  message: string;
}

type Key = PropertyKey;
type Issue = z.core.$ZodIssue;

/** `['judge', 2, 'weight']` → `judge[2].weight`; odd keys are quoted: `mcp_servers["my server"]`. */
export function formatPath(path: readonly Key[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

export function joinPath(base: string, rest: string): string {
  if (!base) return rest;
  if (!rest) return base;
  return rest.startsWith('[') ? `${base}${rest}` : `${base}.${rest}`;
}

/** Levenshtein distance, small inputs only. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The closest candidate within a typo's reach, compared case-insensitively. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const reach = Math.max(2, Math.floor(word.length / 3));
  return best !== undefined && bestDistance <= reach ? best : undefined;
}

export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const guess = closest(key, known);
  if (guess) return `unknown key; did you mean "${guess}"?`;
  return `unknown key; expected one of: ${known.join(', ')}`;
}

const isCustom = (message: string) => /^[a-z]/.test(message);

/** A root issue saying the value is of another kind than the branch takes (an object for an enum). */
function wrongKind(issue: Issue): boolean {
  if (issue.path.length > 0) return false;
  if (issue.code === 'invalid_type') return true;
  return issue.code === 'invalid_value' && issue.values.every((v) => typeof v !== typeof issue.input);
}

function branchScore(issues: readonly Issue[]): number {
  let score = 0;
  for (const issue of issues) {
    if (wrongKind(issue)) return Infinity;
    if (issue.code === 'invalid_type' && issue.input === undefined) score += 100;
    else if (issue.code === 'unrecognized_keys') score += 10 * issue.keys.length;
    else score += 1;
  }
  return score;
}

function bestBranch(issue: Issue & { code: 'invalid_union' }): readonly Issue[] | undefined {
  if (isCustom(issue.message) || issue.errors.length === 0) return undefined;
  const ranked = issue.errors
    .map((branch) => ({ branch, score: branchScore(branch) }))
    .sort((a, b) => a.score - b.score);
  return ranked[0]!.score === Infinity ? undefined : ranked[0]!.branch;
}

/** Paths of unknown keys (`[...objectPath, key]`), following the branch each union was meant to take. */
export function unknownKeyPaths(issues: readonly Issue[], prefix: readonly Key[] = []): Key[][] {
  const out: Key[][] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') out.push(...issue.keys.map((k) => [...path, k]));
    else if (issue.code === 'invalid_union') {
      const branch = bestBranch(issue);
      if (branch) out.push(...unknownKeyPaths(branch, path));
    }
  }
  return out;
}

/** Translates issues parsed with `{ reportInput: true }`. */
export function translateIssues(issues: readonly Issue[], prefix: readonly Key[] = []): PathMessage[] {
  const out: PathMessage[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const known = issue.message.startsWith(UNKNOWN_KEYS_MARK)
        ? (JSON.parse(issue.message.slice(UNKNOWN_KEYS_MARK.length)) as string[])
        : [];
      for (const key of issue.keys)
        out.push({ path: formatPath([...path, key]), message: unknownKeyMessage(key, known) });
      continue;
    }
    if (issue.code === 'invalid_key') {
      const inner = translateIssues(issue.issues as Issue[]);
      const message = inner[0]?.message ?? `invalid name ${describeValue(issue.input)}`;
      out.push({ path: formatPath(path), message: `invalid name: ${message}` });
      continue;
    }
    if (issue.code === 'invalid_union') {
      const branch = bestBranch(issue);
      if (branch) {
        out.push(...translateIssues(branch, path));
        continue;
      }
    }
    out.push({ path: formatPath(path), message: isCustom(issue.message) ? issue.message : fallback(issue) });
  }
  const seen = new Set<string>();
  return out.filter((i) => {
    const id = `${i.path}\u0000${i.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** For the few issues that carry no AXIS message of their own. */
function fallback(issue: Issue): string {
  const found = describeValue(issue.input);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `missing; expected ${issue.expected}`
        : `expected ${issue.expected}, found ${found}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, found ${found}`;
    case 'too_small':
      return `expected at least ${String(issue.minimum)}, found ${found}`;
    case 'too_big':
      return `expected at most ${String(issue.maximum)}, found ${found}`;
    default:
      return `${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}, found ${found}`;
  }
}
