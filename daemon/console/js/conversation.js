// What an LLM call was asked and what it answered, as a conversation: messages by role,
// tool calls with their arguments, tool results, the output. Everything is rendered as
// text (htm children, never HTML), so a prompt holding markup shows as written.
//
// Read, first found: the normalised `payload.messages` {input, output} the daemon stores
// for every convention (docs/integrations.md#messages); a payload that is itself a list of
// messages (OpenAI's request `messages`, with `choices` or `output` for the answer); the
// README's tour, `{role, text}` (one message); plain `input` / `prompt` and `output` /
// `completion` / `response` strings.
import { html, useState } from './lib.js';

const text = (v) => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (typeof p === 'string' ? p : p && typeof p === 'object' ? (p.text ?? p.content ?? '') : String(p))).filter((x) => x !== '').join('\n');
  if (typeof v === 'object' && typeof v.text === 'string') return v.text;
  return JSON.stringify(v, null, 2);
};

const args = (v) => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') {
    try {
      return JSON.stringify(JSON.parse(v), null, 2);
    } catch {
      return v;
    }
  }
  return JSON.stringify(v, null, 2);
};

// One message in the normalised shape {role, content, toolCalls, toolCallId, name}.
export function normalizeMessage(m) {
  if (m === null || m === undefined) return null;
  if (typeof m === 'string') return { role: 'user', content: m, toolCalls: [] };
  const calls = [];
  for (const c of m.toolCalls || m.tool_calls || []) {
    const fn = c.function || {};
    calls.push({ id: c.id || c.toolCallId || '', name: c.name || fn.name || c.toolName || 'tool', arguments: args(c.arguments ?? fn.arguments ?? c.args ?? c.input) });
  }
  let content = m.content ?? m.text ?? m.message ?? null;
  // Content parts (Anthropic, AI SDK): text, tool use and tool results among them.
  let toolCallId = m.toolCallId || m.tool_call_id || '';
  if (Array.isArray(content)) {
    const parts = [];
    for (const p of content) {
      if (p && (p.type === 'tool_use' || p.type === 'tool-call')) calls.push({ id: p.id || p.toolCallId || '', name: p.name || p.toolName || 'tool', arguments: args(p.input ?? p.args) });
      else if (p && (p.type === 'tool_result' || p.type === 'tool-result')) {
        toolCallId = toolCallId || p.tool_use_id || p.toolCallId || '';
        parts.push(text(p.content ?? p.result ?? p.output));
      } else parts.push(text([p]));
    }
    content = parts.filter(Boolean).join('\n');
  } else if (content !== null && typeof content !== 'string') {
    content = text(content);
  }
  return { role: String(m.role || (toolCallId ? 'tool' : 'user')), content: content || '', toolCalls: calls, toolCallId, name: m.name || '' };
}

const list = (v) => (Array.isArray(v) ? v.map(normalizeMessage).filter(Boolean) : v ? [normalizeMessage(v)].filter(Boolean) : []);

// {input: [message], output: [message]} or null when the event carries no conversation.
export function conversationOf(e) {
  const p = e && e.payload && typeof e.payload === 'object' ? e.payload : {};
  const m = p.messages;
  if (m && typeof m === 'object' && !Array.isArray(m) && (m.input || m.output)) {
    return { input: list(m.input), output: list(m.output) };
  }
  if (Array.isArray(m)) {
    const out = p.choices ? p.choices.map((c) => c.message || c) : p.output ?? p.response ?? p.completion;
    return { input: list(m), output: list(typeof out === 'string' ? { role: 'assistant', content: out } : out) };
  }
  if (typeof p.role === 'string' && (p.text !== undefined || p.content !== undefined)) {
    const msg = normalizeMessage(p);
    return msg.role === 'assistant' ? { input: [], output: [msg] } : { input: [msg], output: [] };
  }
  const inText = [p.input, p.prompt].find((v) => typeof v === 'string' && v);
  const outText = [p.output, p.completion, p.response].find((v) => typeof v === 'string' && v);
  if (inText || outText) {
    return { input: inText ? [{ role: 'user', content: inText, toolCalls: [] }] : [], output: outText ? [{ role: 'assistant', content: outText, toolCalls: [] }] : [] };
  }
  return null;
}

// Long text shows its first lines, and the rest on request.
const LIMIT_CHARS = 1200;
const LIMIT_LINES = 16;
export function LongText({ value, className = 'msg-text' }) {
  const [open, setOpen] = useState(false);
  const s = value || '';
  const lines = s.split('\n');
  const long = s.length > LIMIT_CHARS || lines.length > LIMIT_LINES;
  if (!long || open) {
    return html`<div class="long"><pre class=${className}>${s}</pre>
      ${long ? html`<button type="button" class="btn btn-sm btn-ghost" onClick=${() => setOpen(false)}>Show less</button>` : null}</div>`;
  }
  const cut = lines.slice(0, LIMIT_LINES).join('\n').slice(0, LIMIT_CHARS);
  return html`<div class="long"><pre class=${`${className} collapsed`}>${cut}…</pre>
    <button type="button" class="btn btn-sm btn-ghost" data-testid="show-all" onClick=${() => setOpen(true)}>Show all (${s.length.toLocaleString('en-US')} characters)</button></div>`;
}

function Message({ m }) {
  const role = m.role || 'user';
  return html`<div class=${`msg msg-${/^(system|developer|user|assistant|tool)$/.test(role) ? role : 'other'}`} data-role=${role}>
    <div class="msg-role">${role === 'tool' ? `tool result${m.toolCallId ? ` · ${m.toolCallId}` : ''}` : role}${m.name ? html` <span class="muted">${m.name}</span>` : null}</div>
    ${m.content ? html`<${LongText} value=${m.content} />` : m.toolCalls.length ? null : html`<div class="muted small">(empty)</div>`}
    ${m.toolCalls.map((c) => html`<div class="tool-call" data-testid="tool-call">
      <div class="tool-call-head"><span class="tool-call-name mono">${c.name}</span>${c.id ? html` <span class="muted small mono">${c.id}</span>` : null}</div>
      ${c.arguments ? html`<${LongText} value=${c.arguments} className="msg-args" />` : null}</div>`)}
  </div>`;
}

// The conversation of one call: input messages, then the output.
export function Conversation({ conversation }) {
  if (!conversation) return null;
  return html`<div class="conversation" data-testid="conversation">
    ${conversation.input.length ? html`<h3 class="panel-sub">Input</h3>${conversation.input.map((m) => html`<${Message} m=${m} />`)}` : null}
    ${conversation.output.length ? html`<h3 class="panel-sub">Output</h3>${conversation.output.map((m) => html`<${Message} m=${m} />`)}` : null}
  </div>`;
}
