// Number, time and duration formatting, one place for the whole console.
const nf = new Intl.NumberFormat(undefined);
const nf1 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export const num = (n) => (n === null || n === undefined || Number.isNaN(n) ? '–' : nf.format(n));
export const num1 = (n) => (n === null || n === undefined || Number.isNaN(n) ? '–' : nf1.format(n));
export const short = (n) => (n === null || n === undefined ? '–' : Math.abs(n) < 10000 ? nf.format(n) : compact.format(n));

export function usd(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return '–';
  if (n === 0) return '$0';
  if (Math.abs(n) < 0.01) return `$${n.toPrecision(2)}`;
  return `$${n.toFixed(Math.abs(n) < 100 ? 2 : 0)}`;
}

export const pct = (n) => (n === null || n === undefined || Number.isNaN(n) ? '–' : `${nf1.format(n * 100)}%`);

// 0.4 → "0.4 ms", 1234 → "1.23 s", 125000 → "2m 5s"
export function ms(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (v === 0) return '0 ms';
  if (v < 1) return `${v.toFixed(2)} ms`;
  if (v < 1000) return `${Math.round(v)} ms`;
  if (v < 60000) return `${(v / 1000).toFixed(v < 10000 ? 2 : 1)} s`;
  const m = Math.floor(v / 60000);
  if (m < 60) return `${m}m ${Math.round((v % 60000) / 1000)}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

// Local wall-clock time with milliseconds: events arrive faster than seconds.
export function clock(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function dateTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const today = new Date();
  const sameDay = d.toDateString() === today.toDateString();
  const day = sameDay ? '' : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} `;
  return `${day}${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function ago(iso, now = Date.now()) {
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

// When an event happened: the publisher's time when sent, else when it was received.
export const when = (e) => e.occurredAt || e.timestamp;
export const whenMs = (e) => new Date(when(e)).getTime();

// Time windows offered by the traces and analytics screens.
export const RANGES = [
  { key: '15m', label: 'Last 15 minutes', ms: 15 * 60e3, interval: 'minute' },
  { key: '1h', label: 'Last hour', ms: 3600e3, interval: 'minute' },
  { key: '6h', label: 'Last 6 hours', ms: 6 * 3600e3, interval: 'hour' },
  { key: '24h', label: 'Last 24 hours', ms: 24 * 3600e3, interval: 'hour' },
  { key: '7d', label: 'Last 7 days', ms: 7 * 86400e3, interval: 'day' },
  { key: '30d', label: 'Last 30 days', ms: 30 * 86400e3, interval: 'day' },
];
export const rangeOf = (key) => RANGES.find((r) => r.key === key) || RANGES[3];
export function windowOf(key, now = Date.now()) {
  const r = rangeOf(key);
  return { since: new Date(now - r.ms).toISOString(), until: new Date(now).toISOString(), interval: r.interval };
}

// Telemetry fields as the daemon reads them from metadata (first match wins).
export function usage(e) {
  const m = e.metadata || {};
  const pick = (...keys) => {
    for (const k of keys) {
      const v = k.split('.').reduce((o, p) => (o && typeof o === 'object' ? o[p] : undefined), m);
      if (v !== undefined && v !== null && v !== '') return v;
      if (m[k] !== undefined && m[k] !== null) return m[k];
    }
    return undefined;
  };
  const input = Number(pick('usage.input_tokens', 'gen_ai.usage.input_tokens') || 0);
  const output = Number(pick('usage.output_tokens', 'gen_ai.usage.output_tokens') || 0);
  const cost = Number(pick('cost_usd', 'gen_ai.usage.cost') || 0);
  const duration = pick('duration_ms');
  return {
    model: pick('model', 'gen_ai.request.model', 'gen_ai.response.model'),
    tokens: input + output, input, output, cost,
    durationMs: duration === undefined ? undefined : Number(duration),
    status: pick('status'),
  };
}
