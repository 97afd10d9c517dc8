/** The page's inline style sheet and script (no external file, no network). */

export const PAGE_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1f21; --muted: #5f6368; --line: #d9dce0; --card: #f6f7f9; --accent: #0b63b0; --warn: #8a5a00; --err: #b3261e; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181b; --fg: #e6e7e9; --muted: #a3a8ae; --line: #3a3e44; --card: #1f2226; --accent: #7cb9f0; --warn: #e8b45a; --err: #f28b82; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 20px 64px; }
header.page h1 { margin: 0 0 4px; font-size: 26px; }
header.page p { margin: 0; color: var(--muted); }
nav.toc { margin: 14px 0 8px; display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 14px; }
nav.toc.grouped { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 10px 24px; }
nav.toc .toc-group { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; }
nav.toc .toc-heading { font-size: 15px; font-weight: 700; margin: 0 0 4px; }
nav.toc ul { margin: 0; padding: 0; list-style: none; }
nav.toc li { margin: 2px 0; }
nav.toc li a { white-space: nowrap; }
nav.toc .toc-label { font-weight: 600; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
a { color: var(--accent); }
section { margin-top: 36px; }
section > h2 { font-size: 20px; margin: 0 0 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
.headline { display: flex; flex-wrap: wrap; gap: 12px; }
.headline .number { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 140px; }
.headline .number .label { color: var(--muted); font-size: 13px; }
.headline .number .value { font-size: 26px; font-weight: 600; font-variant-numeric: tabular-nums; }
.headline .number .unit { color: var(--muted); font-size: 12px; max-width: 180px; }
th[title] { text-decoration: underline dotted; cursor: help; }
.headline .number.official { border-color: var(--accent); }
table { border-collapse: collapse; font-size: 14px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { color: var(--muted); font-weight: normal; white-space: nowrap; }
table.facts td { word-break: break-all; }
table.sortable th { cursor: pointer; user-select: none; white-space: nowrap; position: sticky; top: 0; background: var(--bg); }
table.sortable th[aria-sort="ascending"]::after { content: " ▲"; font-size: 10px; }
table.sortable th[aria-sort="descending"]::after { content: " ▼"; font-size: 10px; }
.table-wrap { max-height: 640px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; display: inline-block; max-width: 100%; }
.filter { margin: 0 0 8px; padding: 5px 8px; font: inherit; font-size: 14px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); width: 260px; }
.no-js-hidden { display: none; }
figure.chart { margin: 0 0 28px; }
figure.chart .svg { overflow-x: auto; }
figure.chart svg { display: block; max-width: none; height: auto; }
figure.chart figcaption { color: var(--muted); font-size: 13px; max-width: 760px; margin-top: 4px; }
.sev-error { color: var(--err); font-weight: 600; }
.sev-warning { color: var(--warn); font-weight: 600; }
.muted { color: var(--muted); }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
details.top-class { margin: 0 0 10px; border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; }
details.top-class summary { cursor: pointer; }
details.top-class h3 { font-size: 14px; font-weight: 600; margin: 12px 0 6px; }
.crops { display: flex; flex-wrap: wrap; gap: 10px; }
figure.crop { margin: 0; width: 164px; font-size: 12px; line-height: 1.35; }
figure.crop svg.crop { display: block; max-width: 160px; height: auto; background: var(--card); }
figure.crop figcaption { margin-top: 3px; word-break: break-all; }
figure.crop .nocrop { background: var(--card); border: 1px dashed var(--line); padding: 6px; min-height: 60px; word-break: break-all; }
ul.more { margin: 6px 0 0; padding-left: 18px; font-size: 12px; color: var(--muted); }
svg.crop rect { fill: none; }
svg.crop rect.halo { stroke: #000; stroke-opacity: 0.55; stroke-width: 4.5px; }
svg.crop rect.det { stroke: #E69F00; stroke-width: 2.2px; }
svg.crop rect.gt { stroke: #56B4E9; stroke-width: 2.2px; stroke-dasharray: 5 3; }
.crop-legend .key { display: inline-block; width: 22px; height: 0; vertical-align: middle; margin-left: 8px; border-top: 3px solid #E69F00; }
.crop-legend .key.gt { border-top: 3px dashed #56B4E9; }
footer { margin-top: 48px; color: var(--muted); font-size: 13px; }
`;

export const PAGE_SCRIPT = `
(function () {
  'use strict';
  function cellValue(row, i) {
    var c = row.cells[i];
    if (!c) return '';
    var v = c.getAttribute('data-value');
    return v === null ? c.textContent.trim() : v;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var head = table.tHead && table.tHead.rows[0];
    if (!head) return;
    Array.prototype.forEach.call(head.cells, function (th, i) {
      th.tabIndex = 0;
      function sort() {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var desc = th.getAttribute('aria-sort') === 'ascending';
        var numeric = rows.every(function (r) { var v = cellValue(r, i); return v === '' || !isNaN(Number(v)); });
        rows.sort(function (a, b) {
          var x = cellValue(a, i), y = cellValue(b, i), d;
          if (numeric) {
            if (x === '' && y === '') d = 0; else if (x === '') return 1; else if (y === '') return -1; else d = Number(x) - Number(y);
          } else d = x.localeCompare(y, undefined, { numeric: true });
          return desc ? -d : d;
        });
        Array.prototype.forEach.call(head.cells, function (o) { o.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); } });
    });
  });
  document.querySelectorAll('input.filter').forEach(function (input) {
    var table = document.getElementById(input.getAttribute('data-table'));
    input.classList.remove('no-js-hidden');
    input.addEventListener('input', function () {
      var q = input.value.trim().toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.style.display = !q || r.textContent.toLowerCase().indexOf(q) >= 0 ? '' : 'none';
      });
    });
  });
  document.querySelectorAll('button.download-json').forEach(function (button) {
    var link = document.getElementById(button.getAttribute('data-link'));
    if (!link || typeof DecompressionStream !== 'function') return;
    button.classList.remove('no-js-hidden');
    button.addEventListener('click', function () {
      fetch(link.href).then(function (r) { return new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).blob(); }).then(function (blob) {
        var a = document.createElement('a');
        a.href = URL.createObjectURL(new Blob([blob], { type: 'application/json' }));
        a.download = button.getAttribute('data-name');
        document.body.appendChild(a);
        a.click();
        setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      });
    });
  });
})();
`;
