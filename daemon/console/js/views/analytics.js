// Analytics over a time window: tiles (events, error rate, tokens, cost, latency), time
// series (uPlot), latency percentiles, and a breakdown by any dimension the loaded
// daemon offers and the custom attribute keys it has seen. Each chart has its
// data table. A breakdown row filters everything by its key; filters live in the URL.
import { api } from '../api.js';
import { TimeChart } from '../chart.js';
import { ms, num, pct, RANGES, rangeOf, short, usd } from '../format.js';
import { html, useMemo } from '../lib.js';
import { setQuery } from '../router.js';
import { Empty, ErrorBox, Icon, Select, Spinner, useAsync } from '../ui.js';

const METRICS = ['event_count', 'error_count', 'tokens', 'cost_usd', 'latency_p50_ms', 'latency_p95_ms'];

// The daemon's dimensions and equality filters (analytics_service.cpp), and the custom
// attribute keys seen on telemetry from GET /analytics/dimensions, each offered as a
// "tag:<key>" breakdown. (Not /openapi.json: 112 KiB to fill one menu.)
const DIMENSIONS = ['model', 'provider', 'agent', 'tool', 'status', 'eventType', 'finishReason', 'semanticKind', 'user',
  'session', 'traceName', 'app', 'channel', 'apiKey', 'source', 'service', 'operation', 'errorType'];
const FILTERS = ['model', 'provider', 'user', 'session', 'app', 'channel', 'apiKey', 'source', 'service', 'operation', 'errorType', 'environment'];

async function loadVocabulary() {
  const tags = await api.get('/analytics/dimensions', { limit: 50 }).catch(() => ({ data: [] }));
  const keys = (tags.dimensions || []).map((k) => k.key);
  return { dims: [...DIMENSIONS, ...keys.map((k) => `tag:${k}`)], filters: FILTERS };
}

function Tile({ label, value, sub, kind }) {
  return html`<div class=${`tile${kind ? ` tile-${kind}` : ''}`} role="listitem"><div class="tile-label">${label}</div>
    <div class="tile-value">${value}</div>${sub ? html`<div class="tile-sub">${sub}</div>` : null}</div>`;
}

const sum = (p) => (p ? p.points.reduce((a, x) => a + (Number(x.value) || 0), 0) : 0);

