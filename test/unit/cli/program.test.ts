/**
 * The program builds whole only the command a line runs (src/cli/program.ts): everything commander
 * shows or decides must be the same as with every command whole.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, invoked } from '../../../src/cli/program.js';

const NAMES = buildProgram(['node', 'axis']).commands.map((c) => c.name());
const line = (...args: string[]) => ['node', 'axis', ...args];

/** Every command's help, nested ones included, as this program would print it. */
function helps(command: Command, path: string[] = []): Map<string, string> {
  const out = new Map([[path.join(' '), command.helpInformation()]]);
  for (const sub of command.commands) for (const [k, v] of helps(sub, [...path, sub.name()])) out.set(k, v);
  return out;
}

describe('buildProgram: one command whole, the others by name', () => {
  it('lists the eleven commands', () => {
    expect(NAMES).toEqual([
      'init',
      'agents',
      'validate',
      'run',
      'score',
      'reports',
      'compare',
      'baseline',
      'badge',
      'history',
      'sim',
    ]);
  });

  it('`axis --help` is the same whichever command is built whole', () => {
    const root = buildProgram(line('--help')).helpInformation();
    for (const name of NAMES) expect(buildProgram(line(name)).helpInformation(), name).toBe(root);
    // A command with options says so in the list even when only its name was built.
    expect(root).toMatch(/^ {2}run \[options\] {2,}Run every scenario/m);
    expect(root).toMatch(/^ {2}score \[options\] \[reportId\] {2,}\(Re\)score/m);
    expect(root).toMatch(/^ {2}baseline {2,}Save, list/m);
  });

  it('the command a line runs is whole: its options, its subcommands, its help', () => {
    const run = buildProgram(line('run', '--no-score')).commands.find((c) => c.name() === 'run')!;
    expect(run.options.map((o) => o.long)).toContain('--shard');
    const others = buildProgram(line('validate')).commands.find((c) => c.name() === 'run')!;
    expect(others.options).toEqual([]);
    // `axis help <command>` shows the whole command too.
    const baseline = buildProgram(line('help', 'baseline')).commands.find((c) => c.name() === 'baseline')!;
    expect(baseline.commands.map((c) => c.name())).toEqual(['set', 'list', 'show', 'compare', 'delete']);
    for (const name of NAMES) {
      const whole = helps(buildProgram(line(name)).commands.find((c) => c.name() === name)!);
      const viaHelp = helps(buildProgram(line('help', name)).commands.find((c) => c.name() === name)!);
      expect(viaHelp).toEqual(whole);
      expect(whole.get('')).toContain('-h, --help');
    }
  });
});

describe('invoked: the command commander will dispatch to', () => {
  it.each([
    [[], undefined],
    [['--help'], undefined],
    [['-V'], undefined],
    [['run', '--concurrency', '3', 'validate'], 'run'],
    [['-h', 'run'], 'run'],
    [['--', 'run'], 'run'],
    [['help'], undefined],
    [['help', 'reports', 'merge'], 'reports'],
    [['reports', 'merge', 'a.zip'], 'reports'],
    [['rnu'], 'rnu'],
  ])('%j → %s', (args, name) => {
    expect(invoked(line(...args))).toBe(name);
  });
});
