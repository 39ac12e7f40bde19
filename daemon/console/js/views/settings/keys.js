// API keys: list (first characters only), create with scopes and a default channel (the
// full key shown once, with a ready-to-run publish command), change the default channel,
// revoke after a confirmation.
import { api } from '../../api.js';
import { dateTime } from '../../format.js';
import { html, useState } from '../../lib.js';
import { groupByApp } from '../../channels.js';
import { href, Link } from '../../router.js';
import { CopyButton, ErrorBox, Icon, Spinner, useAsync } from '../../ui.js';
import { ConfirmDialog, useAction } from './forms.js';

const SCOPES = [
  { name: 'publish', hint: 'POST /event, /events/batch, /v1/traces' },
  { name: 'subscribe', hint: 'stream tokens and live streams' },
  { name: 'read', hint: 'events, traces, analytics' },
];

// The channel OTLP exports go to when they name none ("" = no default).
function DefaultChannelSelect({ channels, id, name, value, label, onChange }) {
  return html`<label class="sr-only" for=${id}>${label}</label>
    <select id=${id} name=${name} data-testid=${id} onChange=${onChange}>
      <option value="" selected=${value == null}>No default channel</option>
      ${groupByApp(channels).map((g) => html`<optgroup label=${g.appName}>
        ${g.channels.map((c) => html`<option value=${c.id} selected=${String(c.id) === String(value)}>${c.appName} / ${c.name}</option>`)}
      </optgroup>`)}
    </select>`;
}

export function ApiKeysSection({ channels }) {
  const keys = useAsync(() => api.get('/api-keys'), []);
  const [fresh, setFresh] = useState(null);
  const [confirm, setConfirm] = useState(null);
  const action = useAction();
  const create = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const scopes = SCOPES.map((s) => s.name).filter((s) => f.get(s));
    const body = { name: f.get('name').trim(), scopes };
    if (f.get('defaultChannelId')) body.defaultChannelId = Number(f.get('defaultChannelId'));
    const key = await action.run(() => api.post('/api-keys', body));
    if (key) {
      setFresh(key);
      form.reset();
      keys.reload();
    }
  };
  const setDefault = async (k, value) => {
    const done = await action.run(() => api.patch(`/api-keys/${k.id}`, { defaultChannelId: value ? Number(value) : null }));
    if (done) keys.reload();
  };
  const revoke = (k) => setConfirm({
    title: `Revoke the API key "${k.name}"?`,
    body: html`<p>Requests with <code>${k.key}</code> (scopes ${k.scopes.join(', ')}) fail from now on, and live streams opened with it end.
      Agents using it need a new key. This cannot be undone.</p>`,
    action: 'Revoke key',
    onConfirm: async () => {
      await api.del(`/api-keys/${k.id}`);
      keys.reload();
    },
  });
  const ch = channels[0];
  const curl = fresh && ch ? `curl -s -X POST ${window.location.origin}/event -H 'content-type: application/json' \\
  -H 'x-api-key: ${fresh.key}' \\
  -d '{"identifier":"hello","payload":{"text":"hi"},"channel_id":${ch.id},"eventType":"agent.message","traceId":"demo-1","agentId":"my-agent"}'` : '';
  const rows = keys.data || [];
  return html`<section class="card" aria-labelledby="keys-title" data-testid="api-keys">
    <h2 id="keys-title" class="card-title">API keys</h2>
    <p class="hint">Agents publish with an API key (header <code>x-api-key</code>, or <code>Authorization: Bearer</code>). The full key is shown once, when it is created.
      OTLP exports that name no channel go to the key's default channel.</p>
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
        ${SCOPES.map((s) => html`<label class="check" title=${s.hint}><input type="checkbox" name=${s.name} checked />${s.name}</label>`)}
      </fieldset>
      <${DefaultChannelSelect} channels=${channels} id="key-default-channel" name="defaultChannelId" value=${null} label="Default channel" />
      <button type="submit" class="btn btn-primary" disabled=${action.busy}><${Icon} name="plus" size=${14} />Create key</button>
    </form>
    <${ErrorBox} error=${action.error || keys.error} />
    ${rows.length ? html`<table class="table dense"><caption class="sr-only">API keys</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Default channel</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
      <tbody>${rows.map((k) => html`<tr key=${k.id} data-key-id=${k.id}><td>${k.name}</td><td class="mono">${k.key}</td>
        <td>${k.scopes.map((s) => html`<span class="chip chip-sm">${s}</span>`)}</td>
        <td><${DefaultChannelSelect} channels=${channels} id=${`key-${k.id}-default-channel`} value=${k.defaultChannelId}
          label=${`Default channel of ${k.name}`} onChange=${(e) => setDefault(k, e.currentTarget.value)} /></td>
        <td>${dateTime(k.createdAt)}</td>
        <td class="num"><button type="button" class="btn btn-sm btn-danger" onClick=${() => revoke(k)} aria-label=${`Revoke ${k.name}`}>Revoke</button></td></tr>`)}</tbody>
    </table>` : keys.loading ? html`<${Spinner} />` : html`<p class="muted">No API key yet. Create one above for your agents.</p>`}
    <${ConfirmDialog} confirm=${confirm} onClose=${() => setConfirm(null)} />
  </section>`;
}
