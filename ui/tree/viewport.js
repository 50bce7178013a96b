// Arithmetic of the virtual tree (fixed row height): which rows a scroll position
// shows, and where to scroll to show a row. Free of the DOM so it can be unit-tested.

/** The rows [start, end) to render: those in the viewport, plus `overscan` each side. */
export function visibleRange({ scrollTop, viewportHeight, rowHeight, count, overscan = 0 }) {
  const top = Math.max(0, scrollTop);
  const end = Math.min(count, Math.ceil((top + viewportHeight) / rowHeight) + overscan);
  const start = Math.max(0, Math.floor(top / rowHeight) - overscan);
  return { start: Math.min(start, end), end };
}

/** The scrollTop that shows row `index` whole, moving as little as possible. */
export function revealOffset({ index, scrollTop, viewportHeight, rowHeight }) {
  const top = index * rowHeight;
  if (top < scrollTop || viewportHeight < rowHeight) return top;
  return Math.max(scrollTop, top + rowHeight - viewportHeight);
}

/**
 * Where row `index` at `depth` (1: a root) sits and how far it is indented, as plain
 * lengths for its inline style. Not CSS custom properties: WebKitGTK 2.50 kept ~4 KB
 * for every row put back into the list with a custom property set on it and read by
 * its style (27,000 rows scrolled into view: +230 MB; bench/README.md, "The app").
 */
export function rowBox({ index, depth, rowHeight, indent }) {
  return { top: `${index * rowHeight}px`, height: `${rowHeight}px`, paddingLeft: `${10 + (depth - 1) * indent}px` };
}

/** How far PageUp/PageDown move: a viewport less one row kept for context. */
export function pageRows(viewportHeight, rowHeight) {
  return Math.max(1, Math.floor(viewportHeight / rowHeight) - 1);
}
