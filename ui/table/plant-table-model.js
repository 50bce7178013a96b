// The plant table's page rules that need no DOM: the next sort of a header click, how a
// cell looks, which rows to draw. What a filter box's text asks is the app's to read.

/** The sort after a click on column `column`'s header: ascending, descending, none. */
export function nextSort(sort, column) {
  if (sort?.column !== column) return { column, descending: false };
  return sort.descending ? null : { column, descending: true };
}

// A cell's kind letter (`tableRows`): its class, its text and its tooltip.
const CLASSES = { n: 'number', d: 'date', b: 'bool', t: 'text', e: 'empty', '-': 'missing' };

/** The class of a cell of kind letter `kind` (none for a row not read yet). */
export const cellClass = (kind) => CLASSES[kind] ?? '';

/** The text shown for a cell: a missing one and an empty one are unlike each other and any value. */
export const cellText = (kind, text) => (kind === '-' ? '—' : kind === 'e' ? 'empty' : text ?? '');

/** The tooltip of a cell showing `shown` (cellText). */
export const cellTitle = (kind, shown) => (kind === '-' ? 'This shell has no such element'
  : kind === 'e' ? 'The element is there, without a value' : shown);

/** The rows to draw for a viewport scrolled to `top` of height `height`, with some spare. */
export function rowWindow(top, height, rowHeight, total, spare = 10) {
  const start = Math.max(0, Math.floor(top / rowHeight) - spare);
  const end = Math.min(total, Math.ceil((top + height) / rowHeight) + spare);
  return { start, end: Math.max(start, end) };
}

/** A column picker line: `Nameplate/SerialNumber — 9,812 of 10,000`. */
export function offeredLabel(offered, shells) {
  const n = (x) => x.toLocaleString('en-US');
  return `${offered.column} — ${n(offered.shells)} of ${n(shells)}`;
}

/** Whether the picker's search `query` (words, any order) finds `offered`. */
export function offeredMatches(offered, query) {
  const text = `${offered.column} ${offered.semantic_id ?? ''} ${offered.model_type}`.toLowerCase();
  return (query ?? '').toLowerCase().split(/\s+/).filter(Boolean).every((w) => text.includes(w));
}
