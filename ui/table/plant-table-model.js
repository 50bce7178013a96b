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

/** Whether the picker's search `query` (words, any order) finds `offered` (a join by its paths too). */
export function offeredMatches(offered, query) {
  const text = `${offered.column} ${offered.semantic_id ?? ''} ${offered.model_type} ${(offered.joins ?? []).join(' ')}`.toLowerCase();
  return (query ?? '').toLowerCase().split(/\s+/).filter(Boolean).every((w) => text.includes(w));
}

const isPath = (column) => !column.startsWith('semanticId:') && !column.startsWith('shell:');

/** The element's name of column `c` (`{column, name?}`): the name the app gave, else the path's last idShort. */
const columnName = (c) => c.name ?? (isPath(c.column) ? c.column.split('/').at(-1) : c.column);

/**
 * The table's headers for `columns` (`{column, name, unit, semantic_id}`): each the
 * element's name (with its unit), and where two columns have the same name, `where`:
 * the part of the path that tells them apart (`Address`, `AddressInformation`);
 * `title`: the whole column and its semanticId, shown on hover.
 */
export function headers(columns) {
  const names = columns.map(columnName);
  const parents = columns.map((c) => (isPath(c.column) ? c.column.split('/').slice(0, -1) : null));
  return columns.map((c, i) => {
    const twins = names.map((n, j) => j).filter((j) => j !== i && names[j] === names[i]);
    let where = '';
    if (twins.length) {
      const parent = parents[i];
      if (!parent) where = c.column.startsWith('semanticId:') ? 'semanticId' : 'shell';
      else if (twins.some((j) => parents[j]?.at(-1) === parent.at(-1))) where = parent.join('/');
      else where = parent.at(-1);
    }
    const text = c.unit ? `${names[i]} [${c.unit}]` : names[i];
    const title = [c.column, c.semantic_id && `semanticId ${c.semantic_id}`, 'Click to sort'].filter(Boolean).join('\n');
    return { text, where, title };
  });
}

/**
 * The columns one semanticId column would join: paths with the same element name and
 * the same semanticId (`Nameplate/Address/CityTown` of a ZVEI nameplate and
 * `Nameplate/AddressInformation/CityTown` of an IDTA 3.0 one). Each join: `{column:
 * 'semanticId:ID', name, semantic_id, joins: [the paths' columns], least, most}`, in the
 * order its first path comes; none for a semanticId column `columns` has already. The
 * census counts each path's shells, not which: a shell may have two of the paths, so
 * the shells the join finds something in are known only to be `least` (the most any
 * path has) to `most` (the paths' shells added up, at most `total`).
 */
export function joinable(columns, total = Infinity) {
  const groups = new Map();
  for (const c of columns) {
    if (!c.semantic_id || !isPath(c.column)) continue;
    const key = `${columnName(c)}\n${c.semantic_id}`;
    if (!groups.has(key)) groups.set(key, []);
    if (!groups.get(key).some((o) => o.column === c.column)) groups.get(key).push(c);
  }
  const shown = new Set(columns.map((c) => c.column));
  return [...groups.values()]
    .filter((g) => g.length > 1 && !shown.has(`semanticId:${g[0].semantic_id}`))
    .map((g) => ({
      column: `semanticId:${g[0].semantic_id}`,
      name: columnName(g[0]),
      semantic_id: g[0].semantic_id,
      model_type: g[0].model_type,
      joins: g.map((c) => c.column),
      least: Math.max(...g.map((c) => c.shells ?? 0)),
      most: Math.min(total, g.reduce((n, c) => n + (c.shells ?? 0), 0)),
    }));
}

/**
 * A join's line in the picker: `CityTown by semanticId — joins Nameplate/Address/CityTown
 * and … — 2 to 3 of 3`, its shells exact where `least` and `most` meet (see `joinable`).
 */
export function joinLabel(join, shells) {
  const n = (x) => x.toLocaleString('en-US');
  const paths = join.joins.length === 2 ? join.joins.join(' and ') : `${join.joins.slice(0, -1).join(', ')} and ${join.joins.at(-1)}`;
  const found = join.least === join.most ? n(join.most) : `${n(join.least)} to ${n(join.most)}`;
  return `${join.name} by semanticId — joins ${paths} — ${found} of ${n(shells)}`;
}

/** A join's tooltip in the picker: what its column shows, and why its shells may be a span. */
export function joinTitle(join) {
  const what = `One column, ${join.column}: each shell's first element with this semanticId`;
  return join.least === join.most ? what
    : `${what}\n${join.least} to ${join.most}: the census counts each path's shells, and a shell with two of them counts once`;
}

/** The columns after joining `join`'s paths: its semanticId column where the first of them was. */
export function joined(columns, join) {
  const at = columns.findIndex((c) => join.joins.includes(c));
  if (at < 0) return [...columns, join.column];
  return columns.flatMap((c, i) => (i === at ? [join.column] : join.joins.includes(c) ? [] : [c]));
}
