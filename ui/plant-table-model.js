// The plant table's rules that need no page: what a filter box's text asks, the next
// sort of a header click, where a cell's element is, which rows to draw.

/**
 * The filter `text` (typed in a column's filter box) asks of column `column`:
 * `=` empty or missing, `!=` has a value, `=X` equals, `>=X` at least, `<=X` at most,
 * `~X` or plain `X` contains; null for an empty box.
 */
export function parseFilter(text, column) {
  const t = (text ?? '').trim();
  if (t === '') return null;
  const test = t === '=' ? 'empty'
    : t === '!=' ? 'not_empty'
    : t.startsWith('>=') ? { at_least: t.slice(2).trim() }
    : t.startsWith('<=') ? { at_most: t.slice(2).trim() }
    : t.startsWith('=') ? { equals: t.slice(1).trim() }
    : t.startsWith('~') ? { contains: t.slice(1).trim() }
    : { contains: t };
  return { column, test };
}

/** The sort after a click on column `column`'s header: ascending, descending, none. */
export function nextSort(sort, column) {
  if (sort?.column !== column) return { column, descending: false };
  return sort.descending ? null : { column, descending: true };
}

/**
 * Where the element of a cell is, as the tree opens it: `{submodel, path}` (a column
 * by path says it; a column by semanticId's cell says where it found it), or
 * `{submodel: null, path: []}` for the shell's own fields.
 */
export function elementAt(column, cell) {
  const where = column.startsWith('semanticId:') ? cell?.at : column.startsWith('shell:') ? null : column;
  if (!where) return { submodel: null, path: [] };
  const [submodel, ...path] = where.split('/');
  return { submodel, path };
}

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
