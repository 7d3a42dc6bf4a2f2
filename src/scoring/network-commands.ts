/**
 * Shell commands that reach a network service (docs/scoring.md#classification): they count toward the
 * service dimension as well as the environment. Plain clients count by their first word
 * (`HTTP_CLIENTS`); others only with the subcommand or flag that makes them talk to a remote
 * (`git push`, `psql -h db`, `docker pull`), and interpreter one-liners when their code uses an HTTP client.
 */
import { shellWords } from '../transcript/util.js';
import { HTTP_CLIENTS } from './tool-table.js';

const SEGMENT_SPLIT = /&&|\|\||[;|&\n`]/;
const WRAPPER_WORDS = new Set(['sudo', 'env', 'time', 'nohup', 'exec', 'command', 'npx', 'bunx', 'xargs']);
const HTTP_SET = new Set(HTTP_CLIENTS);

/** Subcommands that talk to a remote. */
const REMOTE_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  git: ['push', 'pull', 'fetch', 'clone', 'ls-remote'],
  docker: ['push', 'pull', 'login', 'search'],
  podman: ['push', 'pull', 'login', 'search'],
  npm: ['publish', 'unpublish', 'deprecate'],
};
/** Database clients: remote when given a host or a connection URL. */
const DB_CLIENTS = new Set([
  'psql',
  'mysql',
  'mariadb',
  'redis-cli',
  'mongosh',
  'mongo',
  'pg_dump',
  'clickhouse-client',
]);
const DB_HOST_FLAG = /^(?:-h\S*|--host(?:=\S*)?|-u|--url(?:=\S*)?|--uri(?:=\S*)?)$/;
const CONNECTION_URL = /^(?:postgres(?:ql)?|mysql|mariadb|redis|rediss|mongodb(?:\+srv)?):\/\//i;
/** Remote shells and copies: always a service. */
const REMOTE_SHELLS = new Set([
  'ssh',
  'scp',
  'sftp',
  'mosh',
  'telnet',
  'ftp',
  'nc',
  'ncat',
  'grpcurl',
  'websocat',
]);
const INTERPRETERS = /^(?:python[0-9.]*|node|deno|bun|ruby|perl|php)$/;
const HTTP_CODE =
  /\b(?:requests\.(?:get|post|put|patch|delete|head|request|Session)|urllib\.request|urlopen|http\.client|httpx\.|aiohttp|fetch\s*\(|axios|https?\.(?:get|request)\s*\(|Net::HTTP|LWP::|HTTP::Tiny|open-uri|file_get_contents\s*\(\s*['"]https?:|curl_exec|socket\.connect)/;

/** Global options that take a value before the subcommand (`git -C dir push`, `docker -H host pull`). */
const VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '-H',
  '--host',
  '--context',
  '--config',
]);

function subcommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a.toLowerCase();
  }
  return undefined;
}

/** The network command a shell command line runs, e.g. `curl`, `git push`, `psql -h`; undefined when none. */
export function networkCommand(command: string): string | undefined {
  for (const segment of command.split(SEGMENT_SPLIT)) {
    const words = (shellWords(segment) ?? segment.trim().split(/\s+/)).filter((w) => w !== '');
    let k = 0;
    while (k < words.length && (WRAPPER_WORDS.has(words[k]!.toLowerCase()) || /^\w+=/.test(words[k]!))) k++;
    const first = words[k];
    if (!first) continue;
    const word = first.slice(first.lastIndexOf('/') + 1).toLowerCase();
    const args = words.slice(k + 1);
    if (HTTP_SET.has(word) || REMOTE_SHELLS.has(word)) return word;
    const sub = REMOTE_SUBCOMMANDS[word];
    const verb = subcommand(args);
    if (sub && verb && sub.includes(verb)) return `${word} ${verb}`;
    if (word === 'rsync' && args.some((a) => /^[^/\s]*:/.test(a) && !a.startsWith('-'))) return 'rsync';
    if (DB_CLIENTS.has(word) && args.some((a) => DB_HOST_FLAG.test(a) || CONNECTION_URL.test(a))) return word;
    if (INTERPRETERS.test(word) && args.some((a) => a === '-c' || a === '-e') && HTTP_CODE.test(segment))
      return `${word} http client`;
  }
  // One-liners whose code holds separators the split above cut through.
  const oneLiner =
    /(?:^|[\s;&|(])((?:\S*\/)?(?:python[0-9.]*|node|deno|bun|ruby|perl|php))\s+(?:\S+\s+)*?-[ce]\s/.exec(
      command,
    );
  if (oneLiner && HTTP_CODE.test(command)) {
    const bin = oneLiner[1]!;
    return `${bin.slice(bin.lastIndexOf('/') + 1).toLowerCase()} http client`;
  }
  return undefined;
}
