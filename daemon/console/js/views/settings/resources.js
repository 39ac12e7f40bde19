// Apps and their channels (create, rename an app, delete either), and environments
// (create, rename, delete). A deletion is confirmed in a dialog that says what goes with
// it, with the number of stored events counted first.
import { api } from '../../api.js';
import { dateTime } from '../../format.js';
import { html, useState } from '../../lib.js';
import { href, Link } from '../../router.js';
import { ErrorBox, Icon, Spinner, useAsync } from '../../ui.js';
import { ConfirmDialog, InlineForm, plural } from './forms.js';

// Stored events of a channel (the list's total), or null when it cannot be read.
const eventsIn = (channelId) => api.get(`/event/${channelId}/list`, { limit: 1 }).then((r) => r.meta.total, () => null);
const eventsText = (n) => (n === null ? 'all their events' : `${plural(n, 'stored event')}`);

function Renamable({ id, name, label, onRename, children }) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return html`<${InlineForm} id=${id} label=${label} placeholder=${label} button="Save" value=${name} primary
      onSubmit=${async (v) => { await onRename(v); setEditing(false); }}
      extra=${html`<button type="button" class="btn" onClick=${() => setEditing(false)}>Cancel</button>`} />`;
  }
  return html`${children}<button type="button" class="btn btn-sm btn-ghost" onClick=${() => setEditing(true)} aria-label=${`Rename ${name}`}>Rename</button>`;
}

// An app: its head (name, rename, add a channel, delete) and its channels. The form for a
// new channel is open while the app has none (nothing can be published without one).
function AppItem({ a, onRename, onCreateChannel, onDeleteApp, onDeleteChannel }) {
  const chans = a.channels || [];
  const [adding, setAdding] = useState(false);
  const open = adding || chans.length === 0;
  return html`<li class="app" data-app-id=${a.id}>
    <div class="app-head">
      <${Renamable} id=${`rename-app-${a.id}`} name=${a.name} label=${`New name of ${a.name}`} onRename=${onRename}>
        <strong>${a.name}</strong><span class="muted small">app ${a.id} · created ${dateTime(a.createdAt)}</span></${Renamable}>
      <span class="push-right btn-row">
        ${open ? null : html`<button type="button" class="btn btn-sm" onClick=${() => setAdding(true)} aria-label=${`Add a channel to ${a.name}`}><${Icon} name="plus" size=${12} />Channel</button>`}
        <button type="button" class="btn btn-sm btn-danger" onClick=${onDeleteApp} aria-label=${`Delete app ${a.name}`}>Delete</button>
      </span>
    </div>
    ${chans.length ? html`<ul class="channels">${chans.map((c) => html`<li key=${c.id} data-channel-id=${c.id}>
      <span class="mono">#${c.id}</span> ${c.name}
      <${Link} to=${href('/live', { channel: c.id })} class="small">Live tail</${Link}>
      <button type="button" class="btn btn-sm btn-ghost btn-danger" onClick=${() => onDeleteChannel(c)} aria-label=${`Delete channel ${c.name} of ${a.name}`}>Delete</button></li>`)}</ul>`
      : html`<p class="muted small app-empty">No channel yet: add one to publish into.</p>`}
    ${open ? html`<${InlineForm} id=${`new-channel-${a.id}`} label=${`New channel in ${a.name}`} placeholder="New channel name" button="Add channel"
      onSubmit=${async (v) => { await onCreateChannel(v); setAdding(false); }}
      extra=${chans.length ? html`<button type="button" class="btn" onClick=${() => setAdding(false)}>Cancel</button>` : null} />` : null}
  </li>`;
}

