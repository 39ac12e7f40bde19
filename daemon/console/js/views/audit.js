// The organization's audit log (organization admins): every change, and every MCP read,
// with who made it (a user, or an API key by name),
// from where and with which request; filters by action, resource type and source; pages
// by seq; one entry's detail and hashes in a side panel; and "Verify chain", which
// recomputes the hash chain on the daemon and says what it proved (through which seq,
// the head hash, the signed checkpoint and the key to check it with) or the first seq
// that is missing or altered. Filters, page and open entry live in the URL.
import { api } from '../api.js';
import { dateTime, num } from '../format.js';
import { html, useEffect, useRef, useState } from '../lib.js';
import { setQuery } from '../router.js';
import { CopyButton, Empty, ErrorBox, FilterInput, Icon, JsonView, Select, Spinner, useAsync } from '../ui.js';

const LIMIT = 50;
const SOURCES = [
  { value: '', label: 'Any source' },
  { value: 'dashboard', label: 'Console / API session' },
  { value: 'apikey', label: 'API key' },
  { value: 'mcp', label: 'MCP' },
];
// Who did it: a user's e-mail, or an API key by its name.
function Actor({ e }) {
  if (e.actorType === 'api_key' || (!e.actorEmail && e.actorName)) return html`<span title="API key">key ${e.actorName || e.actorId || ''}</span>`;
  return e.actorEmail ? html`${e.actorEmail}` : html`<span class="muted">–</span>`;
}
const sourceLabel = (s) => (SOURCES.find((o) => o.value === s) || { label: s }).label;

// "apikey.revoke" → a colour by what the action does.
function actionClass(action) {
  if (/\.(delete|revoke|remove|disable)/.test(action)) return 'type type-error';
  if (/\.(create|register|accept|invite)/.test(action)) return 'type type-llm';
  return 'type';
}

// A 403 is the API's answer, shown as such: the audit log is for organization admins.
export function Forbidden({ error, what }) {
  return html`<${Empty} title=${`You cannot see ${what}`}>
    <p>${error.describe ? error.describe() : error.message}</p>
    <p>Ask an admin of this organization for the admin role.</p></${Empty}>`;
}

function HashValue({ value, label }) {
  if (!value) return html`<span class="muted">–</span>`;
  return html`<span class="hash"><code class="mono" title=${value}>${value}</code><${CopyButton} text=${value} label=${`Copy ${label}`} /></span>`;
}

