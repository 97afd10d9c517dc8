#!/usr/bin/env node
// Code shape figures for the consolidation work: the longest source files, the longest functions (TypeScript
// compiler API: function declarations, methods, arrow functions and function expressions), and the runtime
// names each package exports. Usage: node scripts/code-stats.mjs [--top N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 15;
const files = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.ts$/.test(name) && !/\.(test|test-d|d)\.ts$/.test(name) && p.includes('/src/')) files.push(p);
  }
}
for (const d of ['packages', 'apps']) walk(join(root, d));

const fileLines = [];
const functions = [];
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const rel = relative(root, f);
  fileLines.push([text.split('\n').length, rel]);
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node)) {
      const a = sf.getLineAndCharacterOfPosition(node.getStart()).line;
      const b = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText?.() ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : '(anonymous)');
      functions.push([b - a + 1, `${rel}:${a + 1} ${name}`]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
fileLines.sort((x, y) => y[0] - x[0]);
functions.sort((x, y) => y[0] - x[0]);
console.log(`source files: ${files.length}; over 500 lines: ${fileLines.filter((x) => x[0] > 500).length}; functions: ${functions.length}; over 80 lines: ${functions.filter((x) => x[0] > 80).length}`);
console.log(`\nlongest files:`);
for (const [n, f] of fileLines.slice(0, top)) console.log(`${String(n).padStart(6)}  ${f}`);
console.log(`\nlongest functions:`);
for (const [n, f] of functions.slice(0, top)) console.log(`${String(n).padStart(6)}  ${f}`);

console.log(`\nexported runtime names per package (dist/index.js):`);
for (const group of ['packages', 'apps']) {
  for (const name of readdirSync(join(root, group))) {
    const dist = join(root, group, name, 'dist', 'index.js');
    try {
      statSync(dist);
    } catch {
      continue;
    }
    const mod = await import(dist);
    console.log(`${String(Object.keys(mod).length).padStart(6)}  ${group}/${name}`);
  }
}
