// The tree as data, free of the DOM so it can be unit-tested: nodes, which rows are
// shown, and where the keyboard moves the focus.

/**
 * A tree node. `load` (optional) fetches the children on first expand; nodes built
 * with `children` have them already. `checkable` nodes have an export checkbox.
 */
export function createNode({ label, data = null, children = null, load = null, checkable = false }) {
  return {
    label, data, load,
    children,
    expanded: false,
    state: 'idle', // idle | loading | loaded | error
    error: null,
    parent: null,
    checkable,
    checked: false,
  };
}

/** Makes `children` the node's children; checkable ones take over its tick. */
export function adopt(parent, children) {
  for (const child of children) {
    child.parent = parent;
    if (child.checkable) child.checked = parent.checked;
  }
  parent.children = children;
  return children;
}

const checkableChildren = (node) => (node.children ?? []).filter((c) => c.checkable);

/** 'checked', 'unchecked' or 'mixed' (some of its checkable children ticked). */
export function checkState(node) {
  const kids = checkableChildren(node);
  if (kids.length === 0) return node.checked ? 'checked' : 'unchecked';
  const states = new Set(kids.map(checkState));
  return states.size === 1 ? [...states][0] : 'mixed';
}

/** Ticks or unticks `node` with its whole subtree, and updates its ancestors. */
export function setChecked(node, checked) {
  const down = (n) => {
    n.checked = checked;
    for (const child of checkableChildren(n)) down(child);
  };
  down(node);
  for (let p = node.parent; p?.checkable; p = p.parent) p.checked = checkState(p) === 'checked';
}

/**
 * What is ticked below `roots`: `[{node, parts}]` with `parts` null for a whole node,
 * or the ticked checkable children of a partly ticked one.
 */
export function ticked(roots) {
  const out = [];
  for (const node of roots) {
    const state = checkState(node);
    if (state === 'checked') out.push({ node, parts: null });
    else if (state === 'mixed') out.push({ node, parts: checkableChildren(node).filter((c) => checkState(c) !== 'unchecked') });
  }
  return out;
}

export function isExpandable(node) {
  return node.load !== null || (node.children !== null && node.children.length > 0);
}

/**
 * Rows in display order, each `{node, depth, posinset, setsize, expandable, expanded}`
 * (depth and positions as ARIA counts them, from 1). The callbacks say which children
 * a node shows, whether it can expand and whether it is expanded.
 */
export function flatten(roots, { childrenOf, expandable, expanded }) {
  const rows = [];
  const walk = (nodes, depth) => nodes.forEach((node, i) => {
    const canExpand = expandable(node);
    const open = canExpand && expanded(node);
    rows.push({ node, depth, posinset: i + 1, setsize: nodes.length, expandable: canExpand, expanded: open });
    if (open) walk(childrenOf(node) ?? [], depth + 1);
  });
  walk(roots, 1);
  return rows;
}

/** The rows on screen without a filter: each root, and the children of expanded nodes. */
export function visibleRows(roots) {
  return flatten(roots, { childrenOf: (n) => n.children, expandable: isExpandable, expanded: (n) => n.expanded });
}

/**
 * The keyboard of a WAI-ARIA tree: returns `{index, action}` where action is
 * 'expand', 'collapse' or null (just move the focus to `index`), or null for a key
 * the tree does not handle. `page` is how many rows PageUp/PageDown move.
 */
export function navigate(rows, index, key, page = 1) {
  const last = rows.length - 1;
  const row = rows[index];
  const to = (i) => ({ index: Math.max(0, Math.min(i, last)), action: null });
  switch (key) {
    case 'ArrowDown': return to(index + 1);
    case 'ArrowUp': return to(index - 1);
    case 'PageDown': return to(index + page);
    case 'PageUp': return to(index - page);
    case 'Home': return to(0);
    case 'End': return to(last);
    case 'ArrowRight':
      if (!row?.expandable) return to(index);
      return row.expanded ? to(index + 1) : { index, action: 'expand' };
    case 'ArrowLeft': {
      if (row?.expanded) return { index, action: 'collapse' };
      let parent = index - 1; // the parent is the nearest row above that is less deep
      while (parent >= 0 && rows[parent].depth >= row.depth) parent -= 1;
      return to(parent >= 0 ? parent : index);
    }
    default: return null;
  }
}
