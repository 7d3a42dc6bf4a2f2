#!/usr/bin/env node
// The CLI's bundle (scripts/bundle.mjs): one load instead of the few hundred files of dist/.
const entry = new URL('../dist/bundle/main.js', import.meta.url);
try {
  await import(entry.href);
} catch (err) {
  // A checkout that was never built: say so instead of a module-resolution stack trace.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes(entry.pathname)) throw err;
  process.stderr.write(`AXIS is not built: ${entry.pathname} is missing. Run \`npm run build\` first.\n`);
  process.exitCode = 1;
}
