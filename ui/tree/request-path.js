// Which gateway request a tree node came from: the AAS id, the submodel idShort and the
// idShorts from the outermost collection down to the node.

export function requestOf(node) {
  const chain = [];
  for (let n = node; n; n = n.parent) chain.unshift(n);
  const aas = chain.find((n) => n.data?.model_type === 'AssetAdministrationShell');
  const submodelIndex = chain.findIndex((n) => n.data?.model_type === 'Submodel');
  if (!aas?.data?.id) return null;
  const submodel = submodelIndex >= 0 ? chain[submodelIndex].data.id_short : null;
  const path = submodelIndex >= 0 ? chain.slice(submodelIndex + 1).map((n) => n.data?.id_short) : [];
  if (path.some((p) => p == null)) return null; // an unreadable node has no idShort to ask for
  return { aasId: aas.data.id, submodel, path };
}
