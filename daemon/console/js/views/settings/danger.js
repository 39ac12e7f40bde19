// Deleting the organization: a danger zone for its admins only (nobody else sees the
// control; the API would refuse them). The dialog counts what goes with it
// (GET /organizations/{id}/contents), asks for the organization's slug, deletes, and lands
// in another organization of the user, or on creating one when there is none left.
import { api } from '../../api.js';
import { html, useEffect, useRef, useState } from '../../lib.js';
import { href } from '../../router.js';
import { useSession } from '../../session.js';
import { ErrorBox, Icon } from '../../ui.js';
import { plural } from './forms.js';

const EMPTY = '';

// "3 apps, 5 channels and 1,204 stored events" from the counts, leaving out zeros.
function listOf(parts) {
  const shown = parts.filter(([n]) => n > 0).map(([n, one, many]) => plural(n, one, many));
  if (!shown.length) return EMPTY;
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

function DeleteDialog({ org, contents: c, next, onClose }) {
  const ref = useRef(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  const matches = typed.trim() === org.slug;
  const confirm = async (e) => {
    e.preventDefault();
    if (!matches) return;
    setBusy(true);
    setError(null);
    try {
      await api.del(`/organizations/${org.id}`);
      // A new page load: the session (the organizations you belong to) is read again.
      window.location.assign(next ? href('/settings', { org: next.id, deleted: org.slug }) : href('/settings', { org: '', deleted: org.slug }));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const data = listOf([[c.apps, 'app'], [c.channels, 'channel'], [c.events, 'stored event'], [c.apiKeys, 'API key']]);
  const config = listOf([[c.environments, 'environment'], [c.webhookEndpoints, 'webhook endpoint'], [c.exportDestinations, 'export destination'],
    [c.moderationRules, 'moderation rule'], [c.spendPolicies, 'spend policy', 'spend policies'], [c.alertRules, 'alert rule'],
    [c.pendingInvitations, 'pending invitation']]);
  let lead;
  if (data === EMPTY && config === EMPTY) lead = 'It holds no app, channel, event or API key yet: this deletes its settings and its audit log.';
  else if (data === EMPTY) lead = html`This deletes <strong>${config}</strong> and its audit log (it holds no app, channel, event or API key).`;
  else lead = html`This deletes <strong>${data}</strong>${config === EMPTY ? '' : html`, with ${config}`}, and the organization's audit log.`;
  const others = c.members - 1;
  return html`<dialog ref=${ref} class="confirm" aria-labelledby="delete-org-title" onClose=${onClose} onCancel=${onClose} data-testid="delete-org">
    <form onSubmit=${confirm}>
      <h2 id="delete-org-title">Delete the organization "${org.name}"?</h2>
      <div class="confirm-body" data-testid="delete-org-contents">
        <p>${lead} Live streams and API keys of the organization stop at once. This cannot be undone.</p>
        <p>${others > 0 ? html`<strong>${plural(others, 'other member')}</strong> lose${others === 1 ? 's' : ''} access; their accounts and other organizations stay.`
          : 'You are its only member.'} ${next ? html`You will continue in <strong>${next.name}</strong>.` : 'It is your last organization: you can create a new one next.'}</p>
        <label for="delete-org-slug">Type <code class="mono">${org.slug}</code> to confirm</label>
        <input id="delete-org-slug" class="mono" autocomplete="off" spellcheck="false" value=${typed}
          onInput=${(e) => setTyped(e.currentTarget.value)} aria-describedby="delete-org-hint" />
        <p class="hint" id="delete-org-hint">The organization's slug, as shown above.</p>
      </div>
      <${ErrorBox} error=${error} />
      <div class="confirm-actions">
        <button type="button" class="btn" onClick=${onClose}>Cancel</button>
        <button type="submit" class="btn btn-danger-solid" disabled=${!matches || busy}>Delete this organization</button>
      </div>
    </form>
  </dialog>`;
}

export function DangerZone() {
  const session = useSession();
  const org = session.org;
  const [contents, setContents] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  if (!org || org.role !== 'admin') return null;
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      setContents(await api.get(`/organizations/${org.id}/contents`));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const next = session.orgs.find((o) => o.id !== org.id) || null;
  return html`<section class="card danger-zone" aria-labelledby="danger-title" data-testid="danger-zone">
    <div class="card-head"><h2 id="danger-title" class="card-title">Delete this organization</h2><span class="muted small">admins only</span></div>
    <p class="hint">Deletes <strong>${org.name}</strong> and everything in it, for every member: apps, channels, events, keys,
      webhooks, rules and its audit log. You are asked to confirm with its slug after seeing what it holds.</p>
    <div class="form-actions"><button type="button" class="btn btn-danger" onClick=${start} disabled=${busy}><${Icon} name="alert" size=${14} />Delete organization…</button></div>
    <${ErrorBox} error=${error} />
    ${contents ? html`<${DeleteDialog} org=${org} contents=${contents} next=${next} onClose=${() => setContents(null)} />` : null}
  </section>`;
}