// What GET /audit-logs/verify proved, or where the chain breaks.
function Verification({ result, onShowEntry, onClose }) {
  const v = result;
  const cp = v.checkpoint;
  return html`<section class=${`card verify ${v.ok ? 'verify-ok' : 'verify-bad'}`} aria-labelledby="verify-title" data-testid="verify-result"
      data-ok=${String(v.ok)} data-broken-seq=${v.brokenAtSeq ?? ''}>
    <div class="card-head">
      <h2 id="verify-title" class="card-title">
        <span class=${`badge ${v.ok ? 'badge-ok' : 'badge-err'}`}><span class="dot"></span>${v.ok ? 'Chain intact' : 'Chain broken'}</span>
        ${v.ok ? html` Verified through seq ${num(v.headSeq)}` : html` at seq ${num(v.brokenAtSeq)}`}
      </h2>
      <button type="button" class="btn btn-ghost btn-icon" onClick=${onClose} aria-label="Close the verification"><${Icon} name="close" /></button>
    </div>
    ${v.ok ? null : html`<div class="error-box" role="alert"><${Icon} name="alert" /> ${v.reason}
      ${v.brokenAtSeq ? html` <button type="button" class="btn btn-sm" onClick=${() => onShowEntry(v.brokenAtSeq)}>Show seq ${v.brokenAtSeq}</button>` : null}</div>`}
    <dl class="facts">
      <dt>Entries recomputed</dt><dd>${num(v.checked)} ${v.ok ? html`<span class="muted">(seq 1 to ${num(v.headSeq)}, every hash matches its content and the one before it)</span>`
        : html`<span class="muted">(seq 1 to ${num(v.checked)} hold; the chain is not trustworthy from seq ${num(v.brokenAtSeq)} on)</span>`}</dd>
      <dt>Head</dt><dd>seq ${num(v.headSeq)}</dd>
      <dt>Head hash</dt><dd><${HashValue} value=${v.headHash} label="head hash" /></dd>
      <dt>Checkpoints</dt><dd>${v.checkpointsVerified === 0 && cp && cp.seq === v.headSeq && v.ok
        ? 'none earlier; this check signed one of the head (below)'
        : `${num(v.checkpointsVerified)} earlier signed checkpoint${v.checkpointsVerified === 1 ? '' : 's'} matched the chain`}${v.checkpointsUnverifiable
        ? html`, <span class="err">${num(v.checkpointsUnverifiable)} signed with a key this daemon does not hold</span>` : ''}</dd>
    </dl>
    ${cp ? html`<h3 class="panel-sub">Signed checkpoint</h3>
      <p class="hint">An Ed25519 signature over the text below, made with a key kept outside the database: a rewrite of the
        stored chain, even one that recomputes every hash, contradicts it. Check it anywhere with the public key.</p>
      <dl class="facts">
        <dt>Seq</dt><dd>${num(cp.seq)}</dd>
        <dt>Signed</dt><dd>${dateTime(cp.signedAt)} <span class="muted small">${cp.signedAt}</span></dd>
        <dt>Key id</dt><dd class="mono">${cp.keyId}</dd>
        <dt>Public key</dt><dd><${HashValue} value=${cp.publicKey} label="public key" /></dd>
        <dt>Signature</dt><dd><${HashValue} value=${cp.signature} label="signature" /></dd>
        <dt>Signed text</dt><dd class="signed-text"><code class="mono">${cp.signedText}</code> <${CopyButton} text=${cp.signedText} label="Copy signed text" /></dd>
      </dl>` : html`<p class="hint">No signed checkpoint yet${v.ok ? '' : ' (one is signed only when the chain holds)'}.</p>`}
  </section>`;
}

function EntryPanel({ seq, rows, onClose }) {
  const closeRef = useRef(null);
  const inPage = rows.find((r) => String(r.seq) === String(seq));
  // An entry named by the URL but not on this page (a deep link, or "show the broken seq").
  const fetched = useAsync(() => (inPage ? null : api.get('/audit-logs', { beforeSeq: Number(seq) + 1, limit: 1 })), [seq, Boolean(inPage)]);
  // An effect, not a layout effect: the panel opens on a row's Enter keydown, and a focus
  // moved before that key's keypress would let it press Close at once.
  useEffect(() => closeRef.current?.focus(), [seq]);
  const e = inPage || (fetched.data?.data || []).find((r) => String(r.seq) === String(seq));
  return html`<aside class="panel" aria-label=${`Audit entry ${seq}`} data-testid="audit-entry">
    <header class="panel-head">
      <div><div class="panel-kicker">Audit entry · seq ${seq}</div><h2 class="panel-title">${e ? e.action : ''}</h2></div>
      <button type="button" class="btn btn-ghost btn-icon" ref=${closeRef} onClick=${onClose} aria-label="Close (Esc)"><${Icon} name="close" /></button>
    </header>
    ${!e ? (fetched.loading ? html`<${Spinner} />` : fetched.error ? html`<${ErrorBox} error=${fetched.error} />`
      : html`<p class="muted">No entry with seq ${seq} in this organization's log.</p>`) : html`
      <dl class="facts">
        <dt>When</dt><dd>${dateTime(e.createdAt)} <span class="muted small">${e.createdAt}</span></dd>
        <dt>Actor</dt><dd><${Actor} e=${e} /> ${e.actorId ? html`<span class="muted small">${e.actorType === 'api_key' ? 'API key' : 'user'} ${e.actorId}</span>` : null}</dd>
        <dt>Source</dt><dd>${sourceLabel(e.source)}</dd>
        <dt>Resource</dt><dd>${e.resourceType} <span class="mono">${e.resourceId}</span></dd>
        <dt>Address</dt><dd class="mono">${e.ipAddress || '–'}</dd>
        <dt>Request id</dt><dd class="mono">${e.requestId || '–'}</dd>
        <dt>Previous hash</dt><dd class="mono small">${e.prevHash}</dd>
        <dt>Entry hash</dt><dd class="mono small">${e.entryHash}</dd>
      </dl>
      <h3 class="panel-sub">Details</h3>
      ${e.metadata ? html`<${JsonView} value=${e.metadata} />` : html`<p class="muted">No details recorded.</p>`}`}
  </aside>`;
}

