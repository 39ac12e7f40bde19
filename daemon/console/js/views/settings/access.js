// Access requests (instance administrator): with `auth.registration=approval` new
// accounts wait here, disabled, until approved; a denied account stays disabled.
import { api } from '../../api.js';
import { dateTime } from '../../format.js';
import { html } from '../../lib.js';
import { setQuery } from '../../router.js';
import { ErrorBox, Select, Spinner, useAsync } from '../../ui.js';
import { Refused, useAction } from './forms.js';

const FILTERS = [{ value: 'pending', label: 'Pending' }, { value: 'approved', label: 'Approved' }, { value: 'rejected', label: 'Denied' }, { value: 'all', label: 'All' }];

export function AccessRequestsSection({ status = 'pending' }) {
  const list = useAsync(() => api.get('/admin/access-requests', { status: status === 'all' ? undefined : status }), [status]);
  const action = useAction();
  const decide = (r, decision) => action.run(async () => {
    await api.post(`/admin/access-requests/${r.requestId}/status`, { status: decision });
    list.reload();
  });
  const rows = list.data?.data || [];
  return html`<section class="card" aria-labelledby="access-title" data-testid="access-requests">
    <div class="card-head"><h2 id="access-title" class="card-title">Access requests</h2>
      <${Select} id="access-status" label="Show" hideLabel value=${status} options=${FILTERS} onChange=${(v) => setQuery({ requests: v === 'pending' ? '' : v })} /></div>
    <p class="hint">For the instance administrator. With <code>auth.registration=approval</code>, new accounts cannot sign in until approved here.</p>
    ${list.error && list.error.status === 403 ? html`<${Refused} error=${list.error} />` : html`
      <${ErrorBox} error=${list.error || action.error} />
      ${rows.length ? html`<table class="table dense"><caption class="sr-only">Access requests</caption>
        <thead><tr><th scope="col">E-mail</th><th scope="col">Username</th><th scope="col">Requested</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Decision</span></th></tr></thead>
        <tbody>${rows.map((r) => html`<tr key=${r.requestId} data-request-id=${r.requestId}>
          <td>${r.email}</td><td class="mono">${r.username}</td><td>${dateTime(r.createdAt)}</td>
          <td><span class=${`badge ${r.status === 'approved' ? 'badge-ok' : r.status === 'rejected' ? 'badge-err' : 'badge-warn'}`}>${r.status === 'rejected' ? 'denied' : r.status}</span>
            ${r.decidedAt ? html` <span class="muted small">${dateTime(r.decidedAt)}</span>` : null}</td>
          <td class="num">${r.status === 'pending' ? html`<span class="btn-row">
            <button type="button" class="btn btn-sm btn-primary" disabled=${action.busy} onClick=${() => decide(r, 'approved')} aria-label=${`Approve ${r.email}`}>Approve</button>
            <button type="button" class="btn btn-sm btn-danger" disabled=${action.busy} onClick=${() => decide(r, 'rejected')} aria-label=${`Deny ${r.email}`}>Deny</button></span>` : null}</td>
        </tr>`)}</tbody></table>` : list.loading ? html`<${Spinner} />`
        : html`<p class="muted">No ${status === 'all' ? '' : `${FILTERS.find((f) => f.value === status).label.toLowerCase()} `}access request.</p>`}`}
  </section>`;
}
