// Synthetic agent traffic: the traces of a small support desk where three agents (triage,
// research, writer) hand off to each other, call models with real-looking prompts and
// answers, call tools with arguments and results, and sometimes fail. Everything is made
// here from templates and a seeded random generator: nothing is downloaded, and the same
// seed gives the same traffic (tests and benchmarks can count on it).
//
// A trace is a list of events in the shape POST /event and POST /events/batch take:
// identifier, eventType, agentId, traceId, spanId, parentSpanId, timestamp (when it
// happened), payload, metadata (the telemetry keys of docs/features.md#telemetry-fields:
// model, provider, usage, duration_ms, tool, status, error_type, session, user, environment,
// release, tags). LLM calls carry their messages in the payload as messages: {input, output},
// lists of {role, content, toolCalls}: the shape the daemon normalises every convention to
// (docs/integrations.md).

export function rng(seed) {
  // mulberry32: small, fast, and the same sequence on every machine.
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (r, list) => list[Math.floor(r() * list.length)];
const between = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
const hex = (r, n) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');

export const END_USERS = ['maria.lopez', 'kenji.sato', 'amara.okafor', 'lukas.weber', 'priya.nair', 'tom.becker'];
const MODELS = {
  triage: [['gpt-4o-mini', 'openai'], ['claude-3-5-haiku', 'anthropic']],
  research: [['gpt-4o', 'openai'], ['gemini-1.5-pro', 'google']],
  writer: [['claude-3-5-sonnet', 'anthropic'], ['gpt-4o', 'openai']],
};
const ORDERS = ['A-10432', 'A-11877', 'B-20391', 'B-20455', 'C-31002'];
const PRODUCTS = ['the Trail 2 backpack', 'a pair of Summit boots', 'the Aurora headlamp', 'a Drift rain shell'];
const QUESTIONS = [
  (o, p) => `Hi, my order ${o} for ${p} still shows "processing" after five days. Can you check?`,
  (o, p) => `I received ${p} (order ${o}) but it is the wrong size. How do I exchange it?`,
  (o, p) => `Can I get a refund for order ${o}? ${p[0].toUpperCase() + p.slice(1)} arrived damaged.`,
  (o, p) => `Where is my package? Order ${o}, ${p}. The tracking link does not work.`,
  (o) => `Please cancel order ${o}, I ordered it twice by mistake.`,
  (o) => `I was charged twice for order ${o}. My card is 4111 1111 1111 1111, please refund one of the charges.`,
];
const FOLLOW_UPS = [
  'Thanks. And how long will the refund take to show on my card?',
  'Great, can you also send me the return label by e-mail?',
  'OK. Is there anything I need to sign when it arrives?',
];
const STATUSES = ['processing', 'shipped', 'in transit', 'delivered', 'held at customs'];
const CARRIERS = ['DHL', 'UPS', 'PostNL'];
const SYSTEM = {
  triage: 'You are the triage agent of Northwind Outdoor support. Classify the request and hand off to the research agent when order data is needed.',
  research: 'You are the research agent. Look up orders and policies with the tools, then summarise the facts for the writer agent.',
  writer: 'You are the writer agent. Write a short, friendly reply to the customer from the facts you are given. Never promise what the facts do not support.',
};

const event = (trace, fields) => ({
  identifier: fields.identifier,
  eventType: fields.eventType,
  agentId: fields.agent,
  traceId: trace.traceId,
  spanId: hex(trace.r, 16),
  parentSpanId: trace.rootSpan,
  timestamp: new Date(trace.clock).toISOString(),
  payload: fields.payload ?? {},
  metadata: { ...trace.common, ...(fields.metadata ?? {}) },
});

function advance(trace, ms) {
  trace.clock += ms;
  return ms;
}

function llmCall(trace, agent, input, answer, { toolCalls = [], fail = null } = {}) {
  const [model, provider] = pick(trace.r, MODELS[agent]);
  const inputTokens = Math.round(input.reduce((n, m) => n + m.content.length, 0) / 3.6) + between(trace.r, 20, 80);
  const outputTokens = Math.round(answer.length / 3.8) + between(trace.r, 5, 30) + toolCalls.length * 18;
  const duration = advance(trace, between(trace.r, 450, 2600));
  if (fail) {
    return event(trace, {
      identifier: `${agent}.llm`, eventType: 'agent.error', agent,
      payload: { message: fail.message, messages: { input, output: [] } },
      metadata: { model, provider, status: 'error', error_type: fail.type, duration_ms: duration },
    });
  }
  return event(trace, {
    identifier: `${agent}.llm`, eventType: 'agent.message', agent,
    payload: { messages: { input, output: [{ role: 'assistant', content: answer, toolCalls }] } },
    metadata: {
      model, provider, duration_ms: duration, finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    },
  });
}

function toolCall(trace, agent, tool, args, result, { fail = null } = {}) {
  const id = `call_${hex(trace.r, 12)}`;
  const start = event(trace, {
    identifier: tool, eventType: 'agent.tool_call.start', agent,
    payload: { tool, toolCallId: id, arguments: args }, metadata: { tool },
  });
  const duration = advance(trace, between(trace.r, 40, 900));
  const end = event(trace, {
    identifier: tool, eventType: fail ? 'agent.error' : 'agent.tool_call.end', agent,
    payload: fail ? { tool, toolCallId: id, message: fail } : { tool, toolCallId: id, result },
    metadata: fail ? { tool, duration_ms: duration, status: 'error', error_type: 'ToolError' } : { tool, duration_ms: duration },
  });
  return [start, end];
}

function handoff(trace, from, to, reason) {
  advance(trace, between(trace.r, 5, 40));
  return event(trace, {
    identifier: `handoff.${to}`, eventType: 'agent.handoff', agent: from,
    payload: { from, to, reason }, metadata: { handoff_to: to },
  });
}

// One customer request, start to answer. `at` is when it starts (ms since the epoch);
// `session` groups the traces of one conversation; `failure` (a number in [0,1)) below
// the trace's draw makes it fail at the model or at a tool.
export function makeTrace(r, { at, session, user, followUp = false, failureRate = 0.12 }) {
  const order = pick(r, ORDERS);
  const product = pick(r, PRODUCTS);
  const question = followUp ? pick(r, FOLLOW_UPS) : pick(r, QUESTIONS)(order, product);
  const trace = {
    r, clock: at, traceId: hex(r, 32), rootSpan: hex(r, 16),
    common: { session, user, environment: 'production', release: 'support-desk@1.4.2',
              tags: { channel: pick(r, ['web', 'email', 'chat']), tier: pick(r, ['free', 'plus', 'pro']) } },
  };
  const failure = r() < failureRate ? pick(r, ['model', 'tool']) : null;
  const events = [];
  events.push(event(trace, { identifier: 'triage.start', eventType: 'agent.start', agent: 'triage',
                             payload: { request: question } }));
  const intent = /refund|damaged/.test(question) ? 'refund' : /cancel/.test(question) ? 'cancellation'
    : /size|exchange/.test(question) ? 'exchange' : 'order_status';
  events.push(llmCall(trace, 'triage',
    [{ role: 'system', content: SYSTEM.triage }, { role: 'user', content: question }],
    `Intent: ${intent}. Order ${order}. Needs order data: handing off to research.`));
  events.push(handoff(trace, 'triage', 'research', `${intent} request needs order data`));

  const status = pick(r, STATUSES);
  const carrier = pick(r, CARRIERS);
  const lookupArgs = { order_id: order, fields: ['status', 'items', 'shipping'] };
  events.push(llmCall(trace, 'research',
    [{ role: 'system', content: SYSTEM.research }, { role: 'user', content: `Customer asks: ${question}` }],
    '', { toolCalls: [{ id: `call_${hex(r, 12)}`, name: 'lookup_order', arguments: JSON.stringify(lookupArgs) }] }));
  if (failure === 'tool') {
    events.push(...toolCall(trace, 'research', 'lookup_order', lookupArgs, null,
                            { fail: 'orders-db: connection reset by peer (after 3 retries)' }));
    advance(trace, between(r, 10, 60));
    events.push(event(trace, { identifier: 'research.end', eventType: 'agent.end', agent: 'research',
                               payload: { outcome: 'escalated to a human' }, metadata: { status: 'error' } }));
    return events;
  }
  const found = { order_id: order, status, carrier, items: [product], placed_at: '2026-11-19',
                  tracking: `${carrier.toUpperCase()}${between(r, 100000000, 999999999)}` };
  events.push(...toolCall(trace, 'research', 'lookup_order', lookupArgs, found));
  if (intent === 'refund' || intent === 'exchange') {
    const policyArgs = { topic: intent, region: 'EU' };
    events.push(...toolCall(trace, 'research', 'search_policies', policyArgs,
      { matches: [{ title: `${intent[0].toUpperCase() + intent.slice(1)} policy`, excerpt: `${intent === 'refund' ? 'Refunds' : 'Exchanges'} are accepted within 30 days of delivery; damaged items are replaced or refunded at no cost.` }] }));
  }
  const facts = `Order ${order}: ${status}, carrier ${carrier}, item ${product}.`;
  events.push(llmCall(trace, 'research',
    [{ role: 'system', content: SYSTEM.research }, { role: 'user', content: `Customer asks: ${question}` },
     { role: 'tool', content: JSON.stringify(found) }],
    `Facts for the writer: ${facts}${intent === 'refund' ? ' Eligible for a refund under the 30-day policy.' : ''}`));
  events.push(handoff(trace, 'research', 'writer', 'facts gathered'));
  const reply = {
    refund: `I'm sorry ${product} arrived damaged. I've started a refund for order ${order}; you'll see it on your card within 5 to 7 business days.`,
    exchange: `No problem! I've set up an exchange for order ${order}. A prepaid return label is on its way to your inbox.`,
    cancellation: `Order ${order} is cancelled and you won't be charged. Sorry for the trouble!`,
    order_status: `Your order ${order} is ${status} with ${carrier}. Tracking number: ${found.tracking}.`,
  }[intent];
  events.push(llmCall(trace, 'writer',
    [{ role: 'system', content: SYSTEM.writer }, { role: 'user', content: `${question}\n\nFacts: ${facts}` }],
    reply, { fail: failure === 'model' ? { type: 'RateLimitError', message: '429 Too Many Requests: rate limit reached for requests per minute' } : null }));
  advance(trace, between(r, 5, 30));
  events.push(event(trace, { identifier: 'writer.end', eventType: 'agent.end', agent: 'writer',
                             payload: { delivered: failure !== 'model' },
                             metadata: failure === 'model' ? { status: 'error' } : {} }));
  return events;
}

// Conversations: each end user opens a session and asks one to three questions in it.
export function* conversations(r, { start, count, spacingMs }) {
  let at = start;
  let made = 0;
  while (made < count) {
    const user = pick(r, END_USERS);
    const session = `sess_${hex(r, 10)}`;
    const turns = between(r, 1, 3);
    for (let t = 0; t < turns && made < count; t++, made++) {
      yield { at, session, user, followUp: t > 0 };
      at += spacingMs * (0.5 + r());
    }
  }
}

// The first `n` events of generated conversations from `start`, in order: realistic agent
// events for a seed of a shape of its own (bench/console.mjs threads 2,000 of them into one
// deep trace; tests/browser/console.test.mjs publishes whole traces with makeTrace).
export function eventPool(r, { start, n, spacingMs = 60_000 }) {
  const out = [];
  for (const c of conversations(r, { start, count: Number.MAX_SAFE_INTEGER, spacingMs })) {
    out.push(...makeTrace(r, c));
    if (out.length >= n) break;
  }
  return out.slice(0, n);
}
