import { describe, expect, it } from 'vitest';
import { flagName, flagOn, renderFlags, withDefaults } from '../../../src/adapters/flags.js';

describe('renderFlags', () => {
  it('renders true as --k, strings as --k v, and omits false', () => {
    expect(renderFlags({ verbose: true, 'max-turns': '5', debug: false, effort: 'high' })).toEqual([
      '--verbose',
      '--max-turns',
      '5',
      '--effort',
      'high',
    ]);
  });

  it('keeps keys that already start with a dash as written', () => {
    expect(renderFlags({ '-s': 'read-only', '--x': true })).toEqual(['-s', 'read-only', '--x']);
    expect(flagName('model')).toBe('--model');
  });

  it('keeps an empty string value as an argument', () => {
    expect(renderFlags({ 'append-system-prompt': '' })).toEqual(['--append-system-prompt', '']);
  });
});

describe('withDefaults', () => {
  it('lets the user turn a default off with false and keeps the default first', () => {
    const flags = withDefaults(
      { 'dangerously-skip-permissions': true },
      { 'dangerously-skip-permissions': false, x: 'y' },
    );
    expect(renderFlags(flags)).toEqual(['--x', 'y']);
    expect(flagOn(flags, 'dangerously-skip-permissions')).toBe(false);
    expect(renderFlags(withDefaults({ a: true }, { b: true }))).toEqual(['--a', '--b']);
  });
});
