// Row virtualisation for long lists of equal-height rows: which rows to put in the DOM.
// A 1,000-row waterfall costs ~15,000 elements, most of them off screen; creating them
// is what made a 2,000-event trace slow to open (bench/console.mjs). Only the rows that
// intersect the viewport, plus `overscan` on either side, are rendered; the caller keeps
// the others' place with margins, so the scroll height and every row's position stay
// what they would be with all rows rendered.
//
// The rows start at the top of the element in `ref`. Whichever ancestor scrolls, the
// window follows from that element's place in the viewport, re-read on every scroll
// (captured at the document, one read per animation frame) and resize.
import { useEffect, useLayoutEffect, useRef, useState } from './lib.js';

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

// The part of `count` rows of height `h` whose top is at `top` (viewport coordinates)
// that a viewport of height `vh` shows, widened by `overscan` rows: [start, end).
export function visibleRange(top, vh, h, count, overscan) {
  const start = clamp(Math.floor(-top / h) - overscan, 0, count);
  const end = clamp(Math.ceil((vh - top) / h) + overscan, start, count);
  return { start, end };
}

// {start, end, rowHeight}: the rows [start, end) to render. rowHeight is measured from
// the first rendered row (fallbackHeight before there is one).
export function useVirtualRows(ref, count, { overscan = 20, initial = 60, fallbackHeight = 29 } = {}) {
  const [view, setView] = useState({ start: 0, end: Math.min(count, initial), rowHeight: fallbackHeight });
  const latest = useRef(view);
  latest.current = view;
  const countRef = useRef(count);
  countRef.current = count;

  const measure = () => {
    const el = ref.current;
    if (!el) return;
    const row = el.querySelector(':scope > [role=row]');
    const h = (row && row.offsetHeight) || latest.current.rowHeight;
    const vh = window.innerHeight || document.documentElement.clientHeight;
    const { start, end } = visibleRange(el.getBoundingClientRect().top, vh, h, countRef.current, overscan);
    const v = latest.current;
    if (start !== v.start || end !== v.end || h !== v.rowHeight) setView({ start, end, rowHeight: h });
  };

  useLayoutEffect(measure, [count]);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          measure();
        });
      }
    };
    document.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
    };
  }, []);
  return { start: Math.min(view.start, count), end: Math.min(view.end, count), rowHeight: view.rowHeight };
}
