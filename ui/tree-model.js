// The tree as data, free of the DOM so it can be unit-tested: nodes, which rows are
// visible, and where the keyboard moves the focus.

/**
 * A tree node. `load` (optional) fetches the children on first expand; nodes built
 * with `children` have them already.
 */
export function createNode({ key, label, kind, data = null, children = null, load = null }) {
  return {
    key, label, kind, data, load,
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

/** The rows on screen: each root, and the children of expanded nodes, in order. */
export function visibleRows(roots) {
  const rows = [];
  const walk = (nodes, depth) => {
    for (const node of nodes) {
      rows.push({ node, depth });
      if (node.expanded && node.children) walk(node.children, depth + 1);
    }
  };
  walk(roots, 1);
  return rows;
}

/**
 * The keyboard of a WAI-ARIA tree: returns `{index, action}` where action is
 * 'expand', 'collapse' or null (just move the focus to `index`).
 */
export function navigate(rows, index, key) {
  const last = rows.length - 1;
  const node = rows[index]?.node;
  switch (key) {
    case 'ArrowDown': return { index: Math.min(index + 1, last), action: null };
    case 'ArrowUp': return { index: Math.max(index - 1, 0), action: null };
    case 'Home': return { index: 0, action: null };
    case 'End': return { index: last, action: null };
    case 'ArrowRight':
      if (!node || !isExpandable(node)) return { index, action: null };
      if (!node.expanded) return { index, action: 'expand' };
      return { index: Math.min(index + 1, last), action: null };
    case 'ArrowLeft':
      if (node?.expanded) return { index, action: 'collapse' };
      if (node?.parent) return { index: rows.findIndex((r) => r.node === node.parent), action: null };
      return { index, action: null };
    default: return { index, action: null };
  }
}
