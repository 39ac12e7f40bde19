// Small shared components: icons, empty and error states, a JSON viewer, a copy button,
// filters and selects, a fetch hook, short ids. Styling lives in console.css only.
import { html, useEffect, useMemo, useRef, useState } from './lib.js';

const ICONS = {
  live: 'M2 8h2l2-5 4 10 2-5h2',
  traces: 'M2 3h8M4 7h9M6 11h6M2 3v0M3 13h4',
  analytics: 'M2 13V9M6 13V5M10 13V7M14 13V3',
  settings: 'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6L13 13M3 13l1.4-1.4M11.6 4.4L13 3',
  pause: 'M5 3v10M11 3v10',
  play: 'M4 3l9 5-9 5z',
  download: 'M8 2v8M4.5 6.5L8 10l3.5-3.5M3 13h10',
  close: 'M4 4l8 8M12 4l-8 8',
  sun: 'M8 5a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM8 1v1.5M8 13.5V15M1 8h1.5M13.5 8H15M3 3l1 1M12 12l1 1M3 13l1-1M12 4l1-1',
  moon: 'M13 9.5A5.5 5.5 0 0 1 6.5 3a5.5 5.5 0 1 0 6.5 6.5z',
  auto: 'M8 2a6 6 0 1 0 0 12V2z',
  chevron: 'M6 4l4 4-4 4',
  external: 'M9 3h4v4M13 3L7 9M11 9v4H3V5h4',
  copy: 'M5 5h8v8H5zM3 11V3h8',
  plus: 'M8 3v10M3 8h10',
  logout: 'M10 3h3v10h-3M7 5L4 8l3 3M4 8h7',
  alert: 'M8 2l6.5 11.5h-13zM8 6.5v3M8 11.5v.5',
  delivery: 'M2 8h9M8 4.5L11.5 8 8 11.5M13.5 3v10',
  funnel: 'M2 3h12l-4.5 5.5V13l-3 1.5V8.5z',
  spend: 'M8 1.5v13M11 4.5H6.5a2 2 0 0 0 0 4h3a2 2 0 0 1 0 4H5',
  bell: 'M4 11V7a4 4 0 0 1 8 0v4l1.5 1.5h-11zM6.5 14h3',
  audit: 'M8 1.5l5.5 2v4c0 3.5-2.4 6-5.5 7-3.1-1-5.5-3.5-5.5-7v-4zM5.5 8l2 2 3-3.5',
  check: 'M3 8.5l3 3 7-7',
  menu: 'M2 4h12M2 8h12M2 12h12',
  sessions: 'M2 3h9v6H6l-3 2.5V9H2zM13 6h1v6h-1v2l-2.5-2H7',
  users: 'M6 7.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM1.5 14c0-2.5 2-4.5 4.5-4.5s4.5 2 4.5 4.5M11 2.8a2.3 2.3 0 0 1 0 4.4M12.5 9.8c1.3.6 2 2 2 4.2',
};

export function Icon({ name, size = 16, label }) {
  return html`<svg class="icon" width=${size} height=${size} viewBox="0 0 16 16" aria-hidden=${label ? undefined : 'true'}
    role=${label ? 'img' : undefined} aria-label=${label} focusable="false">
    <path d=${ICONS[name] || ''} fill=${name === 'play' ? 'currentColor' : 'none'} stroke="currentColor"
      stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round" /></svg>`;
}

export function Spinner({ label = 'Loading' }) {
  return html`<span class="spinner" role="status" aria-label=${label}></span>`;
}

export function Empty({ title, children }) {
  return html`<div class="empty"><p class="empty-title">${title}</p>${children ? html`<div class="empty-body">${children}</div>` : null}</div>`;
}

export function ErrorBox({ error }) {
  if (!error) return null;
  const text = typeof error === 'string' ? error : error.describe ? error.describe() : error.message;
  return html`<div class="error-box" role="alert"><${Icon} name="alert" /> ${text}</div>`;
}

