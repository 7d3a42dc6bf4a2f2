// README's "Using AXIS in your project" shows the two files `axis init` writes: they must be what it
// writes, or a reader following the README compares their files against text init never produces.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configText, helloWorldText } from '../../../src/cli/commands/init.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(`${ROOT}README.md`, 'utf8');

/** The fenced block right after the line `` `name`: ``. */
function blockAfter(name: string): string {
  const m = new RegExp(`\\n\`${name.replace(/\./g, '\\.')}\`:\\n\\n\`\`\`json\\n([\\s\\S]*?)\`\`\`\\n`).exec(
    readme,
  );
  expect(m, `README block for ${name}`).not.toBeNull();
  return m![1]!;
}

describe('README: the files axis init writes', () => {
  it('axis.config.json is what init writes by default', () => {
    expect(blockAfter('axis.config.json')).toBe(configText('json', './scenarios', ['claude-code']));
  });

  it('scenarios/hello-world.json is what init writes by default', () => {
    const schema = '../node_modules/axis-eval/schema/scenario.schema.json';
    expect(blockAfter('scenarios/hello-world.json')).toBe(helloWorldText(schema));
  });
});
