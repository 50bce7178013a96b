// What the details pane shows of a node, per element type, read from its outline
// fields and its raw JSON. Free of the DOM so it can be unit-tested.

/** The raw JSON as an object, or null when it is not one (a node that failed to read). */
export function readRaw(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

/** "type (idType) value" lines of the keys of an AAS V2 Reference. */
export function keyLines(reference) {
  const keys = Array.isArray(reference?.keys) ? reference.keys : [];
  return keys.map((k) => `${k.type} (${k.idType}) ${k.value}`);
}

/** "3 × Property" lines: how many children of each model type, in order of first use. */
export function childSummary(modelTypes) {
  const counts = new Map();
  for (const type of modelTypes) {
    const name = type ?? '(unreadable)';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([type, n]) => `${n} × ${type}`);
}

/** The bytes a base64 text decodes to. */
export function base64Size(text) {
  const body = text.replace(/\s/g, '');
  return Math.floor((body.length * 3) / 4) - (body.match(/=+$/)?.[0].length ?? 0);
}

/**
 * `list` of `{language, text}` reordered so the first matching preference comes
 * first (exact tag before same primary language: "de-AT" then "de"), else as given.
 */
export function orderByLanguage(list, preferences) {
  const wanted = preferences.filter(Boolean).map((p) => p.toLowerCase());
  const rank = (language) => {
    const tag = (language ?? '').toLowerCase();
    const i = wanted.findIndex((p) => p === tag);
    if (i >= 0) return 2 * i;
    const j = wanted.findIndex((p) => p.split('-')[0] === tag.split('-')[0]);
    return j >= 0 ? 2 * j + 1 : 2 * wanted.length;
  };
  return [...list].sort((a, b) => rank(a.language) - rank(b.language));
}

// Element types whose raw JSON holds references, and under which field names.
const REFERENCES = {
  ReferenceElement: [['Keys', 'value']],
  RelationshipElement: [['First', 'first'], ['Second', 'second']],
  AnnotatedRelationshipElement: [['First', 'first'], ['Second', 'second']],
  Entity: [['Asset', 'asset']],
  BasicEvent: [['Observed', 'observed']],
};

function valueFields(data, raw) {
  switch (data.model_type) {
    case 'MultiLanguageProperty':
      return Array.isArray(raw.value) ? [{ name: 'Value', langs: raw.value }] : [{ name: 'Value', text: data.value }];
    case 'Range': // "min – max" as the Rust side wrote it, keeping the digits sent
      return [{ name: 'Value', text: data.value && (data.unit ? `${data.value} ${data.unit}` : data.value) }];
    case 'File':
      return [{ name: 'MIME type', text: raw.mimeType }, { name: 'Path', text: data.value }];
    case 'Blob':
      return [
        { name: 'MIME type', text: raw.mimeType },
        { name: 'Content', text: data.value ? `${base64Size(data.value)} bytes (base64)` : null },
      ];
    default:
      return [{ name: 'Value', text: data.value }];
  }
}

/**
 * The fields of a node's details, in order, each `{name}` with `text`, `langs`
 * ([{language, text}]) or `lines`; empty ones left out. `children` are the outline
 * nodes under it (loaded lazily for shells and submodels).
 */
export function detailFields(data, children = data.children ?? []) {
  const raw = readRaw(data.raw) ?? {};
  const fields = [
    { name: 'idShort', text: data.id_short },
    { name: 'Identifier', text: data.id },
    { name: 'Model type', text: data.model_type },
    ...valueFields(data, raw),
    { name: 'Value type', text: data.value_type },
    { name: 'Unit', text: data.model_type === 'Range' ? null : data.unit },
    { name: 'Entity type', text: data.model_type === 'Entity' ? raw.entityType : null },
    ...(REFERENCES[data.model_type] ?? []).map(([name, field]) => ({ name, lines: keyLines(raw[field]) })),
    { name: 'Semantic ID', text: data.semantic_id },
    { name: 'Kind', text: data.kind },
    { name: 'Qualifiers', text: data.qualifiers ? String(data.qualifiers) : null },
    { name: 'Description', langs: data.description },
    { name: 'Contains', lines: childSummary(children.map((c) => c.model_type)) },
  ];
  return fields.filter((f) => (f.langs ?? f.lines)?.length > 0 || (typeof f.text === 'string' && f.text !== ''));
}
