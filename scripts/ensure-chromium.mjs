#!/usr/bin/env node
// `npm test` runs this first: the HTML report's browser tests drive Debian's Chromium through
// playwright-core (no browser download), and the sandbox tests (`settings.sandbox: "bwrap"`) need
// bubblewrap. On a fresh Debian machine as root it installs the packages; elsewhere it says what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    process.stderr.write(
      `The browser tests need Chromium at ${CHROMIUM}. Install it with: sudo apt-get install chromium\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`Installing Debian's chromium for the browser tests (apt-get)…\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
}

// bubblewrap: without it the bwrap sandbox tests are skipped, so CI installs it where it can.
if (!existsSync('/usr/bin/bwrap')) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    process.stdout.write(`Installing Debian's bubblewrap for the sandbox tests (apt-get)…\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'bubblewrap'], { stdio: 'inherit', env });
  } else {
    process.stderr.write(
      'The sandbox tests are skipped without bubblewrap: sudo apt-get install bubblewrap\n',
    );
  }
}
