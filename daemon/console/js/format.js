// Number, time and duration formatting, one place for the whole console.
const nf = new Intl.NumberFormat(undefined);
const nf1 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export const num = (n) => (n === null || n === undefined || Number.isNaN(n) ? '–' : nf.format(n));
export const num1 = (n) => (n === null || n === undefined || Number.isNaN(n) ? '–' : nf1.format(n));
export const short = (n) => (n === null || n === undefined ? '–' : Math.abs(n) < 10000 ? nf.format(n) : compact.format(n));

// Money. Below $1 the digits that matter: at least two significant figures and up to
// three ($0.0149, $0.13, $0.000042), so a trace of a cent and a half does not read $0.01;
// from $1 on, cents with separators ($1.50, $1,204.00).
const usdCents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export function usd(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return '–';
  const v = Number(n);
  if (v === 0) return '$0';
  const sign = v < 0 ? '-' : '';
  const a = Math.abs(v);
  if (a >= 0.995) return `${sign}$${usdCents.format(a)}`;
  let text = a.toPrecision(3);
  if (text.includes('e')) text = a.toFixed(Math.min(20, 2 - Math.floor(Math.log10(a))));
  // Trailing zeros go, but never below cents: 0.130 → 0.13, 0.500 → 0.50.
  text = text.replace(/0+$/, '');
  const decimals = text.split('.')[1] || '';
  if (decimals.length < 2) text = a.toFixed(2);
  return `${sign}$${text}`;
}

// Tokens: a whole number with thousands separators ("12,408").
export const tokens = (n) => (n === null || n === undefined || Number.isNaN(Number(n)) ? '–' : nf.format(Math.round(Number(n))));

export const pct = (n) => (n === null || n === undefined || Number.isNaN(n) ? '–' : `${nf1.format(n * 100)}%`);

// Durations with their unit: 0.4 → "0.40 ms", 640 → "640 ms", 1234 → "1.23 s",
// 12800 → "12.8 s", 125000 → "2 min 5 s", 7260000 → "2 h 1 min".
export function ms(v) {
  if (v === null || v === undefined || Number.isNaN(Number(v))) return '–';
  v = Number(v);
  if (v === 0) return '0 ms';
  if (v < 1) return `${v.toFixed(2)} ms`;
  if (v < 1000) return `${Math.round(v)} ms`;
  if (v < 60000) return `${(v / 1000).toFixed(v < 10000 ? 2 : 1)} s`;
  const m = Math.floor(v / 60000);
  if (m < 60) return `${m} min ${Math.round((v % 60000) / 1000)} s`;
  if (m < 1440) return `${Math.floor(m / 60)} h ${m % 60} min`;
  return `${Math.floor(m / 1440)} d ${Math.floor((m % 1440) / 60)} h`;
}

// A value in the unit a metric is counted in (alert rules, thresholds).
export function metricValue(metric, v) {
  if (v === null || v === undefined || Number.isNaN(Number(v))) return '–';
  if (metric === 'cost_usd') return usd(v);
  if (metric === 'error_rate') return pct(v);
  if (/_ms$/.test(metric)) return ms(v);
  // Counts (events, errors, tokens) are named by the metric itself: "Errors ≥ 5".
  return num1(v);
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

// Local wall-clock time with milliseconds: events arrive faster than seconds.
// The date goes in front when it is not today.
export function clock(iso, now = new Date()) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const day = d.toDateString() === now.toDateString() ? '' : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} `;
  return `${day}${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

const ymd = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const hms = (d) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

// A 24-hour clock, with the date whenever it is not today ("14:02:09", "2026-11-27 09:15:00").
export function dateTime(iso, now = new Date()) {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return '';
  const sameDay = d.toDateString() === now.toDateString();
  return `${sameDay ? '' : `${ymd(d)} `}${hms(d)}`;
}

// Always with the date (when something was created: "2026-11-28 02:30").
export function dateFull(iso) {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return '';
  return `${ymd(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// A chart axis or table time for a bucket: the hour and minute, the date when not today.
export function bucketTime(t, now = new Date()) {
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return '';
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.toDateString() === now.toDateString() ? hm : `${ymd(d)} ${hm}`;
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

// A time axis label: "14:00" over a day or less, "11-27" at a midnight tick of a longer
// span and "11-27 06:00" elsewhere on it.
export function axisTime(t, spanMs) {
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return '';
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (spanMs <= 86400e3) return hm;
  const md = `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return d.getHours() === 0 && d.getMinutes() === 0 ? md : `${md} ${hm}`;
}

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
