// Members and roles (change a role, remove a member, leave), and invitations (create,
// copy the code, which is shown once). Only admins manage either: for everyone else the
// API answers 403, and the section says so instead of offering what would be refused.
import { api } from '../../api.js';
import { dateTime } from '../../format.js';
import { html, useState } from '../../lib.js';
import { useSession } from '../../session.js';
import { CopyButton, ErrorBox, Icon, Spinner, useAsync } from '../../ui.js';
import { ConfirmDialog, Refused, useAction } from './forms.js';

const ROLES = [{ value: 'admin', label: 'Admin' }, { value: 'user', label: 'Member (user)' }];

function Members({ orgId, isAdmin, meId, onChanged }) {
  const members = useAsync(() => api.get(`/organizations/${orgId}/members`), [orgId]);
  const action = useAction();
  const [confirm, setConfirm] = useState(null);
  // Read back either way: a refused change (the last admin) must not stay on screen.
  const setRole = async (m, role) => {
    await action.run(() => api.patch(`/organizations/${orgId}/members/${m.userId}`, { role }));
    members.reload();
  };
  const remove = (m) => setConfirm({
    title: m.userId === meId ? 'Leave this organization?' : `Remove ${m.email}?`,
    body: html`<p>${m.userId === meId ? 'You lose access to its apps, channels, events and keys at once.'
      : html`<strong>${m.email}</strong> loses access to this organization at once: open sessions and live streams of this organization end. Their account and other organizations are untouched.`}</p>`,
    action: m.userId === meId ? 'Leave' : 'Remove member',
    onConfirm: async () => {
      await api.del(`/organizations/${orgId}/members/${m.userId}`);
      if (m.userId === meId) window.location.assign('/console/settings');
      else {
        members.reload();
        onChanged();
      }
    },
  });
  const rows = members.data || [];
  return html`<section class="card" aria-labelledby="members-title" data-testid="members">
    <div class="card-head"><h2 id="members-title" class="card-title">Members</h2>
      <span class="muted small">${rows.length ? `${rows.length} member${rows.length === 1 ? '' : 's'}` : ''}</span></div>
    ${isAdmin ? null : html`<p class="hint">Only admins change roles or remove members; you can leave.</p>`}
    <${ErrorBox} error=${members.error || action.error} />
    ${members.loading && !rows.length ? html`<${Spinner} />` : html`<table class="table dense"><caption class="sr-only">Members</caption>
      <thead><tr><th scope="col">Member</th><th scope="col">Username</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
      <tbody>${rows.map((m) => html`<tr key=${m.userId} data-user-id=${m.userId}>
        <td>${m.email}${m.userId === meId ? html` <span class="badge badge-wait">you</span>` : null}</td>
        <td class="mono">${m.username}</td>
        <td>${isAdmin ? html`<label class="sr-only" for=${`role-${m.userId}`}>Role of ${m.email}</label>
          <select id=${`role-${m.userId}`} value=${m.role} disabled=${action.busy} onChange=${(e) => setRole(m, e.currentTarget.value)}>
            ${ROLES.map((r) => html`<option value=${r.value} selected=${r.value === m.role}>${r.label}</option>`)}</select>`
          : html`${m.role === 'admin' ? 'Admin' : 'Member (user)'}`}</td>
        <td>${dateTime(m.joinedAt)}</td>
        <td class="num">${isAdmin || m.userId === meId ? html`<button type="button" class="btn btn-sm btn-danger" onClick=${() => remove(m)}>${m.userId === meId ? 'Leave' : 'Remove'}</button>` : null}</td>
      </tr>`)}</tbody></table>`}
    <${ConfirmDialog} confirm=${confirm} onClose=${() => setConfirm(null)} />
  </section>`;
}

function Invitations({ orgId, onChanged }) {
  const list = useAsync(() => api.get(`/organizations/${orgId}/invitations`), [orgId]);
  const [fresh, setFresh] = useState(null);
  const action = useAction();
  const create = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const inv = await action.run(() => api.post(`/organizations/${orgId}/invitations`, { invitedEmail: f.get('email').trim(), desired_role: f.get('role') }));
    if (inv) {
      setFresh(inv);
      form.reset();
      list.reload();
      onChanged();
    }
  };
  if (list.error && list.error.status === 403) {
    return html`<section class="card" aria-labelledby="inv-title" data-testid="invitations">
      <h2 id="inv-title" class="card-title">Invitations</h2><${Refused} error=${list.error}>Ask an admin to invite someone.</${Refused}></section>`;
  }
  const pending = (list.data || []);
  const accept = fresh ? `curl -s -X POST ${window.location.origin}/invitations/${fresh.code}/accept -H "authorization: Bearer $TOKEN"` : '';
  return html`<section class="card" aria-labelledby="inv-title" data-testid="invitations">
    <h2 id="inv-title" class="card-title">Invitations</h2>
    <p class="hint">An invitation is accepted by a signed-in user with the invited e-mail address. Its code is shown once; each pending invitation takes a seat.</p>
    ${fresh ? html`<div class="secret" role="status" data-testid="new-invitation">
      <p><strong>Send this code to ${fresh.invitedEmail}.</strong> It will not be shown again; it expires ${dateTime(fresh.expiresAt)}.</p>
      <div class="secret-row"><code class="secret-value">${fresh.code}</code><${CopyButton} text=${fresh.code} label="Copy code" /></div>
      <p class="small">They accept it with:</p>
      <div class="secret-row"><pre class="code">${accept}</pre><${CopyButton} text=${accept} /></div>
      <button type="button" class="btn btn-sm" onClick=${() => setFresh(null)}>Done</button>
    </div>` : null}
    <form class="inline-form" onSubmit=${create}>
      <label class="sr-only" for="inv-email">E-mail to invite</label>
      <input id="inv-email" name="email" type="email" placeholder="name@example.com" required maxlength="254" autocomplete="off" />
      <label class="sr-only" for="inv-role">Role</label>
      <select id="inv-role" name="role">${ROLES.map((r) => html`<option value=${r.value} selected=${r.value === 'user'}>${r.label}</option>`)}</select>
      <button type="submit" class="btn btn-primary" disabled=${action.busy}><${Icon} name="plus" size=${14} />Invite</button>
    </form>
    <${ErrorBox} error=${action.error || list.error} />
    ${pending.length ? html`<table class="table dense"><caption class="sr-only">Invitations</caption>
      <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Code</th><th scope="col">Status</th><th scope="col">Expires</th></tr></thead>
      <tbody>${pending.map((i) => html`<tr key=${i.id}><td>${i.invitedEmail}</td><td>${i.invite_role}</td><td class="mono">${i.code}</td>
        <td><span class=${`badge ${i.status === 'pending' ? 'badge-warn' : i.status === 'accepted' ? 'badge-ok' : 'badge-wait'}`}>${i.status}</span></td>
        <td>${dateTime(i.expiresAt)}</td></tr>`)}</tbody></table>` : list.loading ? html`<${Spinner} />` : html`<p class="muted">No invitation yet.</p>`}
  </section>`;
}

export function MembersSection({ onChanged }) {
  const session = useSession();
  const isAdmin = session.org.role === 'admin';
  const meId = session.user.userId;
  return html`<${Members} orgId=${session.org.id} isAdmin=${isAdmin} meId=${meId} onChanged=${onChanged} />
    <${Invitations} orgId=${session.org.id} onChanged=${onChanged} />`;
}
