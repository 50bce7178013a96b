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

/** How far PageUp/PageDown move: a viewport less one row kept for context. */
export function pageRows(viewportHeight, rowHeight) {
  return Math.max(1, Math.floor(viewportHeight / rowHeight) - 1);
}
