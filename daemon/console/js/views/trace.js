// One trace: the summary on top (the daemon's tokens, cost and duration), a waterfall treegrid (offset and duration bars, error
// marks, tokens and cost per row), and the selected row's events in a side panel.
// While the trace runs, its events stream in and new spans appear in place: rows are
// keyed by span and ordered by start, so the rows already shown keep their order, and
// the time axis only grows in steps, so their bars keep their place. Only the rows near
// the viewport are in the DOM (js/virtual.js); aria-rowcount and aria-rowindex tell
// assistive technology where each rendered row sits among all of them.
//
// An LLM call's panel lists the tool calls it asked for, each linking to the run that
// answered it; a tool run's names the call that asked for it (telemetry.toolCalls and
// telemetry.requestedBy). A link selects that span (?span=, a new history entry).
//
// Keyboard (WAI-ARIA treegrid): j / ↓ next row, k / ↑ previous, → expand or go to the
// first child, ← collapse or go to the parent, Home / End, Esc closes the panel.
import { api } from '../api.js';
import { Conversation, conversationOf, LongText } from '../conversation.js';
import { dateTime, ms, num, tokens, usd, when } from '../format.js';
import { html, useEffect, useLayoutEffect, useMemo, useRef, useState } from '../lib.js';
import { href, Link, setQuery } from '../router.js';
import { ChannelStream } from '../stream.js';
import { Empty, ErrorBox, Icon, JsonView, Spinner } from '../ui.js';
import { useVirtualRows } from '../virtual.js';
import { axisSpan, buildSpans, flatten, totals, usage } from '../waterfall.js';

