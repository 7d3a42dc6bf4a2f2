#!/usr/bin/env node
// `npm test` runs this first. Some tests drive Debian tools rather than npm look-alikes: Chromium for the
// HTML report (through playwright-core, no browser download), tmux for the live terminal display (a real
// pseudo-terminal), xmllint (libxml2-utils) to validate the JUnit output against its XSD, socat for the
// loopback-only network tests, gcc, libc6-dev and musl-tools for the containment helper that
// `npm run build` compiles, and bubblewrap for the sandbox tests (`settings.sandbox: "bwrap"`, skipped
// without it). On a fresh Debian machine as root the missing packages are installed; elsewhere it says
// what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const NEEDED = [
  { path: '/usr/bin/chromium', pkg: 'chromium', required: true },
  { path: '/usr/bin/tmux', pkg: 'tmux', required: true },
  { path: '/usr/bin/xmllint', pkg: 'libxml2-utils', required: true },
  { path: '/usr/bin/bwrap', pkg: 'bubblewrap', required: false },
  // `network: "loopback"` forwards the allowed ports into the job's network namespace with socat.
  { path: '/usr/bin/socat', pkg: 'socat', required: true },
  // `npm run build` compiles the one-exec containment helper (native/axis-contain.c) with them; the
  // containment tests check that it is in force (without them the build skips it).
  { path: '/usr/bin/cc', pkg: 'gcc', required: true },
  { path: '/usr/include/stdio.h', pkg: 'libc6-dev', required: true },
  // musl links it statically with a near-free start-up (else glibc's, 0.25 ms more per job).
  { path: '/usr/bin/musl-gcc', pkg: 'musl-tools', required: false },
];
const missing = NEEDED.filter((n) => !existsSync(n.path));
if (missing.length > 0) {
  const names = missing.map((n) => n.pkg);
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    process.stdout.write(`Installing Debian's ${names.join(', ')} for the tests (apt-get)…\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...names], { stdio: 'inherit', env });
  } else {
    process.stderr.write(`The tests need ${names.join(', ')}: sudo apt-get install ${names.join(' ')}\n`);
    if (missing.some((n) => n.required)) process.exit(1);
  }
}
