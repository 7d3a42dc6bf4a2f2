/**
 * A config file with problems: loadConfig still reports the problems of its rules and scenarios, from a
 * best-effort copy of the config, or from its `scenarios` field alone when nothing sound is left.
 */
import { resolve } from 'node:path';
import type { z } from 'zod';
import type { ValidationIssue } from '../util/errors.js';
import { unknownKeyPaths } from './issues.js';
import { DEFAULT_API_FAILURE_MINUTES } from './resolve.js';
import { isPlainObject } from './schema-helpers.js';
import { configSchema, type AxisConfig } from './schema.js';
import { collectScenarios } from './scenario-collect.js';
import { displayPath, resolveSources } from './scenarios.js';

/**
 * A best-effort config from one with shape problems, so the rules and the scenarios can still report
 * theirs: unknown keys are dropped, then every top-level field that still has a problem. `scenarios`
 * becomes empty rather than falling back to the default folder.
 */
export function salvage(raw: unknown, shapeIssues: readonly z.core.$ZodIssue[]): AxisConfig | undefined {
  if (!isPlainObject(raw)) return undefined;
  const copy = plainCopy(raw);
  for (const path of unknownKeyPaths(shapeIssues)) {
    const parent = path
      .slice(0, -1)
      .reduce<unknown>(
        (o, k) => (isPlainObject(o) || Array.isArray(o) ? (o as Record<PropertyKey, unknown>)[k] : undefined),
        copy,
      );
    if (isPlainObject(parent)) delete parent[path.at(-1) as string];
  }
  const again = configSchema.safeParse(copy);
  const bad = new Set(again.success ? [] : again.error.issues.map((i) => i.path[0]));
  const rest = Object.fromEntries(Object.entries(copy).filter(([k]) => !bad.has(k)));
  if (bad.has('scenarios')) rest.scenarios = [];
  const parsed = configSchema.safeParse(rest);
  return parsed.success ? (parsed.data as AxisConfig) : undefined;
}

/** A copy of the plain-data part of a config (TS configs may hold other values; they are kept as they are). */
function plainCopy(value: Record<string, unknown>): Record<string, unknown> {
  const copy = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(copy)
      : isPlainObject(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]))
        : v;
  return copy(value) as Record<string, unknown>;
}

/** When the config itself is invalid, still validate the scenarios its `scenarios` field points at. */
export async function scenariosOfBrokenConfig(
  raw: unknown,
  configDir: string,
  configPath: string,
  cwd: string,
): Promise<ValidationIssue[]> {
  if (!isPlainObject(raw)) return [];
  const field = configSchema.shape.scenarios.safeParse(raw.scenarios);
  if (!field.success) return [];
  const { sources, issues: sourceIssues } = resolveSources(field.data, configDir);
  const file = displayPath(configPath, cwd);
  const settings = configSchema.shape.settings.safeParse(raw.settings);
  const simulate = settings.success ? settings.data?.simulate : undefined;
  const scenario = settings.success ? settings.data?.limits?.scenario : undefined;
  const tapes = simulate === true ? './tapes' : simulate ? (simulate.tapes ?? './tapes') : undefined;
  const limits = {
    time_minutes: scenario?.time_minutes ?? 15,
    ...(scenario?.tokens ? { tokens: scenario.tokens } : {}),
  };
  const found = await collectScenarios(
    sources,
    {
      limits: { run: {}, scenario: limits, api_failures: DEFAULT_API_FAILURE_MINUTES },
      simulate: tapes ? { tapes: resolve(configDir, tapes) } : false,
    },
    { configDir, cwd, configFile: configPath },
  );
  return [...sourceIssues.map((i) => ({ file, ...i })), ...found.issues];
}
