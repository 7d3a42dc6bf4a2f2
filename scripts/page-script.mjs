#!/usr/bin/env node
// Writes dist/report/html/page-script.js: report.html's page script (fflate's browser build and the
// client modules joined into one function scope, src/report/html/client-bundle.ts) made once by the
// build instead of by every `axis run`. Run after tsc; `npm run build` does both. The CLI's bundle and
// the library both read it, and join the parts themselves when it is missing or older than them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { joinedClientScript, PAGE_SCRIPT } = await import('../dist/report/html/client-bundle.js');
const file = join(root, 'dist', ...PAGE_SCRIPT);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, joinedClientScript());
