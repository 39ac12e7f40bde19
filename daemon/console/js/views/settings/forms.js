// What the settings sections share: a one-field form, an action that shows the API's
// problem where it happened, a confirmation dialog that says what a deletion takes with
// it, and the card a 403 turns a section into.
import { num } from '../../format.js';
import { html, useEffect, useRef, useState } from '../../lib.js';
import { ErrorBox, Icon } from '../../ui.js';

// showLabel: the label in sight (for a field whose value is its only placeholder).
export function InlineForm({ id, label, placeholder, button, onSubmit, pattern, extra, value = '', primary, maxlength = 120, showLabel }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const text = new FormData(form).get('value').trim();
    if (!text) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(text, new FormData(form));
      if (!value) form.reset();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="inline-form" onSubmit=${submit}>
    <label class=${showLabel ? 'inline-label' : 'sr-only'} for=${id}>${label}</label>
    <input id=${id} name="value" placeholder=${placeholder} required maxlength=${maxlength} pattern=${pattern} autocomplete="off" value=${value} />
    ${extra}
    <button type="submit" class=${`btn${primary ? ' btn-primary' : ''}`} disabled=${busy}>${value ? null : html`<${Icon} name="plus" size=${14} />`}${button}</button>
    <${ErrorBox} error=${error} />
  </form>`;
}

// Runs an API call for a button; {run, busy, error}.
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clear: () => setError(null) };
}

// A modal <dialog> (focus kept inside, Esc cancels) naming what goes with the deletion.
// `confirm`: {title, body, action, onConfirm}; null closes it.
export function ConfirmDialog({ confirm, onClose }) {
  const ref = useRef(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    setError(null);
    if (confirm && !d.open) d.showModal();
    if (!confirm && d.open) d.close();
  }, [confirm]);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await confirm.onConfirm();
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<dialog ref=${ref} class="confirm" aria-labelledby="confirm-title" onClose=${onClose} onCancel=${onClose} data-testid="confirm">
    ${confirm ? html`<h2 id="confirm-title">${confirm.title}</h2>
      <div class="confirm-body">${confirm.body}</div>
      <${ErrorBox} error=${error} />
      <div class="confirm-actions">
        <button type="button" class="btn" onClick=${onClose} autofocus>Cancel</button>
        <button type="button" class="btn btn-danger-solid" onClick=${go} disabled=${busy}>${confirm.action}</button>
      </div>` : null}
  </dialog>`;
}

// A section the API refused (403): its detail, not a broken card.
export function Refused({ error, children }) {
  return html`<div class="refused" role="note"><${Icon} name="alert" size=${14} />
    <span>${error.describe ? error.describe() : error.message}${children ? html` ${children}` : null}</span></div>`;
}

export const plural = (n, one, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;
