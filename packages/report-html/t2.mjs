import { pathToFileURL, fileURLToPath } from 'node:url';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const t0 = cpu();
const p = fileURLToPath(import.meta.resolve('vega')).replace('vega.module.js', 'vega.min.js');
await import(pathToFileURL(p).href);
const vega = globalThis.vega;
const t1 = cpu();
const vl = await import('vega-lite');
const t2 = cpu();
console.log('import vega', (t1-t0).toFixed(0), 'vega-lite', (t2-t1).toFixed(0), typeof vega.View);
async function render(spec) { const a = cpu(); const vg = vl.compile(spec).spec; const b = cpu(); const view = new vega.View(vega.parse(vg), { renderer: 'none' }); const svg = await view.toSVG(); view.finalize(); const c = cpu(); return { compile: (b-a).toFixed(0), render: (c-b).toFixed(0), kb: (svg.length/1024).toFixed(0) }; }
function facet(n, pts) { const values = []; for (let k = 0; k < n; k++) for (let i = 0; i < pts; i++) values.push({ k: 'class ' + k, r: i / pts, p: Math.random() }); return { data: { values }, facet: { field: 'k', type: 'nominal' }, columns: 10, spec: { width: 100, height: 100, mark: 'line', encoding: { x: { field: 'r', type: 'quantitative' }, y: { field: 'p', type: 'quantitative' } } } }; }
for (const [n, p] of [[20, 100], [20, 100], [200, 50], [150, 99], [20, 2000], [1, 4000]]) console.log(n, p, await render(facet(n, p)));
