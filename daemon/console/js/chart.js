// A uPlot time series that follows the theme and its container's width, with its data
// as a table underneath (for screen readers, for copying, and for tests).
import uPlot from '../vendor/uplot.mjs';
import { axisTime, bucketTime } from './format.js';
import { html, useEffect, useRef } from './lib.js';
import { onThemeChange } from './theme.js';

const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

// series: [{label, values, color (CSS variable), format}]; times in ms.
export function TimeChart({ title, times, series, height = 180, format = (v) => String(v), id }) {
  const box = useRef(null);
  const plot = useRef(null);
  useEffect(() => {
    const make = () => {
      if (plot.current) plot.current.destroy();
      const el = box.current;
      if (!el) return;
      const grid = { stroke: css('--grid'), width: 1 };
      const axis = { stroke: css('--fg-2'), grid, ticks: { stroke: css('--grid'), width: 1, size: 4 }, font: `11px ${css('--font')}` };
      const opts = {
        width: Math.max(240, el.clientWidth), height,
        // The legend names the values under the cursor: shown while the pointer is over
        // the plot (console.css), hidden rather than left with empty values otherwise.
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false }, points: { size: 6 } },
        scales: { x: { time: true } },
        // A 24-hour clock on the time axis, as everywhere else in the console.
        axes: [{ ...axis, values: (u, splits) => {
          const span = splits.length > 1 ? (splits[splits.length - 1] - splits[0]) * 1000 : 0;
          return splits.map((v) => axisTime(v * 1000, span));
        } }, { ...axis, size: 56, values: (u, vals) => vals.map((v) => format(v)) }],
        series: [{ label: 'Time', value: (u, v) => (v === null || v === undefined ? '' : bucketTime(v * 1000)) }, ...series.map((s) => ({
          label: s.label, stroke: css(s.color), width: 1.5,
          fill: series.length === 1 ? css(`${s.color}-fill`) || undefined : undefined,
          points: { show: times.length < 60, size: 4 },
          value: (u, v) => (v === null || v === undefined ? '–' : format(v)),
        }))],
      };
      plot.current = new uPlot(opts, [times.map((t) => t / 1000), ...series.map((s) => s.values)], el);
    };
    make();
    const ro = new ResizeObserver(() => {
      if (plot.current && box.current) plot.current.setSize({ width: Math.max(240, box.current.clientWidth), height });
    });
    ro.observe(box.current);
    const off = onThemeChange(make);
    return () => {
      ro.disconnect();
      off();
      if (plot.current) plot.current.destroy();
      plot.current = null;
    };
  }, [times, series]);
  return html`<figure class="chart" aria-labelledby=${`${id}-title`}>
    <figcaption id=${`${id}-title`} class="chart-title">${title}</figcaption>
    <div class="chart-plot" ref=${box} role="img" aria-label=${`${title}: chart; the same data is in the table below`}></div>
    <details class="chart-data">
      <summary>Data table</summary>
      <div class="table-wrap small-table"><table class="table dense" data-testid=${`${id}-table`}>
        <caption class="sr-only">${title}</caption>
        <thead><tr><th scope="col">Time</th>${series.map((s) => html`<th scope="col" class="num">${s.label}</th>`)}</tr></thead>
        <tbody>${times.map((t, i) => html`<tr><td>${bucketTime(t)}</td>
          ${series.map((s) => html`<td class="num">${s.values[i] === null || s.values[i] === undefined ? '–' : format(s.values[i])}</td>`)}</tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}
