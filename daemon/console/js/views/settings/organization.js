// The organization: the ones you belong to (switch, create), and the current one's name,
// plan, retention and this month's usage against the plan's event quota and seats.
import { api } from '../../api.js';
import { num, pct } from '../../format.js';
import { html } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { ErrorBox, Spinner, useAsync } from '../../ui.js';
import { InlineForm } from './forms.js';

function Meter({ label, used, limit, detail, id }) {
  const share = limit > 0 ? used / limit : 0;
  const level = share >= 1 ? 'full' : share >= 0.8 ? 'high' : 'ok';
  return html`<div class="meter" data-testid=${id}>
    <div class="meter-head"><span class="meter-label" id=${`${id}-label`}>${label}</span>
      <span class="meter-value"><strong>${num(used)}</strong> of ${num(limit)} <span class="muted">(${share > 0 && share < 0.001 ? '<0.1%' : pct(Math.min(share, 9.99))})</span></span></div>
    <div class=${`meter-bar meter-${level}`} role="meter" aria-labelledby=${`${id}-label`} aria-valuemin="0" aria-valuemax=${limit}
      aria-valuenow=${Math.min(used, limit)} aria-valuetext=${`${num(used)} of ${num(limit)}`}>
      <span class="meter-fill" style=${{ width: `${Math.min(100, share * 100).toFixed(1)}%` }}></span></div>
    ${detail ? html`<p class="hint">${detail}</p>` : null}
  </div>`;
}

function monthEnd(period) {
  const [y, m] = period.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

function CurrentOrganization({ org }) {
  const session = useSession();
  const info = useAsync(() => api.get(`/organizations/${org.id}`), [org.id]);
  const rename = async (name) => {
    await api.patch(`/organizations/${org.id}`, { name });
    // The switcher and title show the name: the session is read again.
    window.location.reload();
  };
  if (info.error) return html`<section class="card" aria-labelledby="org-title"><h2 id="org-title" class="card-title">This organization</h2><${ErrorBox} error=${info.error} /></section>`;
  if (!info.data) return html`<section class="card"><${Spinner} /></section>`;
  const o = info.data;
  const u = o.usage || { events: 0, members: 0, pendingInvitations: 0, period: '' };
  return html`<section class="card" aria-labelledby="org-title" data-testid="org-card">
    <div class="card-head"><h2 id="org-title" class="card-title">${o.name}</h2>
      <span class="muted small">organization ${o.id} · <span class="mono">${o.slug}</span> · your role: ${session.org.role}</span></div>
    <dl class="facts facts-row">
      <dt>Plan</dt><dd><span class="badge badge-wait">${o.plan}</span> ${o.subscriptionStatus}</dd>
      <dt>Retention</dt><dd>${num(o.retentionDays)} days</dd>
    </dl>
    <div class="meters">
      <${Meter} id="usage-events" label=${`Events this month (${u.period} UTC)`} used=${u.events} limit=${o.eventsQuotaMonthly}
        detail=${`Publishes past the quota get 429 until ${u.period ? monthEnd(u.period) : 'next month'}.`} />
      <${Meter} id="usage-seats" label="Seats" used=${u.members + u.pendingInvitations} limit=${o.seatLimit}
        detail=${`${num(u.members)} member${u.members === 1 ? '' : 's'} and ${num(u.pendingInvitations)} pending invitation${u.pendingInvitations === 1 ? '' : 's'}; each takes a seat.`} />
    </div>
    <${InlineForm} id="org-name" label="Organization name" placeholder="Organization name" button="Rename" value=${o.name} onSubmit=${rename} showLabel />
  </section>`;
}

function Organizations() {
  const session = useSession();
  const create = async (name, form) => {
    const slug = (form.get('slug') || name).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63) || 'org';
    const org = await api.post('/organizations', { name, slug });
    // The answer carries tokens for the new organization; the console keeps its own
    // session and names the organization per request instead, so they are dropped.
    window.location.assign(href('/settings', { org: org.id }));
  };
  return html`<section class="card" aria-labelledby="orgs-title">
    <h2 id="orgs-title" class="card-title">Your organizations</h2>
    ${session.orgs.length ? null : html`<p class="hint" data-testid="no-organization">You belong to no organization now. Create one to publish events, or accept an invitation to join one.</p>`}
    ${session.orgs.length ? html`<table class="table dense"><caption class="sr-only">Your organizations</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Your role</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
      <tbody>${session.orgs.map((o) => html`<tr class=${session.org && o.id === session.org.id ? 'selected' : ''}>
        <td>${o.name}</td><td class="mono">${o.slug}</td><td>${o.role}</td>
        <td class="num">${session.org && o.id === session.org.id ? html`<span class="badge badge-ok">Current</span>`
          : html`<button type="button" class="btn btn-sm" onClick=${() => navigate(href('/settings', { org: o.id }))}>Switch</button>`}</td></tr>`)}</tbody>
    </table>` : null}
    <${InlineForm} id="new-org" label="New organization name" placeholder="New organization name" button="Create organization"
      onSubmit=${create} extra=${html`<label class="sr-only" for="new-org-slug">Slug</label><input id="new-org-slug" name="slug" placeholder="slug (optional)" class="w-s" pattern="[a-z0-9-]*" />`} />
  </section>`;
}

export function OrganizationSection() {
  const session = useSession();
  return html`${session.org ? html`<${CurrentOrganization} org=${session.org} />` : null}<${Organizations} />`;
}
