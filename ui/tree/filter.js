// The tree filter, free of the DOM: which loaded nodes match a query (idShort, value,
// semanticId, description; case-insensitive), the rows that show them with their
// ancestors, and where the hits are in a text, for highlighting.

import { flatten } from './tree-model.js';

/** A case-insensitive matcher for the literal text `query`, or null for a blank query. */
export function matcher(query) {
  const text = query.trim();
  return text ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu') : null;
}

export function nodeMatches(node, re) {
  const data = node.data ?? {};
  const texts = [node.label, data.value, data.semantic_id, ...(data.description ?? []).map((d) => d.text)];
  return texts.some((t) => typeof t === 'string' && t.search(re) >= 0);
}

/**
 * The rows of the filtered tree: every loaded node that matches, under its ancestors,
 * which are shown expanded unless in `folded` (nodes the user collapsed meanwhile).
 * Returns `{rows, matches}`, matches counting every matching node, folded or not.
 */
export function filterRows(roots, re, folded = new Set()) {
  const kept = new Map(); // node -> its children that match or lead to a match
  let matches = 0;
  const keep = (node) => {
    const children = (node.children ?? []).filter(keep);
    const hit = nodeMatches(node, re);
    if (hit) matches += 1;
    if (hit || children.length > 0) kept.set(node, children);
    return kept.has(node);
  };
  const rows = flatten(roots.filter(keep), {
    childrenOf: (n) => kept.get(n),
    expandable: (n) => kept.get(n).length > 0,
    expanded: (n) => !folded.has(n),
  });
  return { rows, matches };
}

/** `text` cut into `{text, hit}` parts, hit marking each match of `re`. */
export function highlight(text, re) {
  if (!re) return [{ text, hit: false }];
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), hit: false });
    parts.push({ text: m[0], hit: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), hit: false });
  return parts;
}