// Pretty JSON with syntax colours, built as elements (no innerHTML).
export function JsonView({ value }) {
  const lines = useMemo(() => JSON.stringify(value, null, 2) || 'null', [value]);
  const parts = [];
  const re = /("(?:[^"\\]|\\.)*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
  let last = 0;
  let m;
  let i = 0;
  while ((m = re.exec(lines)) !== null) {
    if (m.index > last) parts.push(lines.slice(last, m.index));
    if (m[1] && m[2]) parts.push(html`<span key=${i++} class="j-key">${m[1]}</span>`, m[2]);
    else if (m[1]) parts.push(html`<span key=${i++} class="j-str">${m[1]}</span>`);
    else if (m[3]) parts.push(html`<span key=${i++} class="j-lit">${m[3]}</span>`);
    else parts.push(html`<span key=${i++} class="j-num">${m[4]}</span>`);
    last = re.lastIndex;
  }
  parts.push(lines.slice(last));
  return html`<pre class="json" tabindex="0">${parts}</pre>`;
}

export function CopyButton({ text, label = 'Copy' }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      setTimeout(() => setDone(false), 1500);
    } catch {
      setDone(false);
    }
  };
  return html`<button type="button" class="btn btn-sm" onClick=${copy}><${Icon} name="copy" size=${14} />${done ? 'Copied' : label}</button>`;
}

export function Select({ id, label, value, onChange, options, hideLabel }) {
  return html`<label class=${`select${hideLabel ? ' bare' : ''}`} for=${id}>
    <span class=${hideLabel ? 'sr-only' : 'select-label'}>${label}</span>
    <select id=${id} value=${value} onChange=${(e) => onChange(e.currentTarget.value)}>
      ${options.map((o) => html`<option value=${o.value} selected=${String(o.value) === String(value)}>${o.label}</option>`)}
    </select></label>`;
}

// A text filter that commits on Enter or blur (so typing does not reload on each key).
export function FilterInput({ id, label, value, onCommit, placeholder, width }) {
  const [text, setText] = useState(value || '');
  useEffect(() => setText(value || ''), [value]);
  const commit = () => {
    if ((text || '') !== (value || '')) onCommit(text.trim());
  };
  return html`<label class="filter" for=${id}><span class="filter-label">${label}</span>
    <input id=${id} type="search" value=${text} placeholder=${placeholder} spellcheck="false" autocomplete="off"
      class=${width ? `w-${width}` : ''}
      onInput=${(e) => setText(e.currentTarget.value)} onBlur=${commit}
      onKeyDown=${(e) => { if (e.key === 'Enter') commit(); if (e.key === 'Escape') { setText(''); onCommit(''); } }} /></label>`;
}

// The tag filter is written key=value (one field, one URL parameter `tag`); null when it is not.
export function parseTag(text) {
  const at = (text || '').indexOf('=');
  if (at <= 0 || at === text.length - 1) return null;
  return { key: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}

// Says why a tag filter that is not key=value is left out of the request.
export const TagHint = ({ text }) => (text && !parseTag(text)
  ? html`<${ErrorBox} error="The tag filter is written key=value, for example team=search: it is left out until then." />` : null);

// Fetches with `load` whenever deps change; {data, error, loading, reload}.
export function useAsync(load, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const seq = useRef(0);
  const run = () => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    Promise.resolve().then(load).then(
      (data) => n === seq.current && setState({ data, error: null, loading: false }),
      (error) => n === seq.current && setState({ data: null, error, loading: false }),
    );
  };
  useEffect(run, deps);
  return { ...state, reload: run };
}

// A short id for display: the first 8 characters, the whole in a title.
export function ShortId({ id, n = 8 }) {
  if (!id) return html`<span class="muted">–</span>`;
  return html`<span class="mono" title=${id}>${id.length > n + 1 ? `${id.slice(0, n)}…` : id}</span>`;
}
