// Small display helpers shared by the tree and the details pane.

const BADGES = {
  AssetAdministrationShell: ['AAS', 'b-aas'],
  Submodel: ['SM', 'b-sm'],
  Property: ['Prop', 'b-prop'],
  MultiLanguageProperty: ['MLP', 'b-prop'],
  Range: ['Range', 'b-prop'],
  File: ['File', 'b-file'],
  Blob: ['Blob', 'b-file'],
  ReferenceElement: ['Ref', 'b-ref'],
  RelationshipElement: ['Rel', 'b-ref'],
  AnnotatedRelationshipElement: ['Rel', 'b-ref'],
  SubmodelElementCollection: ['SMC', 'b-coll'],
  Entity: ['Entity', 'b-coll'],
  Operation: ['Op', 'b-op'],
  Capability: ['Cap', 'b-op'],
  BasicEvent: ['Event', 'b-op'],
};

/** The short badge text and its CSS class for a `modelType.name`. */
export function badgeFor(modelType) {
  const [text, css] = BADGES[modelType] ?? [modelType ? modelType.slice(0, 4) : '?', 'b-other'];
  return { text, css };
}

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}
