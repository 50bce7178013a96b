// The whole-plant search as data, free of the DOM so it can be unit-tested: how a hit
// reads, where it is in the tree, the status line, and the arrow keys through the hits.

import { plural } from '../lib/format.js';
import { formatBytes, snapshotName } from './snapshot-model.js';

/** A shell's identifier made short for a row: what follows its last '#', '/' or ':'. */
export function shortAasId(id) {
  const tail = id.slice(Math.max(id.lastIndexOf('#'), id.lastIndexOf('/'), id.lastIndexOf(':')) + 1);
  return tail || id;
}

/**
 * A hit's place as its parts: the shell by the idShort the tree shows (its identifier
 * made short where the app names none), then the submodel and the element path.
 */
export function hitTrail(hit) {
  return [hit.id_short ?? shortAasId(hit.aas_id), ...(hit.submodel == null ? [] : [hit.submodel, ...hit.path])];
}

/** How much of a hit's value a row shows, in characters; the details pane has it all. */
export const HIT_VALUE_SHOWN = 200;

/**
 * A hit's value for its row: cut past HIT_VALUE_SHOWN characters, and when the store
 * holds only the start of a very long value (`value_length`), its whole size said.
 */
export function hitValue(hit) {
  const value = hit.value ?? '';
  const chars = [...value];
  const cut = chars.length > HIT_VALUE_SHOWN ? `${chars.slice(0, HIT_VALUE_SHOWN).join('')}…` : value;
  return hit.value_length == null ? cut : `${cut.endsWith('…') ? cut : `${cut}…`} (${formatBytes(hit.value_length)} in all)`;
}

/** Where a hit (or a change, which has the same fields) is in the tree. */
export function locationOf(entry) {
  return { aasId: entry.aas_id, assetType: entry.asset_type ?? null, submodel: entry.submodel, path: entry.path };
}

/**
 * The status line over the hits of `{snapshot, hits}` when at most `limit` were asked;
 * the snapshot's time to the second where one of `others` (the plant's) shares its minute.
 */
export function hitsStatus({ snapshot, hits }, limit, others = []) {
  const where = `in ${snapshotName(snapshot, others)}`;
  if (hits.length === 0) return `No hits ${where}`;
  if (hits.length >= limit) return `The first ${hits.length} hits ${where}: type more to narrow them`;
  return `${plural(hits.length, 'hit')} ${where}`;
}

/**
 * The hit made active by `key` from `index` (-1: none yet) among `count` hits; the
 * arrows wrap around. Null for a key the list does not handle.
 */
export function moveActive(index, key, count) {
  if (count === 0) return null;
  if (key === 'ArrowDown') return (index + 1) % count;
  if (key === 'ArrowUp') return index <= 0 ? count - 1 : index - 1;
  return null;
}
