// What the management screens (delivery, moderation, spend, alerts) share: an action
// runner that shows the API's problem detail, polling while the tab is visible, badges,
// a facts list, form fields for lists and JSON, and a delete that says what it deletes.
import { dateTime } from './format.js';
import { html, useEffect, useLayoutEffect, useRef, useState } from './lib.js';
import { CopyButton, ErrorBox, Icon } from './ui.js';

// {busy, error, notice, run(fn, doneText)}: one request at a time, its error (a
// problem+json ApiError) or a short notice of what happened.
export function useAction() {
  const [state, setState] = useState({ busy: false, error: null, notice: null });
  const run = async (fn, doneText) => {
    setState({ busy: true, error: null, notice: null });
    try {
      const out = await fn();
      setState({ busy: false, error: null, notice: doneText || null });
      return out;
    } catch (error) {
      setState({ busy: false, error, notice: null });
      return undefined;
    }
  };
  const clear = () => setState({ busy: false, error: null, notice: null });
  return { ...state, run, clear };
}

// Calls `fn` every `ms` while the page is visible (a hidden tab asks nothing).
export function usePolling(fn, ms, deps = []) {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    const timer = setInterval(() => {
      if (!document.hidden) saved.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, ...deps]);
}

export function Badge({ kind, children, title }) {
  return html`<span class=${`badge badge-${kind}`} title=${title}><span class="dot" aria-hidden="true"></span>${children}</span>`;
}

export function ActionResult({ action }) {
  return html`<${ErrorBox} error=${action.error} />${action.notice ? html`<p class="notice" role="status">${action.notice}</p>` : null}`;
}

// [[label, value], ...] as a definition list; rows whose value is undefined are left out.
export function Facts({ rows }) {
  return html`<dl class="facts">${rows.filter((r) => r[1] !== undefined).map(([k, v]) => html`<dt>${k}</dt><dd>${v === null || v === '' ? html`<span class="muted">–</span>` : v}</dd>`)}</dl>`;
}

export const when = (iso) => (iso ? html`<span title=${iso}>${dateTime(iso)}</span>` : html`<span class="muted">–</span>`);

// "a, b , c" → ['a', 'b', 'c']; empty → [].
export const splitList = (text) => String(text || '').split(',').map((s) => s.trim()).filter(Boolean);

// A labelled control in a form grid: <FormField id label hint>input</FormField>.
export function FormField({ id, label, hint, children, wide }) {
  return html`<div class=${`ff${wide ? ' ff-wide' : ''}`}><label for=${id}>${label}</label>${children}${hint ? html`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : null}</div>`;
}

// Reads a form's named inputs: text trimmed (empty → undefined), checkboxes as booleans.
export function formValues(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    if (el.type === 'checkbox') out[el.name] = el.checked;
    else {
      const v = String(el.value).trim();
      out[el.name] = v === '' ? undefined : v;
    }
  }
  return out;
}

// A delete button that asks first, naming what goes and what stays.
export function DeleteButton({ what, consequence, onDelete, label = 'Delete' }) {
  const click = () => {
    if (window.confirm(`Delete ${what}? ${consequence}`)) onDelete();
  };
  return html`<button type="button" class="btn btn-sm btn-danger" onClick=${click} aria-label=${`${label} ${what}`}>${label}</button>`;
}

// A card with a heading, for a create or edit form; Escape or Cancel closes it.
export function FormCard({ title, id, onSubmit, onCancel, submitLabel, action, children }) {
  const ref = useRef(null);
  // Opening a form puts the keyboard in its first field, in the same task that shows it
  // (a layout effect): a key pressed as soon as the form appears already lands there.
  useLayoutEffect(() => {
    const first = ref.current && ref.current.querySelector('input:not([disabled]), select, textarea');
    if (first) first.focus();
  }, []);
  const submit = (e) => {
    e.preventDefault();
    onSubmit(e.currentTarget);
  };
  return html`<form class="card form-card" id=${id} ref=${ref} aria-labelledby=${`${id}-title`} onSubmit=${submit}
    onKeyDown=${(e) => { if (e.key === 'Escape' && onCancel) onCancel(); }}>
    <h2 class="card-title" id=${`${id}-title`}>${title}</h2>
    <div class="form-grid">${children}</div>
    <${ErrorBox} error=${action.error} />
    <div class="form-actions">
      <button type="submit" class="btn btn-primary" disabled=${action.busy}><${Icon} name="plus" size=${14} />${submitLabel}</button>
      ${onCancel ? html`<button type="button" class="btn" onClick=${onCancel}>Cancel</button>` : null}
    </div>
  </form>`;
}

// A secret shown once, right after it was made.
export function OnceSecret({ title, value, children, onDone }) {
  return html`<div class="secret" role="status" data-testid="once-secret">
    <p><strong>${title}</strong> It will not be shown again.</p>
    <div class="secret-row"><code class="secret-value">${value}</code><${CopyButton} text=${value} /></div>
    ${children}
    <button type="button" class="btn btn-sm" onClick=${onDone}>Done</button>
  </div>`;
}

// A bar whose width is set through the CSSOM (the CSP allows no inline style attribute).
export function Bar({ ratio, className = 'hbar' }) {
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current) ref.current.style.width = `${Math.max(0, Math.min(1, ratio)) * 100}%`;
  }, [ratio]);
  return html`<span class=${className} ref=${ref}></span>`;
}
