// A channel's live stream that does not lose events. EventSource cannot send headers,
// so each connection carries a short-lived stream token (POST /stream-tokens) in its
// URL, and the browser's own reconnect would reuse a spent or expired one. So on any
// error this client closes the EventSource, mints a fresh token and reconnects with
// last_event_id = the last event it delivered: the daemon replays what came after it,
// then goes live, with no gap and no duplicate. Duplicates (an id not above the cursor)
// are dropped all the same. An `event: reset` says the cursor is unknown to the channel
// (deleted by retention): the events between it and resumeFrom are counted as missed.
import { api } from './api.js';

const BACKOFF_MS = [100, 250, 500, 1000, 2000, 4000];

export class ChannelStream {
  // filters: {event_type, agent_id, trace_id}; onEvents(list) gets batches in order;
  // onStatus(status) gets {state, connects, resumes, missed, lastId, error}.
  constructor(channelId, { filters = {}, onEvents, onStatus, lastId = 0 }) {
    this.channelId = channelId;
    this.filters = filters;
    this.onEvents = onEvents;
    this.onStatus = onStatus;
    this.status = { state: 'connecting', connects: 0, resumes: 0, missed: 0, lastId, error: '' };
    this.es = null;
    this.stopped = false;
    this.attempt = 0;
    this.pending = [];
    this.flushTimer = 0;
    this.retryTimer = 0;
  }

  start() {
    this.stopped = false;
    this.connect();
    return this;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.flushTimer);
    if (this.es) this.es.close();
    this.es = null;
  }

  update(patch) {
    this.status = { ...this.status, ...patch };
    this.onStatus?.(this.status);
  }

  async connect() {
    if (this.stopped) return;
    this.update({ state: this.status.connects ? 'reconnecting' : 'connecting' });
    let token;
    try {
      token = (await api.post('/stream-tokens', { channelId: Number(this.channelId) })).token;
    } catch (e) {
      this.update({ error: e.message });
      if (e.status === 404 || e.status === 403) return this.update({ state: 'failed' });
      return this.retry();
    }
    if (this.stopped) return;
    const q = new URLSearchParams({ stream_token: token });
    if (this.status.lastId) q.set('last_event_id', String(this.status.lastId));
    for (const [k, v] of Object.entries(this.filters)) if (v) q.set(k, v);
    const es = new EventSource(`/channel/${encodeURIComponent(this.channelId)}/subscribe?${q}`);
    this.es = es;
    const resuming = this.status.lastId > 0 && this.status.connects > 0;
    es.onopen = () => {
      this.attempt = 0;
      this.update({
        state: 'live', connects: this.status.connects + 1,
        resumes: this.status.resumes + (resuming ? 1 : 0), error: '',
      });
    };
    es.onmessage = (m) => this.receive(m.data);
    es.addEventListener('reset', (m) => this.reset(m.data));
    es.onerror = () => {
      if (es !== this.es) return;
      es.close(); // never the browser's reconnect: its token is spent
      this.es = null;
      this.retry();
    };
  }

  retry() {
    if (this.stopped) return;
    this.update({ state: 'reconnecting' });
    const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  receive(data) {
    let ev;
    try {
      ev = JSON.parse(data);
    } catch {
      return;
    }
    if (!(ev.id > this.status.lastId)) return; // already delivered
    this.status.lastId = ev.id;
    this.pending.push(ev);
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = 0;
        const batch = this.pending;
        this.pending = [];
        this.onEvents?.(batch);
        this.onStatus?.({ ...this.status });
      }, 0);
    }
  }

  // The daemon no longer has our cursor: count what lies between it and resumeFrom.
  async reset(data) {
    let resumeFrom = 0;
    try {
      resumeFrom = JSON.parse(data).resumeFrom;
    } catch {
      return;
    }
    const from = this.status.lastId;
    this.status.lastId = Math.max(from, resumeFrom);
    let missed = 0;
    try {
      missed = await countBetween(this.channelId, from, resumeFrom, this.filters);
    } catch {
      missed = 1; // unknown, but certainly not nothing
    }
    this.update({ missed: this.status.missed + missed, gap: true });
  }
}

// Events of the channel with from < id <= to that match the filters (newest-first pages).
async function countBetween(channelId, from, to, filters) {
  let n = 0;
  for (let page = 1; page <= 50; page += 1) {
    const r = await api.get(`/event/${channelId}/list`, { page, limit: 100 });
    for (const e of r.data) {
      if (e.id > from && e.id <= to && matches(e, filters)) n += 1;
    }
    if (!r.data.length || r.data[r.data.length - 1].id <= from) break;
  }
  return n;
}

function matches(e, f) {
  return (!f.event_type || e.eventType === f.event_type) && (!f.agent_id || e.agentId === f.agent_id)
    && (!f.trace_id || e.traceId === f.trace_id);
}
