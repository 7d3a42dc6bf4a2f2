// docs/adapters.md's ACP presets table says what each preset runs and needs; `axis agents` prints the
// same from the catalogue. A row that disagrees sends a user to install or set the wrong thing.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACP_PRESETS } from '../../../src/config/catalogue.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const page = readFileSync(`${ROOT}docs/adapters.md`, 'utf8');

/** Rows of the table under `## ACP presets`: [presets, command, needs, npm]. */
function rows(): string[][] {
  const from = page.indexOf('\n## ACP presets\n');
  const lines = page.slice(from).split('\n');
  const start = lines.findIndex((l) => l.startsWith('| Preset'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start + 2, end).map((l) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}

const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('docs/adapters.md ACP presets table', () => {
  it('names every preset once', () => {
    const named = rows().flatMap(([presets]) => code(presets!));
    expect(named.sort()).toEqual(Object.keys(ACP_PRESETS).sort());
  });

  it('gives each preset the command, variables and npm package of the catalogue', () => {
    for (const [presets, command, needs, npm] of rows()) {
      if (command === 'see `axis agents`') continue;
      for (const name of code(presets!)) {
        const p = ACP_PRESETS[name]!;
        expect(code(command!), name).toEqual([[p.command, ...p.args].join(' ')]);
        expect(code(needs!).slice(0, p.env.length), name).toEqual(p.env);
        if (p.env.length === 0) expect(needs, name).toBe('—');
        expect(code(npm!), name).toEqual(p.npm ? [p.npm] : []);
      }
    }
  });
});