export function AppsSection({ data, reload }) {
  const [confirm, setConfirm] = useState(null);
  const [error, setError] = useState(null);
  const createApp = async (name) => {
    await api.post('/apps', { name });
    reload();
  };
  const createChannel = (appId) => async (name) => {
    await api.post(`/apps/${appId}/channels`, { name });
    reload();
  };
  const renameApp = (a) => async (name) => {
    await api.patch(`/apps/${a.id}`, { name });
    reload();
  };
  const deleteApp = async (a) => {
    setError(null);
    const counts = await Promise.all((a.channels || []).map((c) => eventsIn(c.id)));
    const total = counts.some((n) => n === null) ? null : counts.reduce((s, n) => s + n, 0);
    const chans = a.channels || [];
    setConfirm({
      title: `Delete the app "${a.name}"?`,
      body: html`<p>This deletes the app <strong>${a.name}</strong>${chans.length
        ? html`, its ${plural(chans.length, 'channel')} (${chans.map((c, i) => html`${i ? ', ' : ''}<strong>${c.name}</strong>`)}) and ${eventsText(total)} in them`
        : ' (it has no channel)'}. Live streams of its channels end at once. This cannot be undone.</p>`,
      action: 'Delete app',
      onConfirm: async () => {
        await api.del(`/apps/${a.id}`);
        reload();
      },
    });
  };
  const deleteChannel = async (a, c) => {
    setError(null);
    const n = await eventsIn(c.id);
    setConfirm({
      title: `Delete the channel "${c.name}"?`,
      body: html`<p>This deletes the channel <strong>${a.name} / ${c.name}</strong> (#${c.id}) and ${eventsText(n)} in it; its live streams end at once.
        Publishing to it fails from then on. This cannot be undone.</p>`,
      action: 'Delete channel',
      onConfirm: async () => {
        await api.del(`/channel/${c.id}`);
        reload();
      },
    });
  };
  return html`<section class="card" aria-labelledby="apps-title" data-testid="apps">
    <h2 id="apps-title" class="card-title">Apps and channels</h2>
    <p class="hint">Events are published into a channel; a channel belongs to an app.</p>
    <${ErrorBox} error=${error} />
    ${data.apps.length === 0 ? html`<p class="muted">No app yet. Create one below, then add a channel to publish into.</p>` : null}
    <ul class="apps">
      ${data.apps.map((a) => html`<${AppItem} key=${a.id} a=${a} onRename=${renameApp(a)} onCreateChannel=${createChannel(a.id)}
        onDeleteApp=${() => deleteApp(a).catch(setError)} onDeleteChannel=${(c) => deleteChannel(a, c).catch(setError)} />`)}
    </ul>
    <${InlineForm} id="new-app" label="New app name" placeholder="New app name" button="Create app" onSubmit=${createApp} />
    <${ConfirmDialog} confirm=${confirm} onClose=${() => setConfirm(null)} />
  </section>`;
}

export function EnvironmentsSection() {
  const envs = useAsync(() => api.get('/environments'), []);
  const [confirm, setConfirm] = useState(null);
  const create = async (name, form) => {
    const slug = (form.get('slug') || '').trim();
    await api.post('/environments', slug ? { name, slug } : { name });
    envs.reload();
  };
  const rename = (e) => async (name) => {
    await api.patch(`/environments/${e.id}`, { name });
    envs.reload();
  };
  const remove = (e) => setConfirm({
    title: `Delete the environment "${e.name}"?`,
    body: html`<p>This deletes the environment <strong>${e.name}</strong> (slug <code>${e.slug}</code>). Events keep their
      <code>metadata.environment</code> value; analytics, alert and export filters that name this environment no longer find it.</p>`,
    action: 'Delete environment',
    onConfirm: async () => {
      await api.del(`/environments/${e.id}`);
      envs.reload();
    },
  });
  const rows = envs.data?.data || [];
  return html`<section class="card" aria-labelledby="envs-title" data-testid="environments">
    <h2 id="envs-title" class="card-title">Environments</h2>
    <p class="hint">Events name their environment in <code>metadata.environment</code> (its slug); analytics and exports filter by it.</p>
    <${ErrorBox} error=${envs.error} />
    ${rows.length ? html`<table class="table dense"><caption class="sr-only">Environments</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${rows.map((e) => html`<tr key=${e.id} data-environment-id=${e.id}>
        <td><${Renamable} id=${`rename-env-${e.id}`} name=${e.name} label=${`New name of ${e.name}`} onRename=${rename(e)}>${e.name} </${Renamable}></td>
        <td class="mono">${e.slug}</td><td>${dateTime(e.createdAt)}</td>
        <td class="num"><button type="button" class="btn btn-sm btn-danger" onClick=${() => remove(e)} aria-label=${`Delete environment ${e.name}`}>Delete</button></td></tr>`)}</tbody>
    </table>` : envs.loading ? html`<${Spinner} />` : html`<p class="muted">No environment yet, e.g. production and staging.</p>`}
    <${InlineForm} id="new-env" label="New environment name" placeholder="New environment name, e.g. Production" button="Add environment" onSubmit=${create}
      extra=${html`<label class="sr-only" for="new-env-slug">Slug</label><input id="new-env-slug" name="slug" placeholder="slug (optional)" class="w-s" pattern="[a-z0-9-]*" maxlength="64" />`} />
    <${ConfirmDialog} confirm=${confirm} onClose=${() => setConfirm(null)} />
  </section>`;
}
