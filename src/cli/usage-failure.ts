/**
 * Commander's own usage errors (an unknown option, a missing value, a value outside its choices, a
 * repeated option) end before any action runs, so runAction's error path never sees them. For the
 * commands with `--reporter` (`axis run`, `axis reports merge`) they still owe CI its outputs: the
 * `::error` annotation, the JUnit file, the json reporter's `{ "error" }` document (docs/ci.md). The
 * `--reporter` values are read back from argv here, as commander has not finished parsing them.
 */
import type { Command, CommanderError, Option } from 'commander';

/** The command a usage error came from, for those whose failures give CI outputs. */
const failedIn = new WeakMap<CommanderError, Command>();

/** Marks the usage errors of `command` (which has `--reporter`) so main can give them CI outputs. */
export function reportsUsageErrors(command: Command): void {
  command.exitOverride((err) => {
    failedIn.set(err, command);
    throw err;
  });
}

export interface UsageOptions {
  json: boolean;
  /** The `--reporter` values; absent for a command without `--reporter`. */
  reporter?: string[];
}

/** What a usage error's outputs need: `--json`, and the `--reporter` values when its command has them. */
export function usageOptions(err: CommanderError, argv: readonly string[]): UsageOptions {
  const json = argv.includes('--json');
  const command = failedIn.get(err);
  if (!command) return { json };
  return { json, reporter: reporterValues(command, argsOf(command, argv.slice(2))) };
}

/** The arguments after the command's own name (`reports merge …`: after `merge`). */
function argsOf(command: Command, args: readonly string[]): readonly string[] {
  const path: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) path.unshift(c.name());
  let at = 0;
  for (const name of path) {
    const i = args.indexOf(name, at);
    if (i < 0) return [];
    at = i + 1;
  }
  return args.slice(at);
}

/**
 * The `--reporter` values among `args`, read as commander reads them: a value-taking option takes the
 * next argument whatever it is (`-s --reporter` names a scenario `--reporter`), an optional value only
 * one that does not look like an option, `-vs x` is `-v -s x`, and a `--reporter` left without its value
 * gives none. Unknown options are passed over, as commander does before it reports them.
 */
export function reporterValues(command: Command, args: readonly string[]): string[] {
  const values: string[] = [];
  const find = (flag: string) => command.options.find((o) => o.long === flag || o.short === flag);
  const take = (option: Option, value: string | undefined) => {
    if (option.long === '--reporter' && value !== undefined) values.push(value);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    const option = find(arg);
    if (option) {
      if (option.required) take(option, args[++i]);
      else if (option.optional && i + 1 < args.length && !looksLikeOption(args[i + 1]!)) i++;
    } else if (/^--[^=]+=/.test(arg)) {
      const eq = arg.indexOf('=');
      const long = find(arg.slice(0, eq));
      if (long) take(long, arg.slice(eq + 1));
    } else if (/^-[^-]./.test(arg)) {
      i = shortGroup(arg, args, i, find, take);
    }
  }
  return values;
}

/** `-vs x`, `-sfoo`: booleans one by one until an option that takes the rest, or the next argument. */
function shortGroup(
  arg: string,
  args: readonly string[],
  i: number,
  find: (flag: string) => Option | undefined,
  take: (option: Option, value: string | undefined) => void,
): number {
  for (let at = 1; at < arg.length; at++) {
    const option = find(`-${arg[at]}`);
    if (!option) return i;
    if (option.isBoolean() || option.negate) continue;
    const rest = arg.slice(at + 1);
    if (rest !== '') take(option, rest);
    else if (option.required) take(option, args[++i]);
    else if (i + 1 < args.length && !looksLikeOption(args[i + 1]!)) i++;
    return i;
  }
  return i;
}

function looksLikeOption(arg: string): boolean {
  return arg.length > 1 && arg.startsWith('-');
}
