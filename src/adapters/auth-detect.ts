/**
 * Local CLI logins on the host (laptop use): where Claude Code and Codex keep them, and the minimal
 * files a job needs. Never the user's MCP servers, projects or history.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CredentialFile } from './types.js';

type HostEnv = Readonly<Record<string, string | undefined>>;

function nonEmptyFile(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && st.size > 0;
  } catch {
    return false;
  }
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Claude Code login: `oauthAccount` in .claude.json and/or `.credentials.json` in the config dir. */
export function claudeLoginFiles(hostHome: string, hostEnv: HostEnv = {}): CredentialFile[] | undefined {
  const configDir = hostEnv.CLAUDE_CONFIG_DIR || join(hostHome, '.claude');
  const globalFile = hostEnv.CLAUDE_CONFIG_DIR
    ? join(configDir, '.claude.json')
    : join(hostHome, '.claude.json');
  const credentials = join(configDir, '.credentials.json');
  const account = readJson(globalFile)?.oauthAccount as Record<string, unknown> | undefined;
  const hasAccount =
    !!account && typeof account === 'object' && !!(account.emailAddress || account.accountUuid);
  const hasCredentials = nonEmptyFile(credentials);
  if (!hasAccount && !hasCredentials) return undefined;
  const files: CredentialFile[] = [];
  if (hasCredentials) files.push({ from: credentials, to: '.claude/.credentials.json' });
  // Only the account identity: no mcpServers, projects, history or tips state.
  const minimal: Record<string, unknown> = { hasCompletedOnboarding: true };
  if (hasAccount) minimal.oauthAccount = account;
  files.push({
    from: globalFile,
    to: '.claude/.claude.json',
    content: `${JSON.stringify(minimal, null, 2)}\n`,
  });
  return files;
}

export function detectClaudeLogin(hostHome: string): boolean {
  return claudeLoginFiles(hostHome) !== undefined;
}

/** Codex login: `auth.json` in CODEX_HOME (default ~/.codex). */
export function codexLoginFiles(hostHome: string, hostEnv: HostEnv = {}): CredentialFile[] | undefined {
  const auth = join(hostEnv.CODEX_HOME || join(hostHome, '.codex'), 'auth.json');
  return nonEmptyFile(auth) ? [{ from: auth, to: '.codex/auth.json' }] : undefined;
}

export function detectCodexLogin(hostHome: string): boolean {
  return codexLoginFiles(hostHome) !== undefined;
}

/** opencode login (`opencode auth login`): `auth.json` in its XDG data dir. */
export function opencodeLoginFiles(hostHome: string, hostEnv: HostEnv = {}): CredentialFile[] | undefined {
  const auth = join(hostEnv.XDG_DATA_HOME || join(hostHome, '.local', 'share'), 'opencode', 'auth.json');
  return nonEmptyFile(auth) ? [{ from: auth, to: '.local/share/opencode/auth.json' }] : undefined;
}
