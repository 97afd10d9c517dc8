/**
 * The packages of a workspace (pnpm `pnpm-workspace.yaml`, or npm/yarn `workspaces` in package.json), so that a
 * new plugin folder in a workspace is discovered without being named anywhere else.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { childPath, isFile } from './package-files.js';

/** The `packages:` globs of a pnpm-workspace.yaml (a block list of plain or quoted strings). */
export function pnpmWorkspaceGlobs(yaml: string): string[] {
  const globs: string[] = [];
  let inPackages = false;
  for (const raw of yaml.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '');
    if (/^\S/.test(line)) {
      inPackages = /^packages\s*:\s*$/.test(line);
      continue;
    }
    const item = inPackages ? /^\s+-\s+(.+?)\s*$/.exec(line) : null;
    if (item) globs.push(item[1].replace(/^(['"])(.*)\1$/, '$2'));
  }
  return globs;
}

function workspaceGlobs(root: string): string[] | undefined {
  const yamlFile = childPath(root, 'pnpm-workspace.yaml');
  if (existsSync(yamlFile)) return pnpmWorkspaceGlobs(readFileSync(yamlFile, 'utf8'));
  const pkgFile = childPath(root, 'package.json');
  // most folders looked at have no package.json: no read (and no ENOENT error built) for them
  if (!isFile(pkgFile)) return undefined;
  try {
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { workspaces?: unknown };
    const ws = Array.isArray(pkg.workspaces) ? pkg.workspaces : (pkg.workspaces as { packages?: unknown } | undefined)?.packages;
    return Array.isArray(ws) ? ws.filter((g): g is string => typeof g === 'string') : undefined;
  } catch {
    return undefined;
  }
}

function isPackageDir(dir: string): boolean {
  return isFile(childPath(dir, 'package.json'));
}

/** Directories matching one glob: literal segments, `*` (one level) and `**` (any depth, node_modules excluded). */
function expand(root: string, glob: string): string[] {
  let dirs = [resolve(root)];
  for (const seg of glob.replace(/\/+$/, '').split('/')) {
    if (seg === '' || seg === '.') continue;
    const next: string[] = [];
    for (const d of dirs) {
      if (seg === '**') {
        next.push(d, ...subdirs(d, true));
      } else if (seg.includes('*')) {
        const re = new RegExp('^' + seg.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*') + '$');
        next.push(...subdirs(d, false).filter((s) => re.test(s.slice(d.length + 1))));
      } else {
        next.push(childPath(d, seg));
      }
    }
    dirs = next;
  }
  return dirs;
}

function subdirs(dir: string, deep: boolean): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = childPath(dir, e.name);
    out.push(p);
    if (deep) out.push(...subdirs(p, true));
  }
  return out;
}

/** Whether `root` is a workspace root (a pnpm-workspace.yaml, or `workspaces` in its package.json), without listing its packages. */
export function isWorkspaceRoot(root: string): boolean {
  return workspaceGlobs(root) !== undefined;
}

/** The package directories of the workspace rooted at `root`, or undefined if `root` is no workspace root. */
export function workspacePackageDirs(root: string): string[] | undefined {
  const globs = workspaceGlobs(root);
  if (globs === undefined) return undefined;
  const include = new Set<string>();
  for (const g of globs.filter((x) => !x.startsWith('!'))) for (const d of expand(root, g)) if (isPackageDir(d)) include.add(d);
  for (const g of globs.filter((x) => x.startsWith('!'))) for (const d of expand(root, g.slice(1))) include.delete(d);
  return [...include].sort();
}
