#!/usr/bin/env node
// The CLI's bundle (scripts/bundle.mjs): one load instead of the few hundred files of dist/, its chunks
// CommonJS modules so that V8 can keep their compiled code from one command to the next
// (src/cli/code-cache.ts; AXIS_CODE_CACHE=0 turns it off). This file is CommonJS too (bin/package.json).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '../dist/bundle');
const entry = join(bundle, 'main.js');
if (!existsSync(entry)) {
  // A checkout that was never built: say so instead of a module-resolution stack trace.
  process.stderr.write(`AXIS is not built: ${entry} is missing. Run \`npm run build\` first.\n`);
  process.exitCode = 1;
} else {
  require(join(bundle, 'code-cache.js')).installCodeCache(bundle);
  require(entry);
}
