/**
 * A self-contained HTML page built from sections: one file, inline CSS, inline SVG, a small inline
 * script for sorting and filtering (hover is the SVG `<title>`); readable with JavaScript off, no network,
 * no external file.
 * `cvdevkit compare` and `cvdevkit analyze` build their pages with this too.
 */
import { escapeHtml } from './escape.js';
import { PAGE_CSS, PAGE_SCRIPT } from './page-assets.js';

export interface HtmlSection {
  /** Anchor id (letters, digits, `-`). */
  id: string;
  /** Heading shown above the section and in the table of contents. */
  title: string;
  /** The section's body, already HTML (escape text with `escapeHtml`). */
  html: string;
}

/** A group of the table of contents: a heading and lines of links (e.g. a dataset, a line per task). */
export interface TocGroup {
  heading: string;
  lines: Array<{ label: string; links: Array<{ id: string; title: string }> }>;
}

export interface HtmlPageOptions {
  /** `<title>` and the page heading. */
  title: string;
  /** One line under the heading. */
  subtitle?: string;
  sections: HtmlSection[];
  /** The table of contents in groups (default: one link per section, in one row). */
  toc?: TocGroup[];
  /** Footer text, e.g. the generating tool and version. */
  footer?: string;
}

/** A grouped table of contents: a heading per group, a line per entry (its label, then its links). */
function groupedToc(groups: TocGroup[]): string {
  const link = (l: { id: string; title: string }) => `<a href="#${escapeHtml(l.id)}">${escapeHtml(l.title)}</a>`;
  return groups
    .map(
      (g) =>
        `<div class="toc-group"><div class="toc-heading">${escapeHtml(g.heading)}</div><ul>${g.lines.map((line) => `<li><span class="toc-label">${escapeHtml(line.label)}</span> ${line.links.map(link).join(' · ')}</li>`).join('')}</ul></div>`,
    )
    .join('');
}

/** The whole page as a string (`<!doctype html>` …). */
export function buildHtmlPage(options: HtmlPageOptions): string {
  const toc = options.toc ? groupedToc(options.toc) : options.sections.map((s) => `<a href="#${escapeHtml(s.id)}">${escapeHtml(s.title)}</a>`).join('');
  const sections = options.sections
    .map((s) => `<section id="${escapeHtml(s.id)}" aria-labelledby="${escapeHtml(s.id)}-h"><h2 id="${escapeHtml(s.id)}-h">${escapeHtml(s.title)}</h2>\n${s.html}\n</section>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src data:; font-src data:">
<title>${escapeHtml(options.title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
<header class="page"><h1>${escapeHtml(options.title)}</h1>${options.subtitle ? `<p>${escapeHtml(options.subtitle)}</p>` : ''}
<nav class="toc${options.toc ? ' grouped' : ''}" aria-label="Contents">${toc}</nav></header>
${sections}
${options.footer ? `<footer>${escapeHtml(options.footer)}</footer>` : ''}
</main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
