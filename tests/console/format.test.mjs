// The console's one number format (daemon/console/js/format.js) and its reading of an LLM
// call's messages (js/conversation.js's conversationOf, normalizeMessage), in Node: the
// figures every screen shows (issue 27).
//   node --test tests/console/format.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axisTime, bucketTime, clock, dateFull, dateTime, metricValue, ms, tokens, usd } from '../../daemon/console/js/format.js';

test('money: significant figures below $1, cents with separators from $1 on', () => {
  assert.equal(usd(0.0149), '$0.0149');
  assert.equal(usd(0.13), '$0.13');
  assert.equal(usd(0.5), '$0.50');
  assert.equal(usd(0.000042), '$0.000042');
  assert.equal(usd(0.12345), '$0.123');
  assert.equal(usd(1.5), '$1.50');
  assert.equal(usd(1204), '$1,204.00');
  assert.equal(usd(0), '$0');
  assert.equal(usd(null), '–');
  assert.equal(usd(-0.25), '-$0.25');
});

test('tokens with separators, durations with units', () => {
  assert.equal(tokens(12408), '12,408');
  assert.equal(ms(640), '640 ms');
  assert.equal(ms(1234), '1.23 s');
  assert.equal(ms(12800), '12.8 s');
  assert.equal(ms(125000), '2 min 5 s');
  assert.equal(ms(7260000), '2 h 1 min');
  assert.equal(ms(0), '0 ms');
  assert.equal(ms(undefined), '–');
});

test('a 24-hour clock, with the date whenever it is not today', () => {
  const now = new Date(2026, 10, 28, 15, 0, 0);
  assert.equal(dateTime(new Date(2026, 10, 28, 14, 2, 9).toISOString(), now), '14:02:09');
  assert.equal(dateTime(new Date(2026, 10, 27, 9, 15, 0).toISOString(), now), '2026-11-27 09:15:00');
  assert.equal(clock(new Date(2026, 10, 28, 3, 4, 5, 67).toISOString(), now), '03:04:05.067');
  assert.equal(clock(new Date(2026, 10, 26, 3, 4, 5, 67).toISOString(), now), '2026-11-26 03:04:05.067');
  assert.equal(dateFull(new Date(2026, 10, 28, 2, 30, 50).toISOString()), '2026-11-28 02:30');
  assert.equal(bucketTime(new Date(2026, 10, 28, 3, 0).getTime(), now), '03:00');
  assert.equal(axisTime(new Date(2026, 10, 28, 15, 0).getTime(), 3600e3), '15:00');
  assert.equal(axisTime(new Date(2026, 10, 27, 0, 0).getTime(), 7 * 86400e3), '11-27');
});

test('alert values carry their metric unit', () => {
  assert.equal(metricValue('cost_usd', 0.1), '$0.10');
  assert.equal(metricValue('error_rate', 0.1), '10%');
  assert.equal(metricValue('latency_p95_ms', 6010), '6.01 s');
  assert.equal(metricValue('error_count', 6010), '6,010');
});

test("an LLM call's messages, from each shape the console reads", async () => {
  const { conversationOf } = await import('../../daemon/console/js/conversation.js');
  const roles = (c) => ({ input: c.input.map((m) => `${m.role}:${m.content}`), output: c.output.map((m) => `${m.role}:${m.content}`) });
  // The daemon's normalised shape, tool calls and a tool result included.
  const native = conversationOf({ payload: { messages: {
    input: [{ role: 'user', content: 'Weather?' }, { role: 'tool', content: '18C', toolCallId: 'c1' }],
    output: [{ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }] } } });
  assert.deepEqual(roles(native), { input: ['user:Weather?', 'tool:18C'], output: ['assistant:'] });
  assert.deepEqual(native.output[0].toolCalls, [{ id: 'c1', name: 'get_weather', arguments: '{\n  "city": "Paris"\n}' }]);
  assert.equal(native.input[1].toolCallId, 'c1');
  // The README tour's {role, text}.
  assert.deepEqual(roles(conversationOf({ payload: { role: 'assistant', text: 'hello' } })), { input: [], output: ['assistant:hello'] });
  // An OpenAI request: messages, choices; tool_calls with function.
  const openai = conversationOf({ payload: { messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    choices: [{ message: { role: 'assistant', content: 'Hello', tool_calls: [{ id: 't', function: { name: 'f', arguments: '{}' } }] } }] } });
  assert.deepEqual(roles(openai), { input: ['system:Be terse.', 'user:Hi'], output: ['assistant:Hello'] });
  assert.equal(openai.output[0].toolCalls[0].name, 'f');
  // Anthropic content parts: tool use and tool result.
  const anthropic = conversationOf({ payload: { messages: { input: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: 'done' }] }],
    output: [{ role: 'assistant', content: [{ type: 'text', text: 'Calling' }, { type: 'tool_use', id: 'u2', name: 'lookup', input: { q: 1 } }] }] } } });
  assert.equal(anthropic.input[0].toolCallId, 'u1');
  assert.equal(anthropic.output[0].content, 'Calling');
  assert.equal(anthropic.output[0].toolCalls[0].name, 'lookup');
  // Plain strings; nothing to show.
  assert.deepEqual(roles(conversationOf({ payload: { prompt: 'Q', completion: 'A' } })), { input: ['user:Q'], output: ['assistant:A'] });
  assert.equal(conversationOf({ payload: { step: 3 } }), null);
});
