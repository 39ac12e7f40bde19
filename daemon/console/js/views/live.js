// Live tail of one channel: the newest events first, filters (event type, agent, trace, end user)
// applied by the daemon to the stored events (the newest 50 matches, then "N older
// matches — load more") and to the stream that follows, pause and resume without losing anything, a rate sparkline,
// the event's JSON in a side panel with a link to its trace, and a connection badge
// that tells whether the stream resumed and how many events were missed (0 unless the
// daemon had to reset the cursor).
import { api } from '../api.js';
import { groupByApp, loadChannels } from '../channels.js';
import { clock, dateTime, when } from '../format.js';
import { html, useEffect, useMemo, useRef, useState } from '../lib.js';
import { href, Link, setQuery } from '../router.js';
import { ChannelStream } from '../stream.js';
import { Empty, ErrorBox, FilterInput, Icon, JsonView, ShortId, Spinner, useAsync } from '../ui.js';
import { PublishHelp } from './publish_help.js';

const KEEP = 1000; // rows kept on screen
const BACKLOG = 50; // events shown from before the page opened

// Values per time bucket as a small line; points are [t, value] pairs.
function Sparkline({ values, width = 120, height = 24, label }) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const pts = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`).join(' ');
  return html`<svg class="sparkline" width=${width} height=${height} viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${label}>
    <polyline points=${`0,${height} ${pts} ${width},${height}`} class="spark-fill" />
    <polyline points=${pts} class="spark-line" fill="none" /></svg>`;
}

function ChannelPicker({ channels, value, onChange }) {
  return html`<label class="select" for="live-channel"><span class="select-label">Channel</span>
    <select id="live-channel" value=${value} onChange=${(e) => onChange(e.currentTarget.value)}>
      ${groupByApp(channels).map((g) => html`<optgroup label=${g.appName}>
        ${g.channels.map((c) => html`<option value=${c.id} selected=${String(c.id) === String(value)}>${c.appName} / ${c.name}</option>`)}
      </optgroup>`)}
    </select></label>`;
}

export function ConnectionBadge({ status }) {
  if (!status) return null;
  const { state, resumes, missed } = status;
  const label = state === 'live' ? 'Live' : state === 'reconnecting' ? 'Reconnecting…' : state === 'failed' ? 'Stream refused' : 'Connecting…';
  const kind = state === 'live' ? (missed ? 'warn' : 'ok') : state === 'failed' ? 'err' : 'wait';
  const detail = `${resumes ? `resumed ${resumes}× · ` : ''}${missed} missed`;
  return html`<span class=${`badge badge-${kind}`} data-testid="connection" data-state=${state} data-missed=${missed}
    data-resumes=${resumes} role="status" aria-live="polite"
    title=${`Cursor: event ${status.lastId || '–'}. Reconnects mint a new stream token and resume after the cursor.`}>
    <span class="dot" aria-hidden="true"></span>${label}<span class="badge-detail">${detail}</span></span>`;
}

function payloadPreview(e) {
  const p = e.payload;
  if (p === null || p === undefined) return '';
  if (typeof p === 'string') return p;
  for (const k of ['text', 'content', 'message', 'output', 'input', 'name', 'tool']) {
    if (typeof p[k] === 'string') return p[k];
  }
  return JSON.stringify(p);
}

// The tail's filters as GET /event/{channel}/list names them.
function listFilters(f) {
  const out = {};
  if (f.event_type) out.eventType = f.event_type;
  if (f.agent_id) out.agentId = f.agent_id;
  if (f.trace_id) out.traceId = f.trace_id;
  if (f.user) out.user = f.user;
  return out;
}

function typeClass(t) {
  if (!t) return '';
  if (t.includes('error')) return 'type-error';
  if (t.includes('tool')) return 'type-tool';
  if (t.includes('llm') || t.includes('message') || t.includes('chat')) return 'type-llm';
  if (t.includes('start') || t.includes('end')) return 'type-span';
  return '';
}

function useRate(events) {
  // Events per second over the last 60 seconds, re-drawn every second.
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, []);
  const now = Math.floor(Date.now() / 1000);
  const buckets = new Array(60).fill(0);
  for (const e of events) {
    const s = now - Math.floor(e.arrived / 1000);
    if (s >= 0 && s < 60) buckets[59 - s] += 1;
    else if (s >= 60) break; // newest first: the rest are older
  }
  return buckets;
}

// Exports the daemon refused on the OTLP routes (GET /ingest/problems): an OTLP exporter
// logs a bare "400 Bad Request", so the reason is shown here, next to the events that did
// not arrive. "3 exports refused in the last hour: no channel".
export function refusalSummary(problems, now = Date.now()) {
  const recent = problems.filter((p) => now - Date.parse(p.occurredAt) < 3600e3);
  if (!recent.length) return null;
  const byReason = new Map();
  for (const p of recent) byReason.set(p.reasonText, (byReason.get(p.reasonText) || 0) + 1);
  const reasons = [...byReason.entries()].sort((a, b) => b[1] - a[1])
    .map(([text, n]) => (byReason.size > 1 ? `${text} (${n})` : text));
  return `${recent.length} ${recent.length === 1 ? 'export' : 'exports'} refused in the last hour: ${reasons.join(', ')}`;
}

function IngestProblems() {
  const problems = useAsync(() => api.get('/ingest/problems', { limit: 100 }).catch(() => ({ data: [] })), []);
  useEffect(() => {
    const timer = setInterval(() => { if (!document.hidden) problems.reload(); }, 30_000);
    return () => clearInterval(timer);
  }, []);
  const list = problems.data ? problems.data.data : [];
  const summary = refusalSummary(list);
  if (!summary) return null;
  return html`<p class="notice notice-warn" role="status" data-testid="ingest-problems" title=${list[0].detail}>
    <${Icon} name="alert" size=${14} /> ${summary}. Latest: ${list[0].detail}</p>`;
}

function EventPanel({ row, onClose }) {
  const closeRef = useRef(null);
  // An effect, not a layout effect: the panel opens on a row's Enter keydown, and a focus
  // moved before that key's keypress would let it press Close at once.
  useEffect(() => closeRef.current?.focus(), [row?.id]);
  if (!row) return null;
  const { arrived, old, ...event } = row; // the tail's own bookkeeping is not part of the event
  return html`<aside class="panel" aria-label=${`Event ${event.id}`}>
    <header class="panel-head">
      <div><div class="panel-kicker">Event ${event.id}</div><h2 class="panel-title">${event.eventType || event.identifier}</h2></div>
      <button type="button" class="btn btn-ghost btn-icon" ref=${closeRef} onClick=${onClose} aria-label="Close (Esc)"><${Icon} name="close" /></button>
    </header>
    <dl class="facts">
      <dt>Identifier</dt><dd class="mono">${event.identifier}</dd>
      <dt>Agent</dt><dd>${event.agentId || '–'}</dd>
      <dt>Occurred</dt><dd>${dateTime(when(event))}</dd>
      <dt>Trace</dt><dd>${event.traceId ? html`<${Link} to=${href(`/traces/${encodeURIComponent(event.traceId)}`, { span: event.spanId || undefined })}>Open trace <${ShortId} id=${event.traceId} /></${Link}>` : '–'}</dd>
    </dl>
    <${JsonView} value=${event} />
  </aside>`;
}

export function LiveView({ route }) {
  const q = route.query;
  const channels = useAsync(loadChannels, []);
  const list = channels.data ? channels.data.channels : [];
  const channelId = q.channel || (list[0] && String(list[0].id)) || '';
  const filters = useMemo(() => ({ event_type: q.type || '', agent_id: q.agent || '', trace_id: q.trace || '', user: q.user || '' }), [q.type, q.agent, q.trace, q.user]);
  const filtered = !!(filters.event_type || filters.agent_id || filters.trace_id || filters.user);
  const [rows, setRows] = useState([]);
  const [status, setStatus] = useState(null);
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState([]);
  const pausedRef = useRef(false);
  const [error, setError] = useState(null);
  // Stored matches older than those shown: {total, loaded, cursor, loading}.
  const [older, setOlder] = useState(null);
  const loadOlder = async () => {
    if (!older || !older.cursor || older.loading) return;
    setOlder({ ...older, loading: true });
    try {
      const page = await api.get(`/event/${channelId}/list`, { limit: BACKLOG, cursor: older.cursor, ...listFilters(filters) });
      setRows((r) => {
        const have = new Set(r.map((e) => e.id));
        return [...r, ...page.data.filter((e) => !have.has(e.id)).map((e) => ({ ...e, arrived: 0, old: true }))];
      });
      setOlder({ total: older.total, loaded: older.loaded + page.data.length, cursor: page.meta ? page.meta.nextCursor : null, loading: false });
    } catch (e) {
      setError(e);
      setOlder({ ...older, loading: false });
    }
  };

  useEffect(() => {
    if (channelId && !q.channel && list.length) setQuery({ channel: channelId });
  }, [channelId, list.length]);

  useEffect(() => {
    if (!channelId) return undefined;
    setRows([]);
    setHeld([]);
    setError(null);
    setOlder(null);
    let stream = null;
    let cancelled = false;
    (async () => {
      // The newest matches first (the daemon filters the stored events, so a filter shows
      // its history, not only what arrives next), then the stream from the channel's
      // newest event at the moment the history was read: nothing between is lost, and
      // what both hold is shown once.
      let backlog = [];
      let cursor = 0;
      try {
        const newest = await api.get(`/event/${channelId}/list`, { page: 1, limit: 1 });
        cursor = newest.data.length ? newest.data[0].id : 0;
        const page = await api.get(`/event/${channelId}/list`, { limit: BACKLOG, ...listFilters(filters) });
        backlog = page.data;
        if (!cancelled) setOlder({ total: page.meta ? page.meta.total : backlog.length, loaded: backlog.length, cursor: page.meta ? page.meta.nextCursor : null, loading: false });
      } catch (e) {
        if (!cancelled) setError(e);
        return;
      }
      if (cancelled) return;
      const now = Date.now();
      const shown = new Set(backlog.map((e) => e.id));
      setRows(backlog.map((e) => ({ ...e, arrived: now - 60_000, old: true })));
      stream = new ChannelStream(channelId, {
        filters, lastId: cursor,
        onStatus: (s) => !cancelled && setStatus({ ...s }),
        onEvents: (batch) => {
          if (cancelled) return;
          const t = Date.now();
          const fresh = batch.filter((e) => !shown.has(e.id)).map((e) => ({ ...e, arrived: t })).reverse();
          for (const e of fresh) shown.add(e.id);
          if (!fresh.length) return;
          if (pausedRef.current) setHeld((h) => [...fresh, ...h].slice(0, 10 * KEEP));
          else setRows((r) => [...fresh, ...r].slice(0, KEEP));
        },
      }).start();
    })();
    return () => {
      cancelled = true;
      if (stream) stream.stop();
    };
  }, [channelId, filters]);

  const togglePause = () => {
    if (pausedRef.current) {
      setRows((r) => [...held, ...r].slice(0, KEEP));
      setHeld([]);
    }
    pausedRef.current = !pausedRef.current;
    setPaused(pausedRef.current);
  };

  // A link to one event (a moderation violation's) that is not among the rows shown: read
  // from the stored events around the time given with it (?at=).
  const [linked, setLinked] = useState(null);
  const inRows = q.event ? rows.find((r) => String(r.id) === String(q.event)) : null;
  useEffect(() => {
    if (!q.event || inRows || !q.at || !channelId || (linked && String(linked.id) === String(q.event))) return undefined;
    let live = true;
    const t = Date.parse(q.at);
    if (Number.isNaN(t)) return undefined;
    api.get(`/event/${channelId}/list`, { since: new Date(t - 600e3).toISOString(), until: new Date(t + 5e3).toISOString(), limit: 100 })
      .then((page) => {
        const found = page.data.find((e) => String(e.id) === String(q.event));
        if (live && found) setLinked({ ...found, old: true, arrived: 0 });
      }, () => {});
    return () => {
      live = false;
    };
  }, [q.event, q.at, channelId, Boolean(inRows)]);
  const selected = inRows || (linked && q.event && String(linked.id) === String(q.event) ? linked : null);
  useEffect(() => {
    const onKey = (e) => {
      if (e.key === 'Escape' && q.event) setQuery({ event: '' });
      if (e.key === ' ' && e.target === document.body) {
        e.preventDefault();
        togglePause();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  const rate = useRate(rows);
  const perMinute = rate.reduce((a, b) => a + b, 0);

  if (channels.loading) return html`<div class="page"><${Spinner} /></div>`;
  if (channels.error) return html`<div class="page"><${ErrorBox} error=${channels.error} /></div>`;
  if (!list.length) {
    return html`<div class="page"><h1>Live tail</h1>
      <${Empty} title="No channel yet">
        <p>Events are published into channels, which belong to apps. Create both in <${Link} to=${href('/settings')}>Settings</${Link}>, then publish:</p>
        <pre class="code">curl -X POST ${window.location.origin}/event -H 'content-type: application/json' -H 'x-api-key: aes_…' \\
  -d '{"identifier":"hello","payload":{"text":"hi"},"channel_id":1,"eventType":"agent.message"}'</pre>
      </${Empty}></div>`;
  }

  const channel = list.find((c) => String(c.id) === String(channelId));
  return html`<div class=${`page page-split${selected ? ' with-panel' : ''}`}>
    <div class="page-main">
      <header class="page-head">
        <h1>Live tail</h1>
        <div class="head-right">
          <${ConnectionBadge} status=${status} />
          <span class="rate" title="Events per second, last 60 s"><${Sparkline} values=${rate} label=${`${perMinute} events in the last minute`} /><span class="rate-num">${perMinute}/min</span></span>
          <button type="button" class=${`btn ${paused ? 'btn-primary' : ''}`} onClick=${togglePause} aria-pressed=${String(paused)} data-testid="pause">
            <${Icon} name=${paused ? 'play' : 'pause'} size=${14} />${paused ? `Resume${held.length ? ` (${held.length} new)` : ''}` : 'Pause'}</button>
          <button type="button" class="btn" onClick=${() => { setRows([]); setHeld([]); }}>Clear</button>
        </div>
      </header>
      <div class="toolbar" role="search" aria-label="Filters">
        <${ChannelPicker} channels=${list} value=${channelId} onChange=${(v) => setQuery({ channel: v, event: '' })} />
        <${FilterInput} id="f-type" label="Event type" value=${q.type} placeholder="agent.tool_call.start" onCommit=${(v) => setQuery({ type: v })} />
        <${FilterInput} id="f-agent" label="Agent" value=${q.agent} placeholder="any" onCommit=${(v) => setQuery({ agent: v })} />
        <${FilterInput} id="f-trace" label="Trace" value=${q.trace} placeholder="any" onCommit=${(v) => setQuery({ trace: v })} />
        <${FilterInput} id="f-user" label="User" value=${q.user} placeholder="any" onCommit=${(v) => setQuery({ user: v })} />
      </div>
      <${ErrorBox} error=${error || (status && status.state === 'failed' ? status.error : null)} />
      <${IngestProblems} />
      <div class="table-wrap">
        <table class="table dense clickable live" aria-label=${`Events of ${channel ? `${channel.appName} / ${channel.name}` : 'the channel'}, newest first`}>
          <thead><tr><th scope="col" class="c-time">Time</th><th scope="col" class="c-type">Type</th><th scope="col" class="c-agent opt">Agent</th>
            <th scope="col" class="c-ident opt">Identifier</th><th scope="col" class="c-trace">Trace</th><th scope="col" class="opt">Payload</th></tr></thead>
          <tbody>
            ${rows.map((e) => html`<tr key=${e.id} data-event-id=${e.id} class=${`${String(e.id) === String(q.event) ? 'selected' : ''}${e.old ? ' old' : ' fresh'}`}
              tabindex="0" aria-current=${String(e.id) === String(q.event) ? 'true' : undefined}
              onClick=${() => setQuery({ event: e.id })}
              onKeyDown=${(ev) => { if (ev.key === 'Enter') setQuery({ event: e.id }); }}>
              <td class="mono c-time">${clock(when(e))}</td>
              <td class="c-type"><span class=${`type ${typeClass(e.eventType)}`}>${e.eventType || '–'}</span></td>
              <td class="c-agent opt">${e.agentId || html`<span class="muted">–</span>`}</td>
              <td class="mono c-ident opt">${e.identifier}</td>
              <td class="c-trace">${e.traceId ? html`<${Link} to=${href(`/traces/${encodeURIComponent(e.traceId)}`)} onClick=${(ev) => ev.stopPropagation()}><${ShortId} id=${e.traceId} /></${Link}>` : html`<span class="muted">–</span>`}</td>
              <td class="payload opt">${payloadPreview(e)}</td></tr>`)}
          </tbody>
        </table>
        ${older && older.cursor && older.total > older.loaded ? html`<div class="older" data-testid="older-matches">
          <button type="button" class="btn btn-sm" onClick=${loadOlder} disabled=${older.loading}>
            ${`${(older.total - older.loaded).toLocaleString('en-US')} older ${filtered ? 'match' : 'event'}${older.total - older.loaded === 1 ? '' : filtered ? 'es' : 's'}`} — load more</button></div>` : null}
        ${rows.length === 0 ? html`<${Empty} title=${paused ? 'Paused' : 'Waiting for events'}><p>New events on this channel appear here as they are published.</p>
          ${!paused && channel && !filtered ? html`<${PublishHelp} channel=${channel} />` : null}</${Empty}>` : null}
      </div>
    </div>
    ${selected ? html`<${EventPanel} row=${selected} onClose=${() => setQuery({ event: '', at: '' })} />` : null}
  </div>`;
}