export function AuditView({ route }) {
  const q = route.query;
  // Pages are seq cursors: ?before=<seq> (older than it) or ?after=<seq> (just newer).
  const before = q.before ? Number(q.before) : undefined;
  const after = q.after ? Number(q.after) : undefined;
  const list = useAsync(() => api.get('/audit-logs', {
    action: q.action, resourceType: q.type, source: q.source, beforeSeq: before, afterSeq: after, limit: LIMIT + 1,
  }), [q.action, q.type, q.source, q.before, q.after, q.t]);
  const [verifying, setVerifying] = useState(false);
  const [verification, setVerification] = useState(null);
  const [verifyError, setVerifyError] = useState(null);
  // One entry more than a page says whether there is another page that way: past the
  // newest of an ?after page (its first entry), or past the oldest of any other.
  const fetched = list.data?.data || [];
  const more = fetched.length > LIMIT;
  const rows = more ? (after !== undefined ? fetched.slice(1) : fetched.slice(0, LIMIT)) : fetched;
  const hasNewer = after !== undefined ? more : before !== undefined;
  const hasOlder = after !== undefined ? after > 0 && rows.length > 0 : more;

  useEffect(() => {
    if (!q.entry) return undefined;
    const onKey = (e) => {
      if (e.key === 'Escape' && !e.defaultPrevented) setQuery({ entry: '' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [q.entry]);

  const verify = async () => {
    setVerifying(true);
    setVerifyError(null);
    try {
      setVerification(await api.get('/audit-logs/verify'));
      list.reload(); // the entries as stored now, which is what was just verified
    } catch (err) {
      setVerification(null);
      setVerifyError(err);
    } finally {
      setVerifying(false);
    }
  };
  // The page that starts at that seq, with its entry open.
  const showEntry = (seq) => setQuery({ entry: seq, before: Number(seq) + 1, after: '', action: '', type: '', source: '' }, { replace: false });
  const filtered = q.action || q.type || q.source;

  if (list.error && list.error.status === 403) {
    return html`<div class="page"><header class="page-head"><h1>Audit log</h1></header>
      <${Forbidden} error=${list.error} what="this organization's audit log" /></div>`;
  }
  return html`<div class=${`page page-split${q.entry ? ' with-panel' : ''}`}>
    <div class="page-main">
      <header class="page-head">
        <h1>Audit log</h1>
        <div class="head-right">
          <button type="button" class="btn" onClick=${() => setQuery({ t: Date.now() })}>Refresh</button>
          <button type="button" class="btn btn-primary" onClick=${verify} disabled=${verifying} data-testid="verify">
            ${verifying ? html`<${Spinner} label="Verifying" />` : html`<${Icon} name="check" size=${14} />`}Verify chain</button>
        </div>
      </header>
      <p class="hint page-hint" data-testid="audit-records">What it records: every change to this organization (from the console, the API
        or an API key) and every read an agent makes through MCP, newest first, with who made it and from where. Each entry's hash covers
        its content and the entry before it, so an edited, removed or reordered entry breaks the chain from there on.</p>
      <div aria-live="polite">
        <${ErrorBox} error=${verifyError} />
        ${verification ? html`<${Verification} result=${verification} onShowEntry=${showEntry} onClose=${() => setVerification(null)} />` : null}
      </div>
      <div class="toolbar" role="search" aria-label="Filters">
        <${FilterInput} id="au-action" label="Action" value=${q.action} placeholder="e.g. app.create" onCommit=${(v) => setQuery({ action: v, before: '', after: '' })} />
        <${FilterInput} id="au-type" label="Resource type" value=${q.type} placeholder="e.g. apikey" onCommit=${(v) => setQuery({ type: v, before: '', after: '' })} />
        <${Select} id="au-source" label="Source" value=${q.source || ''} onChange=${(v) => setQuery({ source: v, before: '', after: '' })} options=${SOURCES} />
        ${filtered ? html`<button type="button" class="btn btn-ghost toolbar-end" onClick=${() => setQuery({ action: '', type: '', source: '', before: '', after: '' })}>Clear filters</button>` : null}
      </div>
      <${ErrorBox} error=${list.error} />
      <div class="table-wrap">
        ${rows.length ? html`<table class="table dense clickable audit" aria-label="Audit log, newest first" aria-busy=${String(list.loading)}>
          <thead><tr><th scope="col" class="num">Seq</th><th scope="col">Time</th><th scope="col">Action</th><th scope="col">Resource</th>
            <th scope="col">Actor</th><th scope="col" class="c-wide">Source</th><th scope="col" class="c-wide">Address</th></tr></thead>
          <tbody>${rows.map((e) => html`<tr key=${e.seq} data-seq=${e.seq} tabindex="0"
              class=${String(e.seq) === String(q.entry) ? 'selected' : ''} aria-current=${String(e.seq) === String(q.entry) ? 'true' : undefined}
              onClick=${() => setQuery({ entry: e.seq })} onKeyDown=${(ev) => { if (ev.key === 'Enter') setQuery({ entry: e.seq }); }}>
            <td class="num mono">${e.seq}</td>
            <td title=${e.createdAt}>${dateTime(e.createdAt)}</td>
            <td><span class=${actionClass(e.action)}>${e.action}</span></td>
            <td>${e.resourceType} <span class="mono muted">${e.resourceId}</span></td>
            <td class="c-actor"><${Actor} e=${e} /></td>
            <td class="c-wide">${sourceLabel(e.source)}</td>
            <td class="mono c-wide">${e.ipAddress || '–'}</td></tr>`)}</tbody>
        </table>` : null}
        ${list.loading && !rows.length ? html`<div class="center"><${Spinner} /></div>` : null}
        ${!list.loading && !rows.length && !list.error ? html`<${Empty} title=${filtered ? 'No entry matches these filters' : 'No entries here'}>
          <p>${filtered ? 'Actions look like app.create or apikey.revoke; resource types like app, channel, apikey or organization.'
            : 'Changes made to this organization appear here.'}</p></${Empty}>` : null}
      </div>
      ${hasNewer || hasOlder ? html`<nav class="pager audit-pager" aria-label="Pages">
        <button type="button" class="btn" disabled=${!hasNewer} onClick=${() => setQuery({ before: '', after: '' }, { replace: false })}>Newest</button>
        <button type="button" class="btn" disabled=${!hasNewer || !rows.length}
          onClick=${() => setQuery({ after: rows[0].seq, before: '' }, { replace: false })}><${Icon} name="chevron" size=${12} />Newer</button>
        <span class="muted">${rows.length ? `seq ${rows[0].seq} to ${rows[rows.length - 1].seq}` : ''}</span>
        <button type="button" class="btn" disabled=${!hasOlder || !rows.length}
          onClick=${() => setQuery({ before: rows[rows.length - 1].seq, after: '' }, { replace: false })}>Older<${Icon} name="chevron" size=${12} /></button>
      </nav>` : null}
    </div>
    ${q.entry ? html`<${EntryPanel} seq=${q.entry} rows=${rows} onClose=${() => setQuery({ entry: '' })} />` : null}
  </div>`;
}
