/**
 * A hint for `--gt` one or two levels off (`Annotations/DET` or `Annotations` instead of
 * `Annotations/DET/val`, or a folder inside it): where the first list entry's XML actually is.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir)
      .sort()
      .map((d) => join(dir, d))
      .filter((d) => {
        try {
          return statSync(d).isDirectory();
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/** A path as the user would type it: relative to the working folder when that is shorter. */
function shown(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel !== '' && rel.length < p.length ? rel : p;
}

/** Where `<dir>/<file>` is found one or two levels below `dir` or up to two above it, as a hint; undefined when nowhere. */
export function gtDirHint(dir: string, file: string): string | undefined {
  const below = subdirs(dir).flatMap((d) => [d, ...subdirs(d)]);
  const found = below.find((d) => existsSync(join(d, file)));
  if (found) return `--gt too shallow? found ${shown(join(found, file))}: use --gt ${shown(found)}`;
  for (let up = dirname(dir), k = 0; k < 2 && up !== dirname(up); up = dirname(up), k++) {
    if (existsSync(join(up, file))) return `--gt too deep? found ${shown(join(up, file))}: use --gt ${shown(up)}`;
  }
  return undefined;
}