export function AnalyticsView({ route }) {
  const q = route.query;
  const range = rangeOf(q.range || '24h');
  const dim = q.dim || 'model';
  const vocab = useAsync(loadVocabulary, []);
  const filterNames = vocab.data ? vocab.data.filters : [];
  const active = filterNames.filter((n) => q[n]).map((n) => [n, q[n]]);
  const win = useMemo(() => {
    const until = Date.now();
    return { since: new Date(until - range.ms).toISOString(), until: new Date(until).toISOString() };
  }, [range.key, q.t]);
  const filterKey = JSON.stringify(active);
  const tagFilter = q.tagKey && q.tagValue ? { filterTagKey: q.tagKey, filterTagValue: q.tagValue } : {};
  const base = useMemo(() => ({ ...win, ...Object.fromEntries(active), ...tagFilter }), [win, filterKey, q.tagKey, q.tagValue]);

  // Every series and the percentiles in one request: the daemon reads the window twice
  // instead of once per chart (bench/console_1m.sh).
  const data = useAsync(async () => {
    const overview = await api.get('/analytics/overview', { ...base, interval: range.interval });
    return { series: Object.fromEntries(METRICS.map((m) => [m, overview.series[m]])), latency: overview.latency, byKind: overview.latencyByKind || null };
  }, [base, range.interval]);
  const breakdown = useAsync(() => api.get('/analytics/breakdown', dim.startsWith('tag:')
    ? { ...base, dimension: 'tag', tagKey: dim.slice(4), limit: 20 } : { ...base, dimension: dim, limit: 20 }), [base, dim]);

  const d = data.data;
  const events = d ? sum(d.series.event_count) : 0;
  const errors = d ? sum(d.series.error_count) : 0;
  const times = useMemo(() => (d ? d.series.event_count.points.map((p) => new Date(p.ts).getTime()) : []), [d]);
  // Counts and sums come zero-filled, percentiles only where there were durations: each
  // series is read by bucket time, not by position.
  const vals = (m) => {
    if (!d) return [];
    const byTime = new Map(d.series[m].points.map((p) => [new Date(p.ts).getTime(), p.value === null ? null : Number(p.value)]));
    return times.map((t) => (byTime.has(t) ? byTime.get(t) : null));
  };
  const charts = useMemo(() => (d ? {
    events: [{ label: 'Events', values: vals('event_count'), color: '--c1' }, { label: 'Errors', values: vals('error_count'), color: '--c-err' }],
    tokens: [{ label: 'Tokens', values: vals('tokens'), color: '--c2' }],
    cost: [{ label: 'Cost (USD)', values: vals('cost_usd'), color: '--c3' }],
    latency: [{ label: 'p50', values: vals('latency_p50_ms'), color: '--c1' }, { label: 'p95', values: vals('latency_p95_ms'), color: '--c4' }],
  } : null), [d, times]);

  const rows = breakdown.data ? breakdown.data.rows : [];
  const maxEvents = Math.max(1, ...rows.map((r) => r.eventCount));
  const lat = d ? d.latency : null;
  const maxLat = lat && lat.max ? lat.max : 1;
  const filterBy = (key) => {
    if (dim.startsWith('tag:')) {
      setQuery({ tagKey: dim.slice(4), tagValue: key });
      return;
    }
    const name = filterNames.includes(dim) ? dim : null;
    if (name) setQuery({ [name]: key });
  };

  return html`<div class="page">
    <header class="page-head">
      <h1>Analytics</h1>
      <div class="head-right"><button type="button" class="btn" onClick=${() => setQuery({ t: Date.now() })}>Refresh</button></div>
    </header>
    <div class="toolbar" role="search" aria-label="Window and filters">
      <${Select} id="an-range" label="Time" value=${range.key} onChange=${(v) => setQuery({ range: v === '24h' ? '' : v })}
        options=${RANGES.map((r) => ({ value: r.key, label: r.label }))} />
      ${active.map(([k, v]) => html`<span class="filter-chip">${k} = <strong>${v}</strong>
        <button type="button" class="btn-icon btn-ghost" aria-label=${`Remove filter ${k}`} onClick=${() => setQuery({ [k]: '' })}><${Icon} name="close" size=${12} /></button></span>`)}
      ${q.tagKey && q.tagValue ? html`<span class="filter-chip">${q.tagKey} = <strong>${q.tagValue}</strong>
        <button type="button" class="btn-icon btn-ghost" aria-label=${`Remove filter ${q.tagKey}`} onClick=${() => setQuery({ tagKey: '', tagValue: '' })}><${Icon} name="close" size=${12} /></button></span>` : null}
      ${active.length || q.tagKey ? null : html`<span class="muted small">Click a breakdown row to filter by it.</span>`}
    </div>
    <${ErrorBox} error=${data.error || vocab.error} />
    ${!d ? html`<div class="center"><${Spinner} label="Loading analytics" /></div>` : html`
      <div class="tiles" role="list">
        <${Tile} label="Events" value=${short(events)} sub=${range.label.toLowerCase()} />
        <${Tile} label="Error rate" value=${events ? pct(errors / events) : '–'} sub=${`${num(errors)} errors`} kind=${errors ? 'err' : ''} />
        <${Tile} label="Tokens" value=${short(sum(d.series.tokens))} />
        <${Tile} label="Cost" value=${usd(sum(d.series.cost_usd))} />
        ${d.byKind ? html`
          <${Tile} label="LLM call p50" value=${d.byKind.llm && d.byKind.llm.p50 !== null ? ms(d.byKind.llm.p50) : '–'} sub=${d.byKind.llm && d.byKind.llm.p95 !== null ? `p95 ${ms(d.byKind.llm.p95)}` : 'no LLM call'} />
          <${Tile} label="Tool call p50" value=${d.byKind.tool && d.byKind.tool.p50 !== null ? ms(d.byKind.tool.p50) : '–'} sub=${d.byKind.tool && d.byKind.tool.p95 !== null ? `p95 ${ms(d.byKind.tool.p95)}` : 'no tool call'} />`
        : html`<${Tile} label="Latency p50" value=${lat && lat.p50 !== null ? ms(lat.p50) : '–'} sub=${lat && lat.p95 !== null ? `p95 ${ms(lat.p95)}` : 'no durations'} />`}
      </div>
      ${events === 0 ? html`<${Empty} title="No events in this window"><p>Publish events, or choose a longer window.</p></${Empty}>` : null}
      <div class="charts">
        <${TimeChart} id="ch-events" title="Events and errors" times=${times} series=${charts.events} format=${short} />
        <${TimeChart} id="ch-tokens" title="Tokens" times=${times} series=${charts.tokens} format=${short} />
        <${TimeChart} id="ch-cost" title="Cost" times=${times} series=${charts.cost} format=${usd} />
        <${TimeChart} id="ch-latency" title="Latency" times=${times} series=${charts.latency} format=${ms} />
      </div>
      <div class="grid-2">
        <section class="card" aria-labelledby="lat-title">
          <h2 id="lat-title" class="card-title">Latency percentiles</h2>
          ${lat && lat.count ? html`<table class="table dense" data-testid="latency-table">
            <caption class="sr-only">Latency percentiles of events with a duration</caption>
            <thead><tr><th scope="col">Percentile</th><th scope="col" class="num">Duration</th><th scope="col" class="bar-col"><span class="sr-only">Bar</span></th></tr></thead>
            <tbody>${['p50', 'p90', 'p95', 'p99', 'max'].map((k) => html`<tr><th scope="row">${k}</th><td class="num mono">${ms(lat[k])}</td>
              <td class="bar-col"><span class="hbar" style=${{ width: `${(lat[k] / maxLat) * 100}%` }}></span></td></tr>`)}</tbody>
          </table><p class="hint">${num(lat.count)} events with a duration (metadata.duration_ms).</p>`
          : html`<p class="muted">No event in this window carries a duration.</p>`}
          ${d.byKind ? html`<table class="table dense" data-testid="latency-by-kind">
            <caption class="sr-only">Latency percentiles by kind of call</caption>
            <thead><tr><th scope="col">Kind</th><th scope="col" class="num">p50</th><th scope="col" class="num">p95</th><th scope="col" class="num">p99</th></tr></thead>
            <tbody>${[['llm', 'LLM calls'], ['tool', 'Tool calls']].map(([k, label]) => {
              const v = d.byKind[k];
              return html`<tr><th scope="row">${label}</th>${['p50', 'p95', 'p99'].map((p) => html`<td class="num mono">${v && v[p] !== null && v[p] !== undefined ? ms(v[p]) : '–'}</td>`)}</tr>`;
            })}</tbody></table>` : null}
        </section>
        <section class="card" aria-labelledby="bd-title">
          <div class="card-head">
            <h2 id="bd-title" class="card-title">Breakdown</h2>
            <${Select} id="an-dim" label="By" value=${dim} onChange=${(v) => setQuery({ dim: v === 'model' ? '' : v })}
              options=${(vocab.data ? vocab.data.dims : ['model']).map((x) => ({ value: x, label: x }))} />
          </div>
          <${ErrorBox} error=${breakdown.error} />
          ${rows.length ? html`<table class="table dense clickable" data-testid="breakdown-table">
            <caption class="sr-only">${`Events by ${dim}`}</caption>
            <thead><tr><th scope="col">${dim}</th><th scope="col" class="num">Events</th><th scope="col" class="num">Errors</th>
              <th scope="col" class="num">Tokens</th><th scope="col" class="num">Cost</th><th scope="col" class="num">Avg</th></tr></thead>
            <tbody>${rows.map((r) => html`<tr tabindex="0" onClick=${() => filterBy(r.key)} onKeyDown=${(e) => { if (e.key === 'Enter') filterBy(r.key); }}>
              <td><span class="hbar-cell"><span class="hbar" style=${{ width: `${(r.eventCount / maxEvents) * 100}%` }}></span><span class="hbar-label">${r.key}</span></span></td>
              <td class="num">${num(r.eventCount)}</td>
              <td class="num">${r.errorCount ? html`<span class="err">${num(r.errorCount)}</span>` : '0'}</td>
              <td class="num">${short(r.totalTokens)}</td><td class="num">${usd(r.costUsd)}</td><td class="num">${r.avgDurationMs ? ms(r.avgDurationMs) : '–'}</td></tr>`)}</tbody>
          </table>` : breakdown.loading ? html`<${Spinner} />` : html`<p class="muted">No event in this window has a ${dim}.</p>`}
        </section>
      </div>`}
  </div>`;
}
