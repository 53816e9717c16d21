/**
 * The stub's home page, `/__stub/`: every operation and where its answers come from, a switch per
 * operation that sets a scenario (`PUT /__stub/scenarios`), the request journal as it grows (it
 * polls `GET /__stub/requests?since=`), and reset. One HTML file with its script inline: no CDN,
 * no build step, nothing fetched but the stub's own JSON paths. Everything shown from a request
 * is put in the page as text (`textContent`), never as markup.
 */

/** What a switch offers, besides the codes an operation declares: the deployment's answers on any endpoint. */
const ALWAYS_CODES = ['401', '403', '500'] as const;
/** The switch that makes an operation slow, in milliseconds. */
const SLOW_MS = 2000;

const STYLE = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; }
  header { background: #0b3d5c; color: #fff; padding: 10px 16px; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 17px; margin: 0 12px 0 0; }
  header a { color: #cfe8ff; }
  header label { font-size: 13px; }
  main { display: grid; grid-template-columns: minmax(0, 11fr) minmax(0, 12fr); gap: 16px; padding: 12px 16px; }
  h2 { font-size: 15px; margin: 4px 0 8px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 3px 5px; border-bottom: 1px solid #e3e3e8; vertical-align: top; }
  th { font-weight: 600; background: #f5f5f7; position: sticky; top: 0; }
  code { font: 12px ui-monospace, monospace; }
  .method { font: 600 11px ui-monospace, monospace; }
  .source { color: #555; font-size: 12px; }
  tr.switched td { background: #fff6d6; }
  .s2 { color: #176f2c; } .s3 { color: #5b4ba8; } .s4 { color: #b25000; } .s5 { color: #b00020; }
  #status { font-size: 12px; min-height: 1em; }
  summary { word-break: break-all; }
  details pre { white-space: pre-wrap; word-break: break-all; margin: 4px 0; font-size: 12px; }
  .scroll { max-height: calc(100vh - 120px); overflow: auto; }
  button { cursor: pointer; }
  select { width: 13em; }
`;

const SCRIPT = `
'use strict';
const ALWAYS = ${JSON.stringify(ALWAYS_CODES)};
const REASONS = { 200: 'OK', 201: 'Created', 204: 'No Content', 302: 'Found', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 415: 'Unsupported Media Type', 500: 'Server Error' };
const SLOW = ${JSON.stringify(`delay=${SLOW_MS}`)};
const $ = (id) => document.getElementById(id);
const el = (tag, props, ...children) => {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  for (const c of children) e.append(c);
  return e;
};
let since = 0;
let session = '';
// A new session watched (or the journal cleared) starts a new generation: an answer asked for
// before it is another session's (its journal's entries and ids, its switches), and is let go.
let generation = 0;
const say = (text) => { $('status').textContent = text; };
async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  if (session) headers['x-stub-session'] = session;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const value = text ? JSON.parse(text) : undefined;
  if (!r.ok) throw new Error((value && (value.detail || value.title)) || r.status + ' ' + r.statusText);
  return value;
}
function choices(op) {
  const list = [['', 'as declared']];
  if (op.kind === 'list') list.push(['empty=true', 'empty']);
  list.push([SLOW, 'slow (' + SLOW.slice(6) + ' ms)']);
  const codes = [...new Set([...op.responses, ...ALWAYS])].sort();
  for (const c of codes) list.push(['code=' + c, c + (REASONS[c] ? ' ' + REASONS[c] : '')]);
  return list;
}
async function loadOperations() {
  const { operations } = await call('GET', '/__stub/operations');
  const body = $('operations');
  body.replaceChildren();
  for (const op of operations) {
    const select = el('select', { title: 'Scenario for ' + op.operationId });
    select.dataset.operation = op.operationId;
    for (const [value, label] of choices(op)) select.append(el('option', { value, textContent: label }));
    select.addEventListener('change', () => setScenario(op.operationId, select.value));
    const from = op.source + (op.otherwise ? ', else ' + op.otherwise : '') + (op.fixture ? ' (' + op.fixture + ')' : '');
    const row = el('tr', {},
      el('td', {}, el('span', { className: 'method', textContent: op.method + ' ' }), el('code', { textContent: op.path }),
        el('br'), el('small', { className: 'source', textContent: op.operationId })),
      el('td', { className: 'source', textContent: from }),
      el('td', {}, select));
    row.dataset.operation = op.operationId;
    body.append(row);
  }
}
async function loadScenarios() {
  const asked = generation;
  const { scenarios } = await call('GET', '/__stub/scenarios');
  // Asked for the session watched before: the switches shown are the new one's (start loads them).
  if (asked !== generation) return;
  const set = new Map(scenarios.filter((s) => s.operationId).map((s) => [s.operationId, s.prefer]));
  for (const select of document.querySelectorAll('select[data-operation]')) {
    const prefer = set.get(select.dataset.operation) || '';
    if (![...select.options].some((o) => o.value === prefer)) select.append(el('option', { value: prefer, textContent: prefer }));
    select.value = prefer;
    select.closest('tr').classList.toggle('switched', prefer !== '');
  }
}
async function setScenario(operationId, prefer) {
  try {
    if (prefer === '') await call('DELETE', '/__stub/scenarios?operationId=' + encodeURIComponent(operationId));
    else await call('PUT', '/__stub/scenarios', { operationId, prefer });
    say(operationId + ': ' + (prefer || 'as declared'));
  } catch (e) { say(operationId + ': ' + e.message); }
  await loadScenarios();
}
function journalRow(r) {
  const detail = el('details', {}, el('summary', { textContent: r.url }));
  const headers = Object.entries(r.headers).map(([k, v]) => k + ': ' + v).join('\\n');
  detail.append(el('pre', { textContent: headers }));
  if (r.body !== undefined) detail.append(el('pre', { textContent: r.body + (r.bodyTruncated ? ' …' : '') }));
  const row = el('tr', {},
    el('td', { textContent: String(r.id) }),
    el('td', { textContent: r.time.slice(11, 23) }),
    el('td', {}, el('span', { className: 'method', textContent: r.method })),
    el('td', {}, detail),
    el('td', {}, el('code', { textContent: r.operationId || '' })),
    el('td', { textContent: r.scenario ? r.scenario + (r.scenarioFrom === 'scenarios' ? ' (switch)' : '') : '' }),
    el('td', { className: 's' + String(r.status)[0], textContent: String(r.status) }),
    el('td', { textContent: r.durationMs.toFixed(1) }));
  row.dataset.id = String(r.id);
  return row;
}
let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  const asked = generation;
  try {
    const { requests, capacity } = await call('GET', '/__stub/requests?since=' + since);
    if (asked !== generation) return;
    $('capacity').textContent = capacity === 0 ? '(off: --journal 0)' : '(the last ' + capacity + ')';
    const body = $('journal');
    for (const r of requests) {
      // The page's own calls are the stub's paths: not shown.
      if (r.url.startsWith('/__stub/')) { since = Math.max(since, r.id); continue; }
      body.prepend(journalRow(r));
      since = Math.max(since, r.id);
    }
    while (body.children.length > 500) body.lastChild.remove();
    if (requests.some((r) => r.scenarioFrom === 'scenarios')) await loadScenarios();
  } catch (e) { say('journal: ' + e.message); }
  finally { polling = false; }
}
async function start() {
  generation++;
  since = 0;
  $('journal').replaceChildren();
  await loadOperations();
  await loadScenarios();
  await poll();
}
$('filter').addEventListener('input', () => {
  const words = $('filter').value.toLowerCase().split(/\\s+/).filter(Boolean);
  for (const row of $('operations').children)
    row.hidden = !words.every((w) => row.textContent.toLowerCase().includes(w));
});
$('session').addEventListener('change', () => { session = $('session').value.trim(); start().catch((e) => say(e.message)); });
$('reset').addEventListener('click', async () => {
  try { await call('POST', '/__stub/reset'); say('reset: writes and switches back to the snapshot'); } catch (e) { say('reset: ' + e.message); }
  await loadScenarios();
});
$('clear').addEventListener('click', async () => {
  try { await call('DELETE', '/__stub/requests'); generation++; since = 0; $('journal').replaceChildren(); } catch (e) { say(e.message); }
});
start().catch((e) => say(e.message));
setInterval(poll, 1000);
`;

/** Text made safe inside HTML, in an element or a quoted attribute. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page, with the service's name and the links of the stub's other pages. */
export function controlPageHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}: stub control</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1>${escapeHtml(title)} <small>stub</small></h1>
  <a href="/docs">API reference</a>
  <a href="/openapi.yaml">openapi.yaml</a>
  <label>Session <input id="session" placeholder="shared" size="12" title="X-Stub-Session of the client to watch and switch; empty: the shared state"></label>
  <button id="reset" type="button" title="POST /__stub/reset">Reset state and switches</button>
  <button id="clear" type="button" title="DELETE /__stub/requests">Clear journal</button>
  <span id="status" role="status"></span>
</header>
<main>
  <section>
    <h2>Operations <input id="filter" type="search" placeholder="filter" size="16" title="Shows the operations whose method, path, operationId or source contain this"></h2>
    <div class="scroll"><table>
      <thead><tr><th>Operation</th><th>Answered by</th><th>Switch</th></tr></thead>
      <tbody id="operations"></tbody>
    </table></div>
  </section>
  <section>
    <h2>Requests <small id="capacity"></small></h2>
    <div class="scroll"><table>
      <thead><tr><th>#</th><th>Time</th><th>Method</th><th>URL</th><th>Operation</th><th>Scenario</th><th>Status</th><th>ms</th></tr></thead>
      <tbody id="journal"></tbody>
    </table></div>
  </section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
