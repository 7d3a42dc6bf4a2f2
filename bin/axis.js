#!/usr/bin/env node
// The CLI's bundle (scripts/bundle.mjs): one load instead of the few hundred files of dist/. This file is
// CommonJS (bin/package.json) so it can require() the bundle's ES entry: a synchronous load, without
// the asynchronous ES module loader's file reads and turns of the event loop (about 8 ms of every
// command, `axis --help` included). A Node without require() of ES modules imports it instead.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const entry = join(__dirname, '../dist/bundle/main.js');
if (!existsSync(entry)) {
  // A checkout that was never built: say so instead of a module-resolution stack trace.
  process.stderr.write(`AXIS is not built: ${entry} is missing. Run \`npm run build\` first.\n`);
  process.exitCode = 1;
} else if (process.features.require_module) {
  require(entry);
} else {
  import(pathToFileURL(entry).href);
}
