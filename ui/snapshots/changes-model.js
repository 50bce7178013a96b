// The changes between two snapshots as data, free of the DOM so it can be unit-tested:
// counts and filter by kind, the table's cells, the marks on the newer snapshot's tree
// and where a change is in that tree.

import { plural } from '../lib/format.js';
import { shortAasId } from './plant-search-model.js';

export const KINDS = ['added', 'removed', 'changed'];
/** More rows than this are not drawn (the export has them all). */
export const MAX_ROWS = 2000;

/** `{added, removed, changed}`: how many changes of each kind. */
export function countByKind(changes) {
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const c of changes) counts[c.change] += 1;
  return counts;
}

/** The changes of the kinds in `kinds` (a Set), at most `max`: `{rows, more}`, `more` those left out. */
export function shownChanges(changes, kinds, max = MAX_ROWS) {
  const rows = [];
  let more = 0;
  for (const c of changes) {
    if (!kinds.has(c.change)) continue;
    if (rows.length < max) rows.push(c);
    else more += 1;
  }
  return { rows, more };
}

const shown = (value) => value ?? '(none)';

/** "old → new" of a changed value; the value an added or removed element had; '' for the rest. */
export function valueText(change) {
  if (change.change === 'changed') return change.old == null && change.new == null ? '' : `${shown(change.old)} → ${shown(change.new)}`;
  return (change.change === 'added' ? change.new : change.old) ?? '';
}

/** A change's table cells: kind, shell (short; `shellTitle` in full), submodel, path, values. */
export function changeCells(change) {
  return {
    kind: change.change,
    shell: shortAasId(change.aas_id),
    shellTitle: change.aas_id,
    submodel: change.submodel ?? '',
    path: change.path.join(' / '),
    values: valueText(change),
  };
}

/**
 * Where to show a change in the newer snapshot's tree: an added or changed node itself,
 * a removed one's parent (null for a removed shell, which has none there).
 */
export function openTarget(change) {
  const at = { aasId: change.aas_id, assetType: null, submodel: change.submodel, path: change.path };
  if (change.change !== 'removed') return at;
  if (change.submodel == null) return null;
  return change.path.length === 0 ? { ...at, submodel: null } : { ...at, path: change.path.slice(0, -1) };
}

// A node's place as [aasId, submodel, ...path] (the shell alone when submodel is null).
const chainOf = (aasId, submodel, path) => (submodel == null ? [aasId] : [aasId, submodel, ...path]);

/**
 * The marks of the newer snapshot's tree: a function of a node's `{aasId, submodel,
 * path}` giving `{kind, title}` (kind added, changed, or inside: changes below it, removed
 * ones included) or null.
 */
export function changeMarks(changes) {
  const own = new Map();
  const below = new Map();
  for (const c of changes) {
    const chain = chainOf(c.aas_id, c.submodel, c.path);
    if (c.change !== 'removed') {
      const values = valueText(c);
      own.set(JSON.stringify(chain), { kind: c.change, title: c.change === 'added' ? 'Added' : `Changed${values ? `: ${values}` : ''}` });
    }
    for (let depth = 1; depth < chain.length; depth += 1) {
      const key = JSON.stringify(chain.slice(0, depth));
      below.set(key, (below.get(key) ?? 0) + 1);
    }
  }
  return ({ aasId, submodel, path }) => {
    const key = JSON.stringify(chainOf(aasId, submodel, path));
    if (own.has(key)) return own.get(key);
    const n = below.get(key);
    return n ? { kind: 'inside', title: `${plural(n, 'change')} below` } : null;
  };
}
