/** Classifies the strings of `scenarios`: git URLs, globs and plain paths. Pure; no file system. */
import picomatch from 'picomatch';

export interface GitSource {
  kind: 'git';
  /** The URL without `#ref`. */
  url: string;
  ref?: string;
  host: string;
  /** May contain `/` (GitLab groups). */
  owner: string;
  repo: string;
}

export type ParsedSource =
  | GitSource
  | { kind: 'glob'; pattern: string }
  | { kind: 'path'; path: string }
  | { kind: 'invalid'; reason: string };

const URL_FORM = /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)\/([^/]+?)(?:\.git)?\/?$/;
const SCP_FORM = /^[\w.-]+@([^:/]+):(.+)\/([^/]+?)(?:\.git)?\/?$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export function parseSource(spec: string): ParsedSource {
  const hash = spec.indexOf('#');
  const looksRemote = SCHEME.test(spec) || /^[\w.-]+@[^:/]+:/.test(spec);
  if (looksRemote) {
    const url = hash >= 0 ? spec.slice(0, hash) : spec;
    const ref = hash >= 0 ? spec.slice(hash + 1) : undefined;
    if (ref !== undefined && !/^[\w./-]+$/.test(ref)) {
      return {
        kind: 'invalid',
        reason: `expected a branch, tag or commit after "#", found ${JSON.stringify(ref)}`,
      };
    }
    const m = URL_FORM.exec(url) ?? SCP_FORM.exec(url);
    if (!m) {
      return {
        kind: 'invalid',
        reason: `expected a git URL like https://host/owner/repo(.git) or git@host:owner/repo.git, found ${JSON.stringify(spec)}`,
      };
    }
    const source: GitSource = { kind: 'git', url, host: m[1]!.toLowerCase(), owner: m[2]!, repo: m[3]! };
    if (ref) source.ref = ref;
    return source;
  }
  if (picomatch.scan(spec).isGlob) return { kind: 'glob', pattern: spec };
  return { kind: 'path', path: spec };
}

/** `.axis/remotes/<host labels reversed>/<owner>/<repo>`, relative to the config directory. */
export function remoteDir(source: Pick<GitSource, 'host' | 'owner' | 'repo'>): string {
  const host = source.host.split('.').reverse().join('.');
  return ['.axis', 'remotes', host, source.owner, source.repo].join('/');
}
