/**
 * Commander's own usage errors (an unknown option, a missing value, a value outside its choices, a
 * repeated option) end before any action runs, so runAction's error path never sees them. They still owe
 * their outputs: with `--json`, the `{ "error" }` document; for the commands with `--reporter` (`axis
 * run`, `axis reports merge`), CI's `::error` annotation and JUnit file too (docs/ci.md). Both follow the
 * command that failed and the arguments commander gave it, read as commander reads them: an error can
 * stop commander mid-way (a repeated option), so what comes after is read here.
 */
import type { Command, CommanderError, Option } from 'commander';

/** The command each usage error came from. */
const failedIn = new WeakMap<CommanderError, Command>();
/** The arguments commander gave each command to parse (after its name). */
const argsOf = new WeakMap<Command, readonly string[]>();

/** Marks the usage errors of `command` and its subcommands, so main can give them their outputs. */
export function trackUsageErrors(command: Command): void {
  const parse = command.parseOptions.bind(command);
  command.parseOptions = (args) => {
    argsOf.set(command, args);
    return parse(args);
  };
  command.exitOverride((err) => {
    failedIn.set(err, command);
    throw err;
  });
  for (const sub of command.commands) trackUsageErrors(sub);
}

export interface UsageOptions {
  json: boolean;
  /** The `--reporter` values; absent for a command without `--reporter`. */
  reporter?: string[];
  /** The `-c, --config` value, where a bare `--reporter junit` finds the report folder. */
  config?: string;
  /** `axis run -o <dir>`: gets the `{ "error" }` document. */
  outputDir?: string;
}

/**
 * What a usage error's outputs need: `--json` when the failed command has it and it was given as an
 * option (not after `--`, not as another option's value), the `--reporter` and `--config` values.
 */
export function usageOptions(err: CommanderError): UsageOptions {
  const command = failedIn.get(err);
  if (!command) return { json: false };
  const given = givenOptions(command, argsOf.get(command) ?? []);
  const value = (long: string) => given.filter((g) => g.option.long === long && g.value !== undefined);
  const json = command.opts().json === true || given.some((g) => g.option.long === '--json');
  if (!command.options.some((o) => o.long === '--reporter')) return { json };
  const config = value('--config').at(-1)?.value;
  const outputDir = value('--output-dir').at(-1)?.value;
  return {
    json,
    reporter: value('--reporter').map((g) => g.value!),
    ...(config !== undefined ? { config } : {}),
    ...(outputDir !== undefined ? { outputDir } : {}),
  };
}

/** The `--reporter` values among `args` (see {@link givenOptions}). */
export function reporterValues(command: Command, args: readonly string[]): string[] {
  return givenOptions(command, args).flatMap((g) =>
    g.option.long === '--reporter' && g.value !== undefined ? [g.value] : [],
  );
}

export interface GivenOption {
  option: Option;
  /** The value a value-taking option got; undefined for a flag, or a value left out at the end. */
  value?: string;
}

/**
 * The options of `command` among `args`, read as commander reads them: a value-taking option takes the
 * next argument whatever it is (`-s --reporter` names a scenario `--reporter`), an optional value only
 * one that does not look like an option, `-vs x` is `-v -s x`, `--flag=x` is no flag, and nothing after
 * `--` is an option. Unknown options are passed over, as commander does before it reports them.
 */
export function givenOptions(command: Command, args: readonly string[]): GivenOption[] {
  const given: GivenOption[] = [];
  const find = (flag: string) => command.options.find((o) => o.long === flag || o.short === flag);
  const take = (option: Option, value?: string) =>
    given.push({ option, ...(value !== undefined ? { value } : {}) });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    const option = find(arg);
    if (option) {
      if (option.required) take(option, args[++i]);
      else if (!option.optional) take(option);
      else if (i + 1 < args.length && !looksLikeOption(args[i + 1]!)) take(option, args[++i]);
      else take(option);
    } else if (/^--[^=]+=/.test(arg)) {
      const eq = arg.indexOf('=');
      const long = find(arg.slice(0, eq));
      if (long && (long.required || long.optional)) take(long, arg.slice(eq + 1));
    } else if (/^-[^-]./.test(arg)) {
      i = shortGroup(arg, args, i, find, take);
    }
  }
  return given;
}

/** `-vs x`, `-sfoo`: booleans one by one until an option that takes the rest, or the next argument. */
function shortGroup(
  arg: string,
  args: readonly string[],
  i: number,
  find: (flag: string) => Option | undefined,
  take: (option: Option, value?: string) => void,
): number {
  for (let at = 1; at < arg.length; at++) {
    const option = find(`-${arg[at]}`);
    if (!option) return i;
    if (!option.required && !option.optional) {
      take(option);
      continue;
    }
    const rest = arg.slice(at + 1);
    if (rest !== '') take(option, rest);
    else if (option.required) take(option, args[++i]);
    else if (i + 1 < args.length && !looksLikeOption(args[i + 1]!)) take(option, args[++i]);
    else take(option);
    return i;
  }
  return i;
}

function looksLikeOption(arg: string): boolean {
  return arg.length > 1 && arg.startsWith('-');
}
