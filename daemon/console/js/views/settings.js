// Enough settings to start from nothing: the organizations you belong to (switch, or
// create one), apps and their channels (create), and API keys (create, shown once,
// with a ready-to-run publish command). The full management screens come later.
import { api } from '../api.js';
import { loadChannels } from '../channels.js';
import { dateTime } from '../format.js';
import { html, useState } from '../lib.js';
import { href, Link, navigate } from '../router.js';
import { useSession } from '../session.js';
import { CopyButton, ErrorBox, Icon, Spinner, useAsync } from '../ui.js';

function InlineForm({ id, label, placeholder, button, onSubmit, pattern, extra }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const value = new FormData(form).get('value').trim();
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(value, new FormData(form));
      form.reset();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="inline-form" onSubmit=${submit}>
    <label class="sr-only" for=${id}>${label}</label>
    <input id=${id} name="value" placeholder=${placeholder} required maxlength="120" pattern=${pattern} autocomplete="off" />
    ${extra}
    <button type="submit" class="btn" disabled=${busy}><${Icon} name="plus" size=${14} />${button}</button>
    <${ErrorBox} error=${error} />
  </form>`;
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
    <h2 id="orgs-title" class="card-title">Organizations</h2>
    <table class="table dense"><caption class="sr-only">Your organizations</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Your role</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
      <tbody>${session.orgs.map((o) => html`<tr class=${session.org && o.id === session.org.id ? 'selected' : ''}>
        <td>${o.name}</td><td class="mono">${o.slug}</td><td>${o.role}</td>
        <td class="num">${session.org && o.id === session.org.id ? html`<span class="badge badge-ok">Current</span>`
          : html`<button type="button" class="btn btn-sm" onClick=${() => navigate(href('/settings', { org: o.id }))}>Switch</button>`}</td></tr>`)}</tbody>
    </table>
    <${InlineForm} id="new-org" label="New organization name" placeholder="New organization name" button="Create organization"
      onSubmit=${create} extra=${html`<label class="sr-only" for="new-org-slug">Slug</label><input id="new-org-slug" name="slug" placeholder="slug (optional)" class="w-s" pattern="[a-z0-9-]*" />`} />
  </section>`;
}

function AppsAndChannels({ data, reload }) {
  const createApp = async (name) => {
    await api.post('/apps', { name });
    reload();
  };
  const createChannel = (appId) => async (name) => {
    await api.post(`/apps/${appId}/channels`, { name });
    reload();
  };
  return html`<section class="card" aria-labelledby="apps-title">
    <h2 id="apps-title" class="card-title">Apps and channels</h2>
    <p class="hint">Events are published into a channel; a channel belongs to an app.</p>
    ${data.apps.length === 0 ? html`<p class="muted">No app yet.</p>` : null}
    <ul class="apps">
      ${data.apps.map((a) => html`<li class="app" key=${a.id}>
        <div class="app-head"><strong>${a.name}</strong><span class="muted small">app ${a.id} · created ${dateTime(a.createdAt)}</span></div>
        <ul class="channels">${(a.channels || []).map((c) => html`<li key=${c.id}>
          <span class="mono">#${c.id}</span> ${c.name}
          <${Link} to=${href('/live', { channel: c.id })} class="small">Live tail</${Link}></li>`)}</ul>
        <${InlineForm} id=${`new-channel-${a.id}`} label=${`New channel in ${a.name}`} placeholder="New channel name" button="Add channel" onSubmit=${createChannel(a.id)} />
      </li>`)}
    </ul>
    <${InlineForm} id="new-app" label="New app name" placeholder="New app name" button="Create app" onSubmit=${createApp} />
  </section>`;
}

function ApiKeys({ channels }) {
  const keys = useAsync(() => api.get('/api-keys'), []);
  const [fresh, setFresh] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const create = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const scopes = ['publish', 'subscribe', 'read'].filter((s) => f.get(s));
    setBusy(true);
    setError(null);
    try {
      const key = await api.post('/api-keys', { name: f.get('name').trim(), scopes });
      setFresh(key);
      form.reset();
      keys.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (k) => {
    if (!window.confirm(`Revoke the API key "${k.name}"? Requests with it fail at once.`)) return;
    try {
      await api.del(`/api-keys/${k.id}`);
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };
  const ch = channels[0];
  const curl = fresh && ch ? `curl -s -X POST ${window.location.origin}/event -H 'content-type: application/json' \\
  -H 'x-api-key: ${fresh.key}' \\
  -d '{"identifier":"hello","payload":{"text":"hi"},"channel_id":${ch.id},"eventType":"agent.message","traceId":"demo-1","agentId":"my-agent"}'` : '';
  return html`<section class="card" aria-labelledby="keys-title">
    <h2 id="keys-title" class="card-title">API keys</h2>
    <p class="hint">Agents publish with an API key (header <code>x-api-key</code>). The full key is shown once, when it is created.</p>
    ${fresh ? html`<div class="secret" role="status" data-testid="new-key">
      <p><strong>Copy the key "${fresh.name}" now.</strong> It will not be shown again.</p>
      <div class="secret-row"><code class="secret-value">${fresh.key}</code><${CopyButton} text=${fresh.key} /></div>
      ${curl ? html`<p class="small">Publish an event with it, then watch it in the <${Link} to=${href('/live', { channel: ch.id })}>live tail</${Link}>:</p>
        <div class="secret-row"><pre class="code">${curl}</pre><${CopyButton} text=${curl} /></div>` : null}
      <button type="button" class="btn btn-sm" onClick=${() => setFresh(null)}>Done</button>
    </div>` : null}
    <form class="inline-form" onSubmit=${create}>
      <label class="sr-only" for="key-name">Key name</label>
      <input id="key-name" name="name" placeholder="Key name, e.g. agent-prod" required maxlength="120" autocomplete="off" />
      <fieldset class="scopes"><legend class="sr-only">Scopes</legend>
        ${['publish', 'subscribe', 'read'].map((s) => html`<label class="check"><input type="checkbox" name=${s} checked />${s}</label>`)}
      </fieldset>
      <button type="submit" class="btn btn-primary" disabled=${busy}><${Icon} name="plus" size=${14} />Create key</button>
    </form>
    <${ErrorBox} error=${error || keys.error} />
    ${keys.data && keys.data.length ? html`<table class="table dense"><caption class="sr-only">API keys</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
      <tbody>${keys.data.map((k) => html`<tr key=${k.id}><td>${k.name}</td><td class="mono">${k.key}</td>
        <td>${k.scopes.map((s) => html`<span class="chip chip-sm">${s}</span>`)}</td><td>${dateTime(k.createdAt)}</td>
        <td class="num"><button type="button" class="btn btn-sm btn-danger" onClick=${() => revoke(k)}>Revoke</button></td></tr>`)}</tbody>
    </table>` : keys.loading ? html`<${Spinner} />` : html`<p class="muted">No API key yet.</p>`}
  </section>`;
}

export function SettingsView() {
  const data = useAsync(loadChannels, []);
  return html`<div class="page">
    <header class="page-head"><h1>Settings</h1></header>
    <div class="settings">
      <${Organizations} />
      ${data.error ? html`<${ErrorBox} error=${data.error} />` : !data.data ? html`<${Spinner} />` : html`
        <${AppsAndChannels} data=${data.data} reload=${data.reload} />
        <${ApiKeys} channels=${data.data.channels} />`}
    </div>
  </div>`;
}
