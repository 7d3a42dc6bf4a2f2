/**
 * The shape of src/ (README, Contributing): one folder per stage, each importing only the stages below
 * it, and no cycle of imports between files either, not even through a type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** The stages from the bottom up, as README's Contributing lists them: each imports only lower rows. */
const LAYERS = [
  ['util'],
  ['config', 'sim', 'transcript'],
  ['plan', 'exec'],
  ['adapters'],
  ['scoring'],
  ['report'],
  ['compare'],
  ['runner'],
  ['reporters'],
  ['cli', 'index'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of a file (static, re-export and dynamic), resolved to a src/ path. */
function importsOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const add = (spec: string) => {
    if (spec.startsWith('.')) out.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return out;
}

const files = sourceFiles(SRC);
const imports = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]));
const stageOf = (file: string) => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');

function addEdge(graph: Map<string, Set<string>>, from: string, to: string) {
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from)!.add(to);
}

describe('the stages of src/', () => {
  it('finds the imports it checks', () => {
    expect(files.length).toBeGreaterThan(200);
    const runImports = imports.get(join(SRC, 'runner/run.ts'))!.map((to) => relative(SRC, to));
    expect(runImports).toContain('report/store.ts');
    for (const targets of imports.values()) for (const to of targets) expect(to.startsWith(SRC)).toBe(true);
  });

  it('each stage imports only the stages below it, types included', () => {
    const layer = new Map(LAYERS.flatMap((row, i) => row.map((stage) => [stage, i] as const)));
    expect([...new Set(files.map(stageOf))].filter((s) => !layer.has(s))).toEqual([]);
    const upward: string[] = [];
    for (const [file, targets] of imports) {
      for (const to of targets) {
        const [a, b] = [stageOf(file), stageOf(to)];
        if (a !== b && layer.get(b)! >= layer.get(a)!)
          upward.push(`${relative(SRC, file)} -> ${relative(SRC, to)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('no cycle of imports between files, types included', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, targets] of imports)
      for (const to of targets) addEdge(graph, relative(SRC, file), relative(SRC, to));
    expect(cycles(graph)).toEqual([]);
  });

  it('the checks see every kind of import and a cycle', () => {
    const targets = importsOf(
      join(SRC, 'a/x.ts'),
      [
        "import type { A } from '../b/y.js';",
        "import { type B, type C } from './z.js';",
        "import { D } from 'node:fs';",
        "export { F } from '../c/v.js';",
        "const m = await import('./u.js');",
      ].join('\n'),
    );
    expect(targets.map((to) => relative(SRC, to))).toEqual(['b/y.ts', 'a/z.ts', 'c/v.ts', 'a/u.ts']);
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
