/**
 * ACP authentication: an agent that answers `session/new` with "auth required" (-32000) is
 * authenticated with the first method it offered whose variables the job env sets (`type: "env_var"`,
 * e.g. codex-acp's OPENAI_API_KEY), then asked again. Methods that need a browser or a terminal are never
 * started. The SDK's schema does not model `env_var` methods yet, so they are read as plain JSON.
 */

/** JSON-RPC code ACP uses for "authentication required". */
export const AUTH_REQUIRED = -32000;

interface MethodJson {
  id?: unknown;
  name?: unknown;
  type?: unknown;
  vars?: unknown;
}

function varNames(m: MethodJson): string[] {
  if (!Array.isArray(m.vars)) return [];
  return m.vars
    .filter((v): v is { name: string; optional?: unknown } => typeof v?.name === 'string')
    .filter((v) => v.optional !== true)
    .map((v) => v.name);
}

export function isAuthRequired(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === AUTH_REQUIRED;
}

/** The id of the first `env_var` method whose required variables are all set (non-empty) in `env`. */
export function envAuthMethod(methods: unknown, env: Record<string, string>): string | undefined {
  if (!Array.isArray(methods)) return undefined;
  for (const m of methods as MethodJson[]) {
    if (m?.type !== 'env_var' || typeof m.id !== 'string') continue;
    const vars = varNames(m);
    if (vars.length > 0 && vars.every((v) => Boolean(env[v]))) return m.id;
  }
  return undefined;
}

/** What the agent would accept, for the error message: `Use OPENAI_API_KEY (set OPENAI_API_KEY), ...`. */
export function authHint(methods: unknown): string {
  if (!Array.isArray(methods) || methods.length === 0) return '';
  const parts = (methods as MethodJson[]).map((m) => {
    const name = typeof m?.name === 'string' ? m.name : String(m?.id);
    const vars = m?.type === 'env_var' ? varNames(m) : [];
    return vars.length ? `${name} (set ${vars.join(', ')} and list it under "env")` : name;
  });
  return `; the agent offers: ${parts.join('; ')}`;
}
