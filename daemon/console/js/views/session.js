// One session replayed: its traces oldest first, each a turn of the conversation (what
// the user asked, what the agents answered), with the trace's time, duration, tokens,
// cost and errors, and a link to its waterfall. GET /sessions/{id}.
import { api } from '../api.js';
import { LongText } from '../conversation.js';
import { dateTime, ms, num, tokens, usd } from '../format.js';
import { html } from '../lib.js';
import { href, Link } from '../router.js';
import { Empty, ErrorBox, Spinner, useAsync } from '../ui.js';
import { UserLinks } from './sessions.js';

function Turn({ t, index }) {
  const name = t.name || t.traceId;
  return html`<li class="turn" data-trace-id=${t.traceId} data-testid="session-turn">
    <div class="turn-head">
      <span class="turn-n">${index + 1}</span>
      <${Link} to=${href(`/traces/${encodeURIComponent(t.traceId)}`)} class="turn-name">${name}</${Link}>
      <span class="muted small">${dateTime(t.startTime)} · ${ms(t.durationMs)} · ${tokens(t.totalTokens)} tokens · ${usd(t.costUsd)}${t.userId ? ` · ${t.userId}` : ''}</span>
      ${t.errorCount ? html`<span class="pill pill-err" title="Errors">${num(t.errorCount)} error${t.errorCount === 1 ? '' : 's'}</span>` : null}
    </div>
    ${t.input ? html`<div class="msg msg-user" data-role="user"><div class="msg-role">user</div><${LongText} value=${t.input} /></div>` : null}
    ${t.output ? html`<div class="msg msg-assistant" data-role="assistant"><div class="msg-role">assistant</div><${LongText} value=${t.output} /></div>`
      : html`<div class="muted small turn-none">${t.errorCount ? 'No answer: the run failed.' : 'No answer recorded.'}</div>`}
  </li>`;
}

export function SessionView({ route }) {
  const id = route.params.id;
  const s = useAsync(() => api.get(`/sessions/${encodeURIComponent(id)}`), [id]);
  if (s.loading && !s.data) return html`<div class="page"><${Spinner} label="Loading the session" /></div>`;
  if (s.error) {
    return html`<div class="page"><div class="kicker"><${Link} to=${href('/sessions')}>Sessions</${Link}></div>
      ${s.error.status === 404 ? html`<${Empty} title="No such session in this organization" />` : html`<${ErrorBox} error=${s.error} />`}</div>`;
  }
  const d = s.data;
  const stat = (label, value, cls = '') => html`<div class="stat"><dt>${label}</dt><dd class=${cls}>${value}</dd></div>`;
  return html`<div class="page">
    <section class="summary" aria-label="Session summary">
      <div class="kicker"><${Link} to=${href('/sessions')}>Sessions</${Link}> / session</div>
      <h1 class="trace-title"><span class="mono">${d.sessionId}</span></h1>
      <dl class="stats">
        ${stat('First', dateTime(d.firstSeen))}
        ${stat('Last', dateTime(d.lastSeen))}
        ${stat('Duration', ms(d.durationMs))}
        ${stat('Traces', num(d.traceCount))}
        ${stat('Errors', num(d.errorCount), d.errorCount ? 'err' : '')}
        ${stat('Tokens', tokens(d.totalTokens))}
        ${stat('Cost', usd(d.costUsd))}
        ${stat('Users', html`<${UserLinks} ids=${d.userIds} count=${d.userCount} />`)}
      </dl>
    </section>
    <h2 class="section-title">Conversation</h2>
    <ol class="turns" aria-label="The session's traces, oldest first">
      ${(d.traces || []).map((t, i) => html`<${Turn} key=${t.traceId} t=${t} index=${i} />`)}
    </ol>
    ${d.traces && d.traceCount > d.traces.length ? html`<p class="hint">The first ${num(d.traces.length)} of ${num(d.traceCount)} traces.
      <${Link} to=${href('/traces', { session: d.sessionId })}>All of them in the traces list</${Link}>.</p>` : null}
  </div>`;
}
