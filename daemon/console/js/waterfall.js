// From a trace's events to waterfall rows. Events that share a spanId are one span
// (start = earliest event, end = latest event or start + duration_ms); an event without
// a spanId is a row of its own. parentSpanId nests rows; siblings are ordered by start,
// then by first event id, so adding events never reorders the rows already there.
import { whenMs } from './format.js';

// An event's telemetry as the daemon extracted and priced it at ingest (`telemetry` on
// GET /traces/{id}/events). The console shows these numbers and never re-reads metadata:
// an event without them counts nothing.
export function usage(e) {
  const t = e.telemetry || {};
  const m = e.metadata || {};
  const n = (v) => (v === null || v === undefined || Number.isNaN(Number(v)) ? 0 : Number(v));
  const input = n(t.inputTokens);
  const output = n(t.outputTokens);
  return {
    // Until a daemon sends `telemetry`, a span's length and model still come from its
    // metadata (display only: tokens and cost are never added up here).
    model: t.model || m.model || undefined,
    provider: t.provider || undefined,
    tokens: input + output, input, output, cost: n(t.costUsd),
    durationMs: t.durationMs !== null && t.durationMs !== undefined ? Number(t.durationMs)
      : m.duration_ms !== undefined && m.duration_ms !== null && !Number.isNaN(Number(m.duration_ms)) ? Number(m.duration_ms) : undefined,
    status: t.status || undefined,
    finishReason: t.finishReason || undefined,
    known: Boolean(e.telemetry),
  };
}

export function isError(e) {
  const m = e.metadata || {};
  return (e.eventType || '').endsWith('error') || m.status === 'error' || m.status === 'ERROR';
}

// A span's display name: its first event's identifier, else the event type.
function spanName(events) {
  const first = events[0];
  return first.identifier || first.eventType || `event ${first.id}`;
}

function kindOf(types) {
  const t = types.join(' ');
  if (t.includes('error')) return 'error';
  if (t.includes('tool')) return 'tool';
  if (t.includes('llm') || t.includes('chat') || t.includes('message') || t.includes('generation')) return 'llm';
  if (t.includes('handoff')) return 'handoff';
  if (t.includes('agent')) return 'agent';
  return 'other';
}

export function buildSpans(events) {
  const spans = new Map();
  for (const e of events) {
    const key = e.spanId ? `s:${e.spanId}` : `e:${e.id}`;
    let s = spans.get(key);
    if (!s) {
      s = { key, spanId: e.spanId || null, parentKey: null, events: [], start: Infinity, end: -Infinity, firstId: e.id,
        tokens: 0, input: 0, output: 0, cost: 0, error: false, model: undefined, agent: e.agentId || '', types: [] };
      spans.set(key, s);
    }
    s.events.push(e);
    s.firstId = Math.min(s.firstId, e.id);
    if (!s.parentKey && e.parentSpanId) s.parentKey = `s:${e.parentSpanId}`;
    const u = usage(e);
    const t = whenMs(e);
    s.start = Math.min(s.start, t);
    s.end = Math.max(s.end, t + (u.durationMs > 0 ? u.durationMs : 0));
    s.tokens += u.tokens;
    s.input += u.input;
    s.output += u.output;
    s.cost += u.cost;
    s.error = s.error || isError(e);
    if (u.model && !s.model) s.model = u.model;
    if (!s.agent && e.agentId) s.agent = e.agentId;
    if (e.eventType && !s.types.includes(e.eventType)) s.types.push(e.eventType);
  }
  for (const s of spans.values()) {
    s.events.sort((a, b) => whenMs(a) - whenMs(b) || a.id - b.id);
    s.name = spanName(s.events);
    s.kind = kindOf(s.types);
    s.duration = Math.max(0, s.end - s.start);
  }
  return spans;
}

// Depth-first rows: [{span, depth, hasChildren, parentKey}] with children after parents.
export function flatten(spans, collapsed = new Set()) {
  const children = new Map();
  const roots = [];
  for (const s of spans.values()) {
    if (s.parentKey && spans.has(s.parentKey) && s.parentKey !== s.key) {
      if (!children.has(s.parentKey)) children.set(s.parentKey, []);
      children.get(s.parentKey).push(s);
    } else {
      roots.push(s);
    }
  }
  const order = (a, b) => a.start - b.start || a.firstId - b.firstId;
  roots.sort(order);
  for (const list of children.values()) list.sort(order);
  const rows = [];
  const seen = new Set();
  const walk = (s, depth, parentKey) => {
    if (seen.has(s.key)) return; // a parent cycle in bad data
    seen.add(s.key);
    const kids = children.get(s.key) || [];
    rows.push({ span: s, depth, hasChildren: kids.length > 0, parentKey });
    if (!collapsed.has(s.key)) for (const k of kids) walk(k, depth + 1, s.key);
  };
  for (const r of roots) walk(r, 1, null);
  return rows;
}

// Totals of the whole trace for the summary.
export function totals(spans) {
  const t = { tokens: 0, cost: 0, errors: 0, start: Infinity, end: -Infinity, models: new Set() };
  for (const s of spans.values()) {
    t.tokens += s.tokens;
    t.cost += s.cost;
    if (s.error) t.errors += 1;
    t.start = Math.min(t.start, s.start);
    t.end = Math.max(t.end, s.end);
    if (s.model) t.models.add(s.model);
  }
  return t;
}

// An axis end that only grows, in steps, so live additions rarely rescale the bars.
export function axisSpan(duration, current = 0) {
  if (duration <= current) return current;
  const d = Math.max(1, duration);
  const mag = 10 ** Math.floor(Math.log10(d));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * mag >= d) return m * mag;
  return 10 * mag;
}
