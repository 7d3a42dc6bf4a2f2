/**
 * A syntax error in a module the user writes says where it is, whichever loader reads it: a config, a
 * scenario, a tape and a custom adapter all end `at line L, column C` (1-based, as an editor counts and as
 * AXIS's JSON errors do), never only `Unexpected token` with nothing to go to.
 */
import { expect, test } from 'vitest';
import { axis, config, hello, project } from './helpers.js';

/** `,` is where the parser gives up: line 3, column 11 (1-based) in each module below. */
const BROKEN = 'export default {\n  name: "x",\n  prompt: ,\n};\n';
const AT = 'at line 3, column 11';

test.each([
  [
    'a config',
    { 'axis.config.ts': BROKEN },
    `axis.config.ts: could not load the module: ParseError: Unexpected token ${AT}`,
  ],
  [
    'a scenario',
    { 'axis.config.json': config, 'scenarios/bad.ts': BROKEN },
    `scenarios/bad.ts: could not load the module: ParseError: Unexpected token ${AT}`,
  ],
  [
    'a tape',
    {
      'axis.config.json': { ...config, settings: { simulate: true } },
      'scenarios/h.json': hello,
      'tapes/h.ts': BROKEN,
    },
    `tapes/h.ts: cannot load tape: ParseError: Unexpected token ${AT}`,
  ],
  [
    'a custom adapter',
    {
      'axis.config.json': { adapters: { mine: './mine.mjs' }, agents: ['mine'] },
      'scenarios/h.json': hello,
      'mine.mjs': BROKEN,
    },
    `mine.mjs: adapters.mine: cannot load adapter module: ParseError: Unexpected token ${AT}`,
  ],
])('%s with a syntax error: axis validate names the line and column (exit 2)', async (_, files, want) => {
  const dir = project(files);
  const r = await axis(['validate'], dir);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(want);
  // Not the parser's own `<absolute path>:3:10` line.
  expect(r.stderr).not.toMatch(/:3:1?0\b/);
  expect(r.stderr).not.toMatch(/\n\s+at /);
});
