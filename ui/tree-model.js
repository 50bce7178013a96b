// The tree as data, free of the DOM so it can be unit-tested: nodes, which rows are
// shown, and where the keyboard moves the focus.

/**
 * A tree node. `load` (optional) fetches the children on first expand; nodes built
 * with `children` have them already.
 */
export function createNode({ label, data = null, children = null, load = null }) {
  return {
    label, data, load,
    children,
    expanded: false,
    state: 'idle', // idle | loading | loaded | error
    error: null,
    parent: null,
  };
}

export function adopt(parent, children) {
  for (const child of children) child.parent = parent;
  parent.children = children;
  return children;
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
