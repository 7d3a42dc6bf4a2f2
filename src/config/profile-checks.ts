/**
 * The profiles of a config, checked as loadConfig loads it: the one asked for must exist, and every one is
 * checked merged over the base, so a broken profile fails `axis validate` before CI selects it.
 */
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import { closest, formatPath, joinPath, translateIssues, type PathMessage } from './issues.js';
import { mergeOverlay } from './profiles.js';
import { resolveConfig } from './resolve.js';
import { isPlainObject, PARSE_FILE } from './schema-helpers.js';
import { configSchema, type AxisConfig } from './schema.js';
import type { ResolvedConfig } from './types.js';

const noProfileNamed = (name: string) => `no profile named ${JSON.stringify(name)}`;

/**
 * The issue of `err` saying the config declares no profile `name`, and what follows the name in it (the
 * guess and the known profiles); undefined when `err` has no such issue.
 */
export function unknownProfileIssue(
  err: unknown,
  name: string,
): { issue: ValidationIssue; tail: string } | undefined {
  if (!(err instanceof ConfigError)) return undefined;
  const prefix = noProfileNamed(name);
  const issue = err.issues.find((i) => i.path === 'profiles' && i.message.startsWith(prefix));
  return issue && { issue, tail: issue.message.slice(prefix.length) };
}

/**
 * The profile asked for must exist. Every profile is checked merged (when the base config has no
 * problem), used or not, so a broken one fails `axis validate` before CI picks it. Returns the config
 * with the profile asked for, when it resolved, and every profile's config that resolved.
 */
export function checkProfiles(
  baseConfig: AxisConfig,
  profile: string | undefined,
  checkMerged: boolean,
  configDir: string,
  file: string,
  issues: ValidationIssue[],
): { selected?: ResolvedConfig; all: OtherConfig[] } {
  const profiles = baseConfig.profiles ?? {};
  if (profile !== undefined && !Object.hasOwn(profiles, profile)) {
    const names = Object.keys(profiles);
    const guess = closest(profile, names);
    issues.push({
      file,
      path: 'profiles',
      message: names.length
        ? `${noProfileNamed(profile)}${guess ? `; did you mean "${guess}"?` : ''} (known profiles: ${names.join(', ')})`
        : `${noProfileNamed(profile)}: the config declares no profiles`,
    });
  }
  const all: OtherConfig[] = [];
  if (!checkMerged) return { all };
  let selected: ResolvedConfig | undefined;
  for (const [name, overlay] of Object.entries(profiles)) {
    const merged = configSchema.safeParse(mergeOverlay(baseConfig, overlay), PARSE_FILE);
    const found = merged.success ? resolveConfig(merged.data as AxisConfig, configDir) : undefined;
    issues.push(
      ...inProfile(
        merged.success ? found!.issues : translateIssues(merged.error.issues),
        name,
        overlay,
        file,
      ),
    );
    if (found) all.push({ name, config: found.config, overlay });
    if (found && name === profile) selected = found.config;
  }
  return selected ? { selected, all } : { all };
}

/**
 * Problems of a merged profile point into the profile when it sets that very path
 * (`profiles.ci.agents[0]`); otherwise they keep the merged path and say which profile was applied.
 */
export function inProfile(
  list: readonly PathMessage[],
  name: string,
  overlay: unknown,
  file: string,
): ValidationIssue[] {
  const own = new Set<string>();
  const walk = (value: unknown, path: PropertyKey[]) => {
    own.add(formatPath(path));
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(overlay, []);
  const base = formatPath(['profiles', name]);
  return list.map((i) =>
    i.path && own.has(i.path)
      ? { file, path: joinPath(base, i.path), message: i.message }
      : { file, path: i.path, message: `${i.message} (with profile "${name}")` },
  );
}

/** Another profile's config, checked too: its typos would otherwise wait until it is selected. */
export interface OtherConfig {
  name: string;
  config: ResolvedConfig;
  overlay: unknown;
}
