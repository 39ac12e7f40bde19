// A fake OpenAI-compatible server on loopback for the conformance scenarios: POST
// /v1/chat/completions answers
//   - a request whose last user message contains "fail": 500 with an OpenAI error body;
//   - a request offering a tool the conversation has not called yet: one call of it (a
//     transfer_to_* tool first: the Agents SDK's hand-off);
//   - stream: true: SSE chunks, and with stream_options.include_usage a final usage chunk;
//   - anything else: "Hello from the fake model." with usage 11 in (4 cached) / 7 out (2 reasoning).
const http = require('node:http');

// With OpenAI's details: cached (cache-read) prompt tokens and reasoning tokens, subsets of
// the prompt and completion counts.
const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18,
  prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 2 } };

function lastUserText(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((p) => p.text ?? '').join(' ');
  }
  return '';
}

function answer(body) {
  const messages = body.messages ?? [];
  const tools = body.tools ?? [];
  // Tools already called in this conversation (by name).
  const called = new Set(messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function?.name)));
  const base = { id: 'chatcmpl-fake', object: 'chat.completion', created: 1700000000, model: body.model };
  const names = tools.map((t) => t.function?.name ?? t.name).filter((n) => !called.has(n));
  if (names.length) {
    const transfer = names.find((n) => n.startsWith('transfer_to_'));
    const name = transfer ?? names[0];
    const args = transfer ? '{}' : '{"city":"Paris"}';
    return {
      ...base,
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: args } }] } }],
      usage: USAGE,
    };
  }
  return {
    ...base,
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello from the fake model.' } }],
    usage: USAGE,
  };
}

function stream(res, body) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  const chunk = (delta, finish, extra = {}) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1700000000,
      model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  res.write(chunk({ role: 'assistant', content: 'Hello ' }, null));
  res.write(chunk({ content: 'streamed.' }, null));
  res.write(chunk({}, 'stop'));
  if (body.stream_options?.include_usage)
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1700000000,
      model: body.model, choices: [], usage: USAGE })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function start() {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      }
      const body = JSON.parse(text);
      if (lastUserText(body.messages ?? []).includes('fail')) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'the fake model failed', type: 'server_error' } }));
      }
      if (body.stream) return stream(res, body);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer(body)));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1` })));
}

module.exports = { start, USAGE };
