import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Options for {@link buildAgentEnv}. */
export interface AgentEnvOptions {
  /** The job's HOME (the workspace `home/` dir); XDG dirs point inside it. */
  home: string;
  /** TMPDIR for the child. Default: the host's temp dir. */
  tmpDir?: string;
  /** Host variable names copied when set (e.g. the agent's auth and base-URL variables, the config's `env`). */
  passthrough?: readonly string[];
  /** Explicit values; they win over everything else. */
  values?: Readonly<Record<string, string | undefined>>;
  /** Where passthrough and base values are read from. Default `process.env`. */
  hostEnv?: Readonly<Record<string, string | undefined>>;
}

const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Host variables a Windows child cannot start without. */
const WINDOWS_BASE = ['SystemRoot', 'SystemDrive', 'windir', 'ComSpec', 'PATHEXT'];

/**
 * The minimal environment an agent (or lifecycle script, or judge) runs with. The host environment is
 * NOT inherited: only PATH, locale, TZ, user and shell, plus the names and values the caller lists.
 */
export function buildAgentEnv(opts: AgentEnvOptions): Record<string, string> {
  const host = opts.hostEnv ?? process.env;
  const env: Record<string, string> = {};
  const copy = (name: string): void => {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  };

  env.PATH = host.PATH ?? host.Path ?? FALLBACK_PATH;
  env.LANG = host.LANG ?? 'C.UTF-8';
  copy('LC_ALL');
  copy('LC_CTYPE');
  copy('TZ');
  env.TERM = 'dumb';
  env.TMPDIR = opts.tmpDir ?? tmpdir();
  const user = host.USER ?? host.LOGNAME ?? safeUsername();
  if (user) {
    env.USER = user;
    env.LOGNAME = host.LOGNAME ?? user;
  }
  env.SHELL = host.SHELL ?? '/bin/sh';

  env.HOME = opts.home;
  Object.assign(env, xdgDirs(opts.home));
  if (process.platform === 'win32') {
    for (const name of WINDOWS_BASE) copy(name);
    env.USERPROFILE = opts.home;
    env.APPDATA = join(opts.home, 'AppData', 'Roaming');
    env.LOCALAPPDATA = join(opts.home, 'AppData', 'Local');
    env.TEMP = env.TMP = env.TMPDIR;
  }

  for (const name of opts.passthrough ?? []) copy(name);
  for (const [name, value] of Object.entries(opts.values ?? {})) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** XDG base directories inside a job home (created by `createWorkspace`). */
export function xdgDirs(home: string): Record<string, string> {
  return {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
}

/** Looked up once per uid: `userInfo` reads the password database (getpwuid) on every call. */
let user: { uid: number; name: string | undefined } | undefined;

function safeUsername(): string | undefined {
  const uid = process.getuid?.() ?? -1;
  if (user?.uid === uid) return user.name;
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    name = undefined;
  }
  user = { uid, name };
  return name;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|AUTH(?!OR(?!IZ))/i;
/** Shorter values would redact ordinary words and numbers. */
export const MIN_SECRET_LENGTH = 8;

/** True when a variable name looks like it holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * Values of variables whose names look secret (KEY, TOKEN, SECRET, PASSWORD, AUTH but not AUTHOR, CREDENTIAL,
 * COOKIE) and the credentials of URLs in any variable, longest first, for {@link redact}. Values shorter than
 * 8 characters are left out. A multi-line value (a PEM key) also gives each of its lines, since agent output
 * and raw lines are scrubbed one line at a time.
 */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value) for (const c of urlCredentials(value)) values.add(c);
    if (!value || value.length < MIN_SECRET_LENGTH || !isSecretName(name)) continue;
    values.add(value);
    if (!/[\r\n]/.test(value)) continue;
    for (const line of value.split(/\r?\n|\r/))
      if (line.trim().length >= MIN_SECRET_LENGTH) values.add(line.trim());
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** `scheme://user:password@` or `scheme://token@`: user-info before a host, in any value. */
const URL_USERINFO = /[a-z][a-z0-9+.-]*:\/\/([^\s/?#@]+)@/gi;

/**
 * The passwords (and bare tokens: user-info with no `:`) of the URLs in `value`, as written and decoded,
 * of 8 characters or more. A URL's credentials are secret whatever its variable is called
 * (`KEYCLOAK_URL`, `DATABASE_URL`); the user name before a `:` is not.
 */
function urlCredentials(value: string): string[] {
  const out: string[] = [];
  for (const m of value.matchAll(URL_USERINFO)) {
    const info = m[1]!;
    const colon = info.indexOf(':');
    const secret = colon >= 0 ? info.slice(colon + 1) : info;
    let decoded = secret;
    try {
      decoded = decodeURIComponent(secret);
    } catch {
      // not percent-encoded as a URL would be: the text as written is what can be printed
    }
    for (const v of new Set([secret, decoded])) if (v.length >= MIN_SECRET_LENGTH) out.push(v);
  }
  return out;
}

/** `env` with the value of every secret-looking name shown as `[REDACTED]` (an agent entry as reports show it). */
export function maskSecretNames(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) out[k] = isSecretName(k) ? '[REDACTED]' : v;
  return out;
}

/** Replaces every occurrence of each secret with `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && out.includes(secret)) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}
