#!/usr/bin/env node
// The CLI's bundle (scripts/bundle.mjs): one load instead of the few hundred files of dist/.
import '../dist/bundle/main.js';
