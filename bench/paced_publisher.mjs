// Publishes at a fixed rate (events per second) with POST /event until SIGTERM or DURATION
// seconds, then prints one JSON line: sent, acknowledged (201), failed, the achieved rate,
// and the latency percentiles of each second's requests (so a stall shows). Node 20, no
// dependencies (fetch with keep-alive).
//
//   node bench/paced_publisher.mjs BASE_URL API_KEY CHANNEL_ID RATE [DURATION_S]
const [base, key, channel, rateText, durationText] = process.argv.slice(2);
const rate = Number(rateText);
const duration = Number(durationText ?? 3600);
if (!base || !key || !channel || !(rate > 0)) {
  console.error('usage: node paced_publisher.mjs BASE_URL API_KEY CHANNEL_ID RATE [DURATION_S]');
  process.exit(64);
}
const payload = { text: 'x'.repeat(400) };
const started = performance.now();
let sent = 0, acked = 0, failed = 0, stopping = false;
const latencies = [];
let worstSecondP99 = 0;
const perSecond = [];

async function one(i) {
  const t0 = performance.now();
  try {
    const r = await fetch(`${base}/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ identifier: `paced-${i}`, channel_id: Number(channel), payload }),
    });
    await r.arrayBuffer();
    if (r.status === 201) acked++; else failed++;
  } catch {
    failed++;
  }
  const ms = performance.now() - t0;
  latencies.push(ms);
  perSecond.push(ms);
}

function percentile(list, p) {
  if (!list.length) return 0;
  const s = [...list].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const inflight = new Set();
const tick = setInterval(() => {
  // Catch up to the schedule: as many requests as the rate says should have started by now.
  const due = Math.floor(((performance.now() - started) / 1000) * rate);
  while (!stopping && sent < due) {
    const p = one(sent++);
    inflight.add(p);
    p.finally(() => inflight.delete(p));
  }
}, 5);
const second = setInterval(() => {
  worstSecondP99 = Math.max(worstSecondP99, percentile(perSecond, 99));
  perSecond.length = 0;
}, 1000);

async function finish() {
  if (stopping) return;
  stopping = true;
  clearInterval(tick);
  await Promise.allSettled([...inflight]);
  clearInterval(second);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({
    seconds: +seconds.toFixed(2), sent, acknowledged: acked, failed,
    ratePerSecond: +(acked / seconds).toFixed(1),
    latencyMs: { p50: +percentile(latencies, 50).toFixed(1), p99: +percentile(latencies, 99).toFixed(1),
                 max: +percentile(latencies, 100).toFixed(1), worstSecondP99: +worstSecondP99.toFixed(1) },
  }));
  process.exit(0);
}
process.on('SIGTERM', finish);
process.on('SIGINT', finish);
setTimeout(finish, duration * 1000);
