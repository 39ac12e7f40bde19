// What to do next on a screen with nothing to show yet (the live tail of a channel without
// events, the traces list of an organization without traces): how to publish into this
// channel, with its real id and, once created here, a real API key. The key is shown once,
// as the API shows it.
import { api } from '../api.js';
import { html, useState } from '../lib.js';
import { CopyButton, ErrorBox } from '../ui.js';

export function PublishHelp({ channel, withTrace = false }) {
  const [key, setKey] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const createKey = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await api.post('/api-keys', { name: `publish to ${channel.appName || 'app'} / ${channel.name}`, scopes: ['publish'] });
      setKey(created.key);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const origin = window.location.origin;
  const k = key || 'aes_…';
  const event = { identifier: 'hello', eventType: 'agent.message', channel_id: Number(channel.id),
                  ...(withTrace ? { traceId: 'first-trace', agentId: 'assistant' } : {}), payload: { text: 'hi' } };
  const curl = `curl -X POST ${origin}/event -H 'content-type: application/json' -H 'x-api-key: ${k}' \\\n  -d '${JSON.stringify(event)}'`;
  const otlp = `OTEL_EXPORTER_OTLP_ENDPOINT=${origin}\nOTEL_EXPORTER_OTLP_HEADERS=x-api-key=${k},x-channel-id=${channel.id}`;
  return html`<div class="publish-help" data-testid="publish-help">
    <p>Publish into <strong>${channel.appName ? `${channel.appName} / ` : ''}${channel.name}</strong> (channel ${channel.id}) with an API key that may publish.</p>
    ${key
      ? html`<p data-testid="publish-key">Your new key, shown only now: <code>${key}</code></p>`
      : html`<p><button type="button" class="btn btn-primary" onClick=${createKey} disabled=${busy} data-testid="create-publish-key">Create a publish key</button></p>`}
    <${ErrorBox} error=${error} />
    <p class="help-step">With curl:</p>
    <pre class="code" data-testid="publish-curl">${curl}</pre>
    <${CopyButton} text=${curl} label="Copy command" />
    <p class="help-step">From OpenTelemetry instrumentation (OTLP/HTTP), set:</p>
    <pre class="code" data-testid="publish-otlp">${otlp}</pre>
    <${CopyButton} text=${otlp} label="Copy variables" />
  </div>`;
}
