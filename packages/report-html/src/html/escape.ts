/** Text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * Makes the ids inside one SVG unique in a page: Vega numbers its clip paths and gradients from 1 in
 * every SVG, so two inline charts would otherwise clip each other's marks.
 */
export function prefixSvgIds(svg: string, prefix: string): string {
  return svg
    .replace(/\bid="([^"]+)"/g, (_m, id: string) => `id="${prefix}-${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${prefix}-${id})`)
    .replace(/\bhref="#([^"]+)"/g, (_m, id: string) => `href="#${prefix}-${id}"`);
}

/**
 * Gives every SVG mark that Vega labelled (`role="graphics-symbol"` with an `aria-label`, from a
 * `description` encoding) a `<title>` child: the browser's own tooltip, which works with JavaScript off.
 */
export function addSvgTitles(svg: string): string {
  return svg.replace(/<(path|rect|circle|line|text)\b([^>]*?\baria-label="([^"]*)"[^>]*?\brole="graphics-symbol"[^>]*?)\/>/g, '<$1$2><title>$3</title></$1>');
}