function download(traceId, summary, events) {
  const blob = new Blob([JSON.stringify({ traceId, summary, events }, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `trace-${traceId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A trace's length: first start to last end, as the daemon computes it for the list.
export function traceDuration(summary) {
  if (!summary) return null;
  if (summary.durationMs !== undefined && summary.durationMs !== null) return Number(summary.durationMs);
  return new Date(summary.endTime).getTime() - new Date(summary.startTime).getTime();
}

function Summary({ traceId, summary, live, onDownload }) {
  const stat = (label, value, cls = '', id = '') => html`<div class="stat"><dt>${label}</dt><dd class=${cls} data-testid=${id || undefined}>${value}</dd></div>`;
  const s = summary || {};
  return html`<section class="summary" aria-label="Trace summary">
    <div class="summary-head">
      <div class="summary-name">
        <div class="kicker"><${Link} to=${href('/traces')}>Traces</${Link}> / trace${s.sessionId ? html` in session <${Link} to=${href(`/sessions/${encodeURIComponent(s.sessionId)}`)}>${s.sessionId}</${Link}>` : null}</div>
        <h1 class="trace-title">${s.name || html`<span class="mono">${traceId}</span>`}</h1>
        ${s.name ? html`<div class="muted small mono trace-id">${traceId}</div>` : null}
      </div>
      <div class="head-right">
        ${live ? html`<span class=${`badge badge-${live.state === 'live' ? 'ok' : 'wait'}`} data-testid="trace-live" role="status"
          title="New events of this trace appear as they are published"><span class="dot" aria-hidden="true"></span>${live.state === 'live' ? 'Live' : 'Reconnecting…'}</span>` : null}
        <button type="button" class="btn" onClick=${onDownload}><${Icon} name="download" size=${14} />Download JSON</button>
      </div>
    </div>
    <dl class="stats">
      ${stat('Started', summary ? dateTime(s.startTime) : '–')}
      ${stat('Duration', summary ? ms(traceDuration(s)) : '–', '', 'trace-duration')}
      ${stat('Events', num(s.eventCount || 0))}
      ${stat('Errors', num(s.errorCount || 0), s.errorCount ? 'err' : '')}
      ${stat('Tool calls', num(s.toolCallCount || 0))}
      ${stat('Tokens', summary ? html`<span title=${`${tokens(s.inputTokens)} in · ${tokens(s.outputTokens)} out`}>${tokens(s.totalTokens)}</span>` : '–', '', 'trace-tokens')}
      ${stat('Cost', summary ? usd(s.costUsd) : '–', '', 'trace-cost')}
      ${s.userId ? stat('User', html`<${Link} to=${href('/traces', { user: s.userId })}>${s.userId}</${Link}>`) : null}
      ${stat('Agents', s.agents && s.agents.length ? s.agents.map((a) => html`<span class="chip">${a}</span>`) : '–')}
    </dl>
  </section>`;
}

// What went wrong, read from where publishers and conventions put it.
export function errorMessage(e) {
  const p = e.payload && typeof e.payload === 'object' ? e.payload : {};
  const m = e.metadata || {};
  const err = p.error;
  return (typeof err === 'string' && err) || (err && typeof err === 'object' && (err.message || JSON.stringify(err)))
    || (typeof p.message === 'string' && p.message) || m.error_message || m['exception.message'] || m.error_type || '';
}

// Request parameters an LLM call was made with, under the keys conventions use.
const PARAMS = [
  ['temperature', ['temperature', 'gen_ai.request.temperature', 'ai.settings.temperature']],
  ['max tokens', ['max_tokens', 'gen_ai.request.max_tokens', 'ai.settings.maxTokens']],
  ['top p', ['top_p', 'gen_ai.request.top_p', 'ai.settings.topP']],
  ['seed', ['seed', 'gen_ai.request.seed']],
  ['stop', ['stop', 'gen_ai.request.stop_sequences']],
];
function parametersOf(e) {
  const m = e.metadata || {};
  const out = [];
  for (const [label, keys] of PARAMS) {
    const k = keys.find((x) => m[x] !== undefined && m[x] !== null && m[x] !== '');
    if (k) out.push([label, typeof m[k] === 'object' ? JSON.stringify(m[k]) : String(m[k])]);
  }
  const inv = m['llm.invocation_parameters'];
  if (typeof inv === 'string' && !out.length) out.push(['parameters', inv]);
  return out;
}

// One event of the span: its error first, the conversation (an LLM call) or the
// arguments and result (a tool call), the call's facts, and the raw JSON on request.
function EventDetail({ e }) {
  const [raw, setRaw] = useState(false);
  const u = usage(e);
  const t = e.telemetry || {};
  const conversation = conversationOf(e);
  const error = errorMessage(e);
  const isErr = (e.eventType || '').endsWith('error') || t.status === 'error' || (e.metadata || {}).status === 'error';
  const p = e.payload && typeof e.payload === 'object' ? e.payload : {};
  const params = parametersOf(e);
  const fact = (label, value, cls = '') => (value === undefined || value === null || value === '' ? null : html`<dt>${label}</dt><dd class=${cls}>${value}</dd>`);
  const toolArgs = p.arguments ?? p.args;
  const toolResult = p.result ?? p.output;
  return html`<section class="panel-event" data-event-id=${e.id}>
    <h3 class="panel-sub">${e.eventType || e.identifier} <span class="muted small">#${e.id} · ${dateTime(when(e))}</span></h3>
    ${isErr && error ? html`<div class="error-box event-error" role="alert" data-testid="event-error"><${Icon} name="alert" /><${LongText} value=${String(error)} className="msg-text" /></div>` : null}
    ${conversation ? html`<${Conversation} conversation=${conversation} />` : null}
    ${!conversation && toolArgs !== undefined ? html`<h3 class="panel-sub">Arguments</h3><${LongText} value=${typeof toolArgs === 'string' ? toolArgs : JSON.stringify(toolArgs, null, 2)} className="msg-args" />` : null}
    ${!conversation && toolResult !== undefined && typeof toolResult !== 'object' ? html`<h3 class="panel-sub">Result</h3><${LongText} value=${String(toolResult)} />` : null}
    ${!conversation && toolResult !== undefined && typeof toolResult === 'object' ? html`<h3 class="panel-sub">Result</h3><${LongText} value=${JSON.stringify(toolResult, null, 2)} className="msg-args" />` : null}
    ${!conversation && toolArgs === undefined && toolResult === undefined && !(isErr && error) && Object.keys(p).length
      ? html`<h3 class="panel-sub">Payload</h3><${JsonView} value=${p} />` : null}
    <dl class="facts call-facts" data-testid="call-facts">
      ${fact('Model', u.model ? html`<span class="mono">${u.model}</span>` : null)}
      ${fact('Provider', u.provider)}
      ${params.map(([k, v]) => fact(k[0].toUpperCase() + k.slice(1), html`<span class="mono">${v}</span>`))}
      ${u.known && u.tokens ? fact('Tokens', `${tokens(u.input)} in · ${tokens(u.output)} out`) : null}
      ${u.known && u.cost ? fact('Cost', usd(u.cost)) : null}
      ${fact('Latency', u.durationMs !== undefined ? ms(u.durationMs) : null)}
      ${fact('Finish reason', u.finishReason || (e.metadata || {}).finish_reason)}
      ${fact('Tool', t.tool || p.tool)}
      ${fact('Agent', e.agentId)}
    </dl>
    <button type="button" class="btn btn-sm" aria-expanded=${String(raw)} onClick=${() => setRaw(!raw)}>${raw ? 'Hide raw JSON' : 'Raw JSON'}</button>
    ${raw ? html`<${JsonView} value=${e} />` : null}
  </section>`;
}

// The tool calls the span's LLM call asked for (telemetry.toolCalls: each with the run that
// answered it, or none yet), and the LLM call that asked for the span's run
// (telemetry.requestedBy); the daemon links them when the trace is read.
function toolLinks(s) {
  const calls = new Map();
  let requestedBy = null;
  for (const e of s.events) {
    const t = e.telemetry || {};
    for (const c of Array.isArray(t.toolCalls) ? t.toolCalls : []) {
      const k = `${c.toolCallId || ''}|${c.name || ''}`;
      if (!calls.has(k) || (c.answeredBy && !calls.get(k).answeredBy)) calls.set(k, c);
    }
    if (!requestedBy && t.requestedBy) requestedBy = t.requestedBy;
  }
  return { calls: [...calls.values()], requestedBy };
}

// A link to another span of the trace: its ?span= URL (so it opens in a new tab too), and a
// plain click or Enter selects it in place (js/router.js's rule for modified clicks).
function SpanLink({ traceId, target, onFollow, children, ...rest }) {
  const go = (ev) => {
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    ev.preventDefault();
    onFollow(target.key);
  };
  return html`<a href=${href(`/traces/${encodeURIComponent(traceId)}`, { span: spanParam(target.key) })} onClick=${go} ...${rest}>${children}</a>`;
}

// The LLM call that asked for this run, as a fact of the span (a dt and its dd).
function RequestedBy({ requestedBy: by, traceId, spanOf, onFollow }) {
  const asker = spanOf.get(String(by.eventId));
  return html`<dt>Requested by</dt><dd data-testid="requested-by">
    ${asker ? html`<${SpanLink} traceId=${traceId} target=${asker} onFollow=${onFollow}>${asker.name}</${SpanLink}>` : html`<span class="mono">#${by.eventId}</span>`}
    ${by.toolCallId ? html` <span class="muted mono small">${by.toolCallId}</span>` : null}
    ${by.matchedBy === 'name' ? html` <span class="muted small" title="The run carries no call id: matched by tool name and order">(by name)</span>` : null}</dd>`;
}

// The tool calls an LLM call asked for, each with the run that answered it or "not answered".
function ToolCalls({ calls, traceId, spanOf, onFollow }) {
  return html`<section aria-label="Tool calls requested" data-testid="tool-links">
    <h3 class="panel-sub">Tool calls requested</h3>
    <ul class="tool-links">${calls.map((c) => {
      const run = c.answeredBy ? spanOf.get(String(c.answeredBy)) : null;
      return html`<li data-testid="tool-link" data-call-id=${c.toolCallId || ''}>
        <span class="tool-call-name">${c.name || 'tool'}</span>${c.toolCallId ? html`<span class="muted mono small">${c.toolCallId}</span>` : null}
        <span class="tool-link-to">${run ? html`<${SpanLink} traceId=${traceId} target=${run} onFollow=${onFollow}>answered by ${run.name}</${SpanLink}>`
          : c.answeredBy ? html`answered by <span class="mono">#${c.answeredBy}</span>` : html`<span class="muted">not answered</span>`}</span></li>`;
    })}</ul></section>`;
}

function SpanPanel({ row, origin, onClose, traceId, spanOf, onFollow }) {
  const ref = useRef(null);
  if (!row) return null;
  const s = row.span;
  const links = toolLinks(s);
  const linkProps = { traceId, spanOf, onFollow };
  // The event that says most: an error first, else one with a conversation, else the last.
  const events = [...s.events].sort((a, b) => {
    const score = (e) => (errorMessage(e) && (e.eventType || '').endsWith('error') ? 2 : conversationOf(e) ? 1 : 0);
    return score(b) - score(a);
  });
  return html`<aside class="panel" aria-label=${`Span ${s.name}`} ref=${ref} data-testid="span-panel">
    <header class="panel-head">
      <div><div class="panel-kicker">${s.types.join(', ') || 'event'}</div><h2 class="panel-title">${s.name}</h2></div>
      <button type="button" class="btn btn-ghost btn-icon" onClick=${onClose} aria-label="Close (Esc)"><${Icon} name="close" /></button>
    </header>
    <dl class="facts">
      <dt>Starts at</dt><dd>+${ms(s.start - origin)}</dd>
      <dt>Duration</dt><dd>${ms(s.duration)}</dd>
      ${s.tokens ? html`<dt>Tokens</dt><dd>${tokens(s.input)} in · ${tokens(s.output)} out</dd>` : null}
      ${s.cost ? html`<dt>Cost</dt><dd data-testid="span-cost">${usd(s.cost)}</dd>` : null}
      ${s.spanId ? html`<dt>Span</dt><dd class="mono">${s.spanId}</dd>` : null}
      ${s.error ? html`<dt>Status</dt><dd class="err">Error</dd>` : null}
      ${links.requestedBy ? html`<${RequestedBy} requestedBy=${links.requestedBy} ...${linkProps} />` : null}
    </dl>
    ${links.calls.length ? html`<${ToolCalls} calls=${links.calls} ...${linkProps} />` : null}
    ${events.map((e) => html`<${EventDetail} key=${e.id} e=${e} />`)}
  </aside>`;
}

function Ticks({ axis }) {
  const marks = [0, 0.5, 1];
  return html`<div class="wf-ticks" aria-hidden="true">${marks.map((m) => html`<span class="wf-tick" style=${{ left: `${m * 100}%` }}>${ms(m * axis)}</span>`)}</div>`;
}

// A span's key as the URL's ?span= writes it: a span id as it is, an event of its own as e:<id>.
const spanParam = (key) => (key ? (key.startsWith('s:') ? key.slice(2) : key) : '');

export function TraceView({ route }) {
  const traceId = route.params.id;
  const selectedKey = route.query.span ? (route.query.span.includes(':') ? route.query.span : `s:${route.query.span}`) : '';
  const [state, setState] = useState({ loading: true, error: null, summary: null, events: [] });
  const [collapsed, setCollapsed] = useState(() => new Set());
  const [live, setLive] = useState(null);
  const axisRef = useRef(0);
  const gridRef = useRef(null);
  const rowsRef = useRef(null);
  const deepLinked = useRef(Boolean(selectedKey)); // opened with ?span=: centre that row once

  useEffect(() => {
    let cancelled = false;
    const streams = [];
    const seen = new Set();
    (async () => {
      try {
        const [summary, events] = await Promise.all([
          api.get(`/traces/${encodeURIComponent(traceId)}/summary`),
          api.get(`/traces/${encodeURIComponent(traceId)}/events`),
        ]);
        if (cancelled) return;
        for (const e of events) seen.add(e.id);
        setState({ loading: false, error: null, summary, events });
        // Follow each channel the trace has events in, from its newest event on.
        const cursors = new Map();
        for (const e of events) cursors.set(e.channel_id, Math.max(cursors.get(e.channel_id) || 0, e.id));
        for (const [channelId, lastId] of cursors) {
          streams.push(new ChannelStream(channelId, {
            filters: { trace_id: traceId }, lastId,
            onStatus: (s) => !cancelled && setLive({ state: s.state }),
            onEvents: (batch) => {
              const fresh = batch.filter((e) => !seen.has(e.id) && e.traceId === traceId);
              for (const e of fresh) seen.add(e.id);
              if (!fresh.length || cancelled) return;
              setState((st) => ({ ...st, events: [...st.events, ...fresh] }));
              api.get(`/traces/${encodeURIComponent(traceId)}/summary`).then((summary) => !cancelled && setState((st) => ({ ...st, summary })), () => {});
            },
          }).start());
        }
      } catch (error) {
        if (!cancelled) setState({ loading: false, error, summary: null, events: [] });
      }
    })();
    return () => {
      cancelled = true;
      for (const s of streams) s.stop();
    };
  }, [traceId]);

  const spans = useMemo(() => buildSpans(state.events), [state.events]);
  const rows = useMemo(() => flatten(spans, collapsed), [spans, collapsed]);
  const sums = useMemo(() => totals(spans), [spans]); // the time axis only: numbers come from the summary
  const origin = Number.isFinite(sums.start) ? sums.start : 0;
  axisRef.current = axisSpan(Number.isFinite(sums.end) ? sums.end - origin : 0, axisRef.current);
  const axis = axisRef.current || 1;
  const index = rows.findIndex((r) => r.span.key === selectedKey);
  const selected = index >= 0 ? rows[index] : null;
  // Only the rows near the viewport are in the DOM, and the selected row always is (it
  // holds the focus); `gap` is how many rows' height to leave before a row.
  const win = useVirtualRows(rowsRef, rows.length);
  const shown = [];
  let lastShown = 0;
  const show = (i) => {
    shown.push({ i, gap: i - lastShown });
    lastShown = i + 1;
  };
  if (index >= 0 && index < win.start) show(index);
  for (let i = win.start; i < win.end; i += 1) show(i);
  if (index >= win.end) show(index);
  const tabRow = index >= 0 ? index : shown.length ? shown[0].i : -1; // the one row Tab reaches

  const select = (key) => {
    setQuery({ span: spanParam(key) });
  };
  // The span each event belongs to, by event id (tool-call links name events).
  const spanOf = useMemo(() => {
    const m = new Map();
    for (const s of spans.values()) for (const e of s.events) m.set(String(e.id), s);
    return m;
  }, [spans]);
  // A tool-call link: its span's ancestors expanded, selected as a new history entry (Back
  // returns), and focused, so the keyboard carries on from the row.
  const focusNext = useRef(false);
  const follow = (key) => {
    const up = [];
    for (let k = spans.get(key)?.parentKey, n = 0; k && n < spans.size; k = spans.get(k)?.parentKey, n += 1) up.push(k);
    if (up.some((k) => collapsed.has(k))) setCollapsed((c) => new Set([...c].filter((k) => !up.includes(k))));
    focusNext.current = true;
    setQuery({ span: spanParam(key) }, { replace: false });
  };
  const toggle = (key, open) => {
    setCollapsed((c) => {
      const n = new Set(c);
      const isOpen = !n.has(key);
      if (open === undefined ? isOpen : !open) n.add(key);
      else n.delete(key);
      return n;
    });
  };

  // A layout effect, not an effect: a selected row drawn by this render (End, a parent far
  // above) takes the focus before the frame is painted, so no key pressed in between goes
  // to the row that had it.
  useLayoutEffect(() => {
    if (!selectedKey || !gridRef.current) return;
    const el = gridRef.current.querySelector(`[data-key="${CSS.escape(selectedKey)}"]`);
    if (el && document.activeElement !== el && (focusNext.current || gridRef.current.contains(document.activeElement))) el.focus();
    if (!el) return;
    focusNext.current = false;
    // A deep link's row is shown in the middle of the page; later moves scroll as little as they can.
    el.scrollIntoView({ block: deepLinked.current ? 'center' : 'nearest' });
    deepLinked.current = false;
  }, [selectedKey, rows.length]);

  // A row that holds the focus can be taken out of the DOM when the drawn window moves
  // (or moved among its siblings, which also drops the focus), and the focus then falls
  // to the page, where the next key would do nothing. While the focus belongs to the
  // grid (entered it, and left it for nothing else), it goes back to the selected row
  // after every render.
  const focusInGrid = useRef(false);
  const onFocusIn = () => {
    focusInGrid.current = true;
  };
  const onFocusOut = (e) => {
    if (e.relatedTarget) focusInGrid.current = gridRef.current ? gridRef.current.contains(e.relatedTarget) : false;
  };
  useEffect(() => {
    // A click elsewhere (even on nothing focusable, which moves the focus to the page)
    // is the user leaving the grid.
    const onPointerDown = (e) => {
      if (gridRef.current && !gridRef.current.contains(e.target)) focusInGrid.current = false;
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, []);
  useLayoutEffect(() => {
    if (!focusInGrid.current || !selectedKey || !gridRef.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return;
    gridRef.current.querySelector(`[data-key="${CSS.escape(selectedKey)}"]`)?.focus({ preventScroll: true });
  });

  const onKeyDown = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const at = index < 0 ? -1 : index;
    const go = (i) => {
      if (i >= 0 && i < rows.length) {
        e.preventDefault();
        select(rows[i].span.key);
        gridRef.current?.querySelector(`[data-key="${CSS.escape(rows[i].span.key)}"]`)?.focus();
      }
    };
    switch (e.key) {
      case 'j': case 'ArrowDown': go(at + 1); break;
      case 'k': case 'ArrowUp': go(at < 0 ? 0 : at - 1); break;
      case 'Home': go(0); break;
      case 'End': go(rows.length - 1); break;
      case 'ArrowRight':
        if (selected && selected.hasChildren) {
          e.preventDefault();
          if (collapsed.has(selected.span.key)) toggle(selected.span.key, true);
          else go(at + 1);
        }
        break;
      case 'ArrowLeft':
        if (selected) {
          e.preventDefault();
          if (selected.hasChildren && !collapsed.has(selected.span.key)) toggle(selected.span.key, false);
          else if (selected.parentKey) go(rows.findIndex((r) => r.span.key === selected.parentKey));
        }
        break;
      case 'Escape': if (selectedKey) { e.preventDefault(); select(''); } break;
      default:
    }
  };
  useEffect(() => {
    // j/k and Esc also work before the grid has focus.
    const onKey = (e) => {
      const t = e.target;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || t.tagName === 'BUTTON')) {
        if (e.key !== 'Escape') return;
      }
      if (gridRef.current && gridRef.current.contains(t)) return;
      if (['j', 'k', 'Escape'].includes(e.key)) onKeyDown(e);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (state.loading) return html`<div class="page"><${Spinner} label="Loading the trace" /></div>`;
  if (state.error) {
    return html`<div class="page"><div class="kicker"><${Link} to=${href('/traces')}>Traces</${Link}></div>
      ${state.error.status === 404 ? html`<${Empty} title="No such trace in this organization" />` : html`<${ErrorBox} error=${state.error} />`}</div>`;
  }
  return html`<div class=${`page page-split${selected ? ' with-panel' : ''}`}>
    <div class="page-main">
      <${Summary} traceId=${traceId} summary=${state.summary} live=${live}
        onDownload=${() => download(traceId, state.summary, state.events)} />
      <div class="wf" role="treegrid" aria-label="Waterfall of the trace's spans" aria-rowcount=${rows.length + 1}
        ref=${gridRef} onKeyDown=${onKeyDown} onFocusIn=${onFocusIn} onFocusOut=${onFocusOut} data-testid="waterfall">
        <div class="wf-row wf-head" role="row" aria-rowindex="1">
          <span class="wf-name" role="columnheader">Span</span>
          <span class="wf-track" role="columnheader"><span class="sr-only">Timeline</span><${Ticks} axis=${axis} /></span>
          <span class="wf-num" role="columnheader">Duration</span>
          <span class="wf-num wf-tokens" role="columnheader">Tokens</span>
          <span class="wf-num" role="columnheader">Cost</span>
        </div>
        <div class="wf-rows" role="rowgroup" ref=${rowsRef} style=${{ paddingBottom: `${(rows.length - lastShown) * win.rowHeight}px` }}>
          ${shown.map(({ i, gap }) => {
          const r = rows[i];
          const s = r.span;
          const left = ((s.start - origin) / axis) * 100;
          const width = (s.duration / axis) * 100;
          const isSel = s.key === selectedKey;
          const open = r.hasChildren ? !collapsed.has(s.key) : undefined;
          return html`<div key=${s.key} data-key=${s.key} class=${`wf-row${isSel ? ' selected' : ''}${s.error ? ' has-error' : ''}`} role="row"
            aria-level=${r.depth} aria-rowindex=${i + 2} aria-selected=${String(isSel)} aria-expanded=${open === undefined ? undefined : String(open)}
            tabindex=${i === tabRow ? 0 : -1} onClick=${() => select(s.key)} style=${{ marginTop: gap ? `${gap * win.rowHeight}px` : '' }}>
            <span class="wf-name" role="gridcell" style=${{ paddingLeft: `${(r.depth - 1) * 16 + 6}px` }}>
              ${r.hasChildren ? html`<button type="button" class=${`wf-toggle${open ? ' open' : ''}`} tabindex="-1" aria-label=${open ? 'Collapse' : 'Expand'}
                onClick=${(e) => { e.stopPropagation(); toggle(s.key); }}><${Icon} name="chevron" size=${12} /></button>` : html`<span class="wf-toggle-space"></span>`}
              <span class=${`kind kind-${s.kind}`} aria-hidden="true"></span>
              <span class="wf-label" title=${s.name}>${s.name}</span>
              ${s.agent && r.depth === 1 ? html`<span class="chip chip-sm">${s.agent}</span>` : null}
              ${s.error ? html`<span class="err-mark" title="Error" role="img" aria-label="error"><${Icon} name="alert" size=${12} /></span>` : null}
            </span>
            <span class="wf-track" role="gridcell" aria-label=${`starts +${ms(s.start - origin)}, lasts ${ms(s.duration)}`}>
              <span class=${`wf-bar kind-${s.kind}${s.duration === 0 ? ' point' : ''}`} data-start=${s.start} style=${{ left: `${left}%`, width: s.duration === 0 ? undefined : `${width}%` }}></span>
            </span>
            <span class="wf-num mono" role="gridcell">${s.duration ? ms(s.duration) : html`<span class="muted">–</span>`}</span>
            <span class="wf-num wf-tokens mono" role="gridcell">${s.tokens ? html`<span title=${`${num(s.input)} in · ${num(s.output)} out`}>${num(s.tokens)}</span>` : html`<span class="muted">–</span>`}</span>
            <span class="wf-num mono" role="gridcell" data-testid="span-cost">${s.cost ? usd(s.cost) : html`<span class="muted">–</span>`}</span>
          </div>`;
        })}
        </div>
      </div>
      <p class="hint kbd-hint">Keys: <kbd>j</kbd>/<kbd>k</kbd> or <kbd>↓</kbd>/<kbd>↑</kbd> move, <kbd>←</kbd>/<kbd>→</kbd> collapse and expand, <kbd>Esc</kbd> closes the panel.</p>
    </div>
    ${selected ? html`<${SpanPanel} row=${selected} origin=${origin} onClose=${() => select('')} traceId=${traceId} spanOf=${spanOf} onFollow=${follow} />` : null}
  </div>`;
}
