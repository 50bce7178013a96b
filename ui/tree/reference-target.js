// Where a reference's keys lead in the tree: from the shell that holds the referring
// node, a Submodel key by its identifier, then one idShort key per nesting level.
// Free of the DOM so it can be unit-tested.

function shellOf(node) {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}

function matches(node, key) {
  const data = node.data ?? {};
  return key.idType === 'IdShort' ? data.id_short === key.value : data.id === key.value;
}

/**
 * Follows `keys` from the shell of `from` through the children loaded so far.
 * Returns `{node, rest}`: the deepest node reached and the keys still to follow
 * (none when `node` is the target; some when `node`'s children are not loaded yet),
 * or null when a key matches none of the loaded children: the target is not in the tree.
 */
export function followKeys(from, keys) {
  if (!Array.isArray(keys) || keys.length === 0) return null;
  let node = shellOf(from);
  let rest = keys;
  // A reference may name the shell first; only targets in the referring shell are shown.
  if (rest[0].type === 'AssetAdministrationShell') {
    if (!matches(node, rest[0])) return null;
    rest = rest.slice(1);
  }
  while (rest.length > 0) {
    if (node.children === null) return node.load ? { node, rest } : null;
    const next = node.children.find((child) => matches(child, rest[0]));
    if (!next) return null;
    node = next;
    rest = rest.slice(1);
  }
  return { node, rest };
}

/**
 * The target node of `keys`, loading what lies on the way with `load(node)` (which
 * fills `node.children`); null when it is not in the tree.
 */
export async function findTarget(from, keys, load) {
  for (;;) {
    const reached = followKeys(from, keys);
    if (!reached) return null;
    if (reached.rest.length === 0) return reached.node;
    await load(reached.node);
    if (reached.node.children === null) return null; // the load failed
  }
}

/**
 * The keys that lead from a shell to the node at `submodel` (an idShort) and `path`
 * (the idShorts below it), for `followKeys` and `findTarget`; none for the shell itself.
 */
export function keysTo(submodel, path) {
  if (submodel == null) return [];
  const key = (type, value) => ({ type, local: true, value, idType: 'IdShort' });
  return [key('Submodel', submodel), ...path.map((idShort) => key('SubmodelElement', idShort))];
}
