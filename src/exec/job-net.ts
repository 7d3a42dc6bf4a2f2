/**
 * A loopback job's network (job-space.ts): one holder process per job owns a network namespace with
 * only loopback, socat inside forwards each allowed port over a Unix socket in the job dir to a relay
 * in AXIS that connects to the host's 127.0.0.1:<port>.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { newTag, TAG_VAR } from './contain.js';

/** The holder of a loopback job's network namespace. */
export interface JobNet {
  pid: number;
  close(): Promise<void>;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * The holder's script: `port socket` pairs as arguments. It brings loopback up, starts one socat per
 * port, prints "ready" once every one listens, then waits for AXIS to close its stdin.
 */
const HOLDER = `set -e
ip link set lo up
want=()
while [ $# -gt 0 ]; do
  setpriv --pdeathsig KILL socat "TCP-LISTEN:$1,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$2" &
  want+=("$(printf '0100007F:%04X 00000000:0000 0A' "$1")"); shift 2
done
for w in "\${want[@]}"; do until grep -q "$w" /proc/net/tcp; do sleep 0.01; done; done
echo ready
read -r _ || true`;

const READY_MS = 10_000;
/** sun_path holds 108 bytes, the last one a NUL. */
const MAX_SOCKET_PATH = 107;

/** Starts a loopback job's network namespace forwarding `ports`; throws with a plain reason when it cannot. */
export async function openJobNet(root: string, ports: readonly number[]): Promise<JobNet> {
  const relays = await startRelays(join(root, 'net'), ports);
  const pairs = relays.flatMap((r) => [String(r.port), r.path]);
  const user = isRoot() ? [] : ['--user', '--map-root-user'];
  const args = ['--pdeathsig', 'KILL', 'unshare', ...user, '--net', '--', 'bash', '-c', HOLDER, 'axis-net'];
  const tag = newTag();
  const child = spawn('setpriv', [...args, ...pairs], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(tag ? { [TAG_VAR]: tag } : {}) },
  });
  const stopRelays = (): void => relays.forEach((r) => r.close());
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await holderReady(child);
  } catch (err) {
    stopRelays();
    killGroup(child.pid);
    throw err;
  }
  return {
    pid: child.pid!,
    close: async () => {
      child.stdin?.end();
      killGroup(child.pid);
      await exited;
      stopRelays();
    },
  };
}

function holderReady(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onErr = (d: Buffer): void => {
      err = (err + d.toString()).slice(-4000);
    };
    const timer = setTimeout(() => fail('the network namespace was not ready within 10 s'), READY_MS);
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(err.trim().split('\n').pop() || why));
    };
    child.on('error', (e) => fail(e.message));
    child.on('exit', (code) => fail(`the network namespace holder exited (${code})`));
    child.stderr!.on('data', onErr);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('ready\n')) return;
      clearTimeout(timer);
      // From now on its output is drained, not kept.
      child.stdout!.removeAllListeners('data').resume();
      child.stderr!.removeListener('data', onErr).resume();
      resolve();
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------------------------------------
// Host side of the forwarders

interface Relay {
  port: number;
  path: string;
  close(): void;
}

/**
 * A Unix socket per port, each connection piped to the host's 127.0.0.1:<port>. Written with node:net
 * rather than a second socat per port: it runs inside AXIS, so it costs no process and dies with it.
 */
async function startRelays(dir: string, ports: readonly number[]): Promise<Relay[]> {
  await mkdir(dir, { recursive: true });
  const relays: Relay[] = [];
  try {
    for (const port of ports) relays.push(await startRelay(join(dir, `${port}.sock`), port));
  } catch (err) {
    relays.forEach((r) => r.close());
    throw err;
  }
  return relays;
}

function startRelay(path: string, port: number): Promise<Relay> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH)
    throw new Error(
      `the forwarder socket path is too long for a Unix socket (${path}); use a shorter TMPDIR`,
    );
  const open = new Set<Socket>();
  const server: Server = createServer((inside) => {
    const host = createConnection({ host: '127.0.0.1', port });
    for (const s of [inside, host]) {
      open.add(s);
      s.on('error', () => {
        inside.destroy();
        host.destroy();
      });
      s.on('close', () => open.delete(s));
    }
    inside.pipe(host).pipe(inside);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve({
        port,
        path,
        close: () => {
          server.close();
          for (const s of open) s.destroy();
        },
      });
    });
  });
}
