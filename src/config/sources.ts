/**
 * Classifies source strings (of `scenarios` and `skills`): git URLs, globs and plain paths. Pure; no file
 * system. Git forms: https/ssh/git URLs, scp-style `git@host:owner/repo.git`, `file:///path/repo.git`,
 * `github:owner/repo` and (where the caller allows it) the bare `owner/repo` shorthand for GitHub. Any of
 * them may end in `#ref` (a branch, tag or commit).
 */
import picomatch from 'picomatch';

export interface GitSource {
  kind: 'git';
  /** The URL git is given (without `#ref`; the shorthands expanded to https://github.com/...). */
  url: string;
  ref?: string;
  /** `github.com`, or `local` for file:// URLs. */
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
const FILE_FORM = /^file:\/\/(\/(?:.*\/)?([^/]+)\/([^/]+?))(?:\.git)?\/?$/;
const SHORTHAND = /^(?:github:)?([A-Za-z0-9][\w.-]*)\/([\w.-]+?)(?:\.git)?$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Branch, tag or commit: git's ref-name rules, minus what never appears in a sensible ref. */
const REF = /^(?!-)(?!.*\.\.)(?!.*\/\/)[\w./-]+$/;

function splitRef(spec: string): { body: string; ref?: string } {
  const hash = spec.indexOf('#');
  return hash >= 0 ? { body: spec.slice(0, hash), ref: spec.slice(hash + 1) } : { body: spec };
}

function badRef(ref: string): ParsedSource {
  return {
    kind: 'invalid',
    reason: `expected a branch, tag or commit after "#", found ${JSON.stringify(ref)}`,
  };
}

/**
 * `spec` → source. `shorthand`: also read `owner/repo` (two plain segments) as GitHub; callers pass it
 * only when no local path of that name exists. `github:owner/repo` is always GitHub.
 */
export function parseSource(spec: string, opts: { shorthand?: boolean } = {}): ParsedSource {
  const { body, ref } = splitRef(spec);
  const git = (url: string, host: string, owner: string, repo: string): ParsedSource => {
    if (ref !== undefined && !REF.test(ref)) return badRef(ref);
    // Owner and repo become folders under .axis/: never `.`, `..` or empty segments.
    if ([...owner.split('/'), repo].some((p) => p === '' || p === '.' || p === '..')) {
      return { kind: 'invalid', reason: `expected owner/repo path segments, found ${JSON.stringify(spec)}` };
    }
    const source: GitSource = { kind: 'git', url, host: host.toLowerCase(), owner, repo };
    if (ref) source.ref = ref;
    return source;
  };
  if (/^file:\/\//i.test(body)) {
    const m = FILE_FORM.exec(body);
    if (!m) {
      return {
        kind: 'invalid',
        reason: `expected a file URL like file:///path/to/owner/repo.git, found ${JSON.stringify(spec)}`,
      };
    }
    return git(body, 'local', m[2]!, m[3]!);
  }
  if (SCHEME.test(body) || /^[\w.-]+@[^:/]+:/.test(body)) {
    const m = URL_FORM.exec(body) ?? SCP_FORM.exec(body);
    if (!m) {
      return {
        kind: 'invalid',
        reason: `expected a git URL like https://host/owner/repo(.git) or git@host:owner/repo.git, found ${JSON.stringify(spec)}`,
      };
    }
    return git(body, m[1]!, m[2]!, m[3]!);
  }
  const short = SHORTHAND.exec(body);
  if (short && (body.startsWith('github:') || (opts.shorthand && !body.startsWith('.')))) {
    return git(`https://github.com/${short[1]}/${short[2]}.git`, 'github.com', short[1]!, short[2]!);
  }
  if (picomatch.scan(spec).isGlob) return { kind: 'glob', pattern: spec };
  return { kind: 'path', path: spec };
}

/**
 * A source as AXIS shows it (messages, notes, lock files): a URL's password, or a bare token before the
 * `@` of an http(s) URL (`https://<token>@github.com/…`), becomes `***`. Git never prints them either.
 */
export function shownUrl(source: string): string {
  return source.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/]*)@/i, (all, scheme: string, info: string) => {
    const colon = info.indexOf(':');
    if (colon >= 0) return `${scheme}${info.slice(0, colon)}:***@`;
    return /^https?:/i.test(scheme) ? `${scheme}***@` : all;
  });
}

/**
 * Whether a `settings.remotes.trust_code` entry names the git source `url` (as git gets it, no ref)
 * written as `spec` (shown, with its `#ref`). An entry with a `#ref` trusts that ref only: trusting a
 * reviewed tag must not trust a branch of the same repository. Credentials are compared masked.
 */
export function trustEntryMatches(entry: string, url: string, spec: string): boolean {
  const e = splitRef(entry);
  const s = splitRef(spec);
  if (e.ref !== undefined && e.ref !== s.ref) return false;
  return e.body === url || shownUrl(e.body) === s.body;
}

/** A ref as one path segment: `/` and anything unusual become `_`; no ref is `HEAD`. */
export function refSegment(ref: string | undefined): string {
  return (ref ?? 'HEAD').replace(/[^\w.-]/g, '_');
}

/** Where a remote is checked out, relative to the config dir: `<base>/<host>/<owner>/<repo>@<ref>`. */
export function checkoutDir(
  source: Pick<GitSource, 'host' | 'owner' | 'repo' | 'ref'>,
  base = '.axis/remotes',
): string {
  return [base, source.host, source.owner, `${source.repo}@${refSegment(source.ref)}`].join('/');
}
