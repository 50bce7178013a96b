// What the details pane shows of a node, per element type, read from its outline
// fields and its raw JSON (field names as in AAS V2.0.1). Free of the DOM so it can be
// unit-tested.

/** The raw JSON as an object, or null when it is not one (a node that failed to read). */
export function readRaw(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

/** The keys of an AAS V2 Reference, each `{type, local, idType, value}` as sent. */
export function referenceKeys(reference) {
  return Array.isArray(reference?.keys) ? reference.keys.filter((k) => k && typeof k === 'object') : [];
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

/** "512 bytes", "1 byte", "2.3 KiB (2,345 bytes)". */
export function byteSize(n) {
  const exact = `${n.toLocaleString('en')} ${n === 1 ? 'byte' : 'bytes'}`;
  if (n < 1024) return exact;
  const [unit, size] = n < 1024 ** 2 ? ['KiB', n / 1024] : ['MiB', n / 1024 ** 2];
  return `${size.toFixed(1)} ${unit} (${exact})`;
}

/** Whether a File's value is an address this app can hand to a browser. */
export function isWebAddress(text) {
  return /^https?:\/\/\S+$/i.test(text ?? '');
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

// Fields of the raw JSON that hold references, per model type, and their names here.
const REFERENCES = {
  AssetAdministrationShell: [['Asset', 'asset'], ['Derived from', 'derivedFrom']],
  Property: [['Value ID', 'valueId']],
  MultiLanguageProperty: [['Value ID', 'valueId']],
  ReferenceElement: [['Keys', 'value']],
  RelationshipElement: [['First', 'first'], ['Second', 'second']],
  AnnotatedRelationshipElement: [['First', 'first'], ['Second', 'second']],
  Entity: [['Asset', 'asset']],
  BasicEvent: [['Observed', 'observed']],
};

const VARIABLES = [['Input variables', 'inputVariable'], ['Output variables', 'outputVariable'],
  ['In/out variables', 'inoutputVariable']];

const yesNo = (v) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : null);
const langList = (v) => (Array.isArray(v) ? v : []);

/** A valueType in either shape servers send: "int" or {dataObjectType: {name: "int"}}. */
function typeName(valueType) {
  return typeof valueType === 'string' ? valueType : valueType?.dataObjectType?.name ?? null;
}

/** "Reason: Property (string)" per variable of an Operation. */
function variableLines(variables) {
  return (Array.isArray(variables) ? variables : []).map((v) => {
    const el = v?.value ?? {};
    const type = typeName(el.valueType);
    return `${el.idShort ?? '?'}: ${el.modelType?.name ?? '?'}${type ? ` (${type})` : ''}`;
  });
}

/** "Multiplicity = One (string)" per qualifier; a Formula by its dependencies. */
function qualifierLines(qualifiers) {
  return (Array.isArray(qualifiers) ? qualifiers : []).map((q) => {
    if (q?.modelType?.name === 'Formula') return `Formula over ${referenceCountText(q.dependsOn)}`;
    const type = typeName(q?.valueType);
    const valueId = referenceKeys(q?.valueId).map((k) => k.value).join(' / ');
    return `${q?.type ?? '?'} = ${q?.value ?? '(no value)'}${type ? ` (${type})` : ''}${valueId ? ` → ${valueId}` : ''}`;
  });
}

function referenceCountText(refs) {
  const n = Array.isArray(refs) ? refs.length : 0;
  return `${n} ${n === 1 ? 'reference' : 'references'}`;
}

function administration(admin) {
  if (!admin || typeof admin !== 'object') return null;
  const parts = [admin.version && `version ${admin.version}`, admin.revision && `revision ${admin.revision}`];
  return parts.filter(Boolean).join(', ') || null;
}

/** The IEC 61360 content of the first embedded data specification that has one. */
function iec61360(raw) {
  const specs = Array.isArray(raw.embeddedDataSpecifications) ? raw.embeddedDataSpecifications : [];
  return specs.map((s) => s?.dataSpecificationContent).find((c) => c && typeof c === 'object') ?? {};
}

/**
 * Why a File whose value is `path`, no web address, cannot be opened here: the service
 * serves elements, never files (its gateway has no route for them), and only http(s)
 * addresses are handed to a browser.
 */
export function unopenedFileNote(path) {
  if (!path) return 'The File names no path or address: there is no file to open.';
  if (/^[a-z][a-z0-9+.-]+:/i.test(path)) {
    return 'Not a web address: only http and https addresses are opened, so this app cannot open it.';
  }
  const where = /^\/?aasx\//i.test(path) ? 'A file inside the asset\'s AASX package' : 'A path on the asset\'s server';
  return `${where}: the AAS Master Data Access Service serves no files, so this app cannot open or save it. `
    + 'Copy the path to ask the asset\'s supplier for the file.';
}

// A web address opens in the browser; anything else says why it cannot be opened, and
// a path can be copied.
function fileFields(data, raw, inFile) {
  const path = raw.value ?? data.value;
  const fields = [{ name: 'MIME type', text: raw.mimeType ?? raw.contentType }];
  if (isWebAddress(path)) fields.push({ name: 'Address', text: path, action: 'open' });
  else if (inFile && path) fields.push({ name: 'Path', text: path, action: 'save' }); // in the package opened
  else fields.push({ name: 'Path', text: path || 'none', note: unopenedFileNote(path), action: path ? 'copy' : null });
  return fields;
}

function blobFields(data, raw, inFile) {
  if (inFile) {
    return [
      { name: 'MIME type', text: raw.mimeType ?? raw.contentType },
      { name: 'Size', text: data.value ?? 'empty', action: data.value ? 'save' : null },
    ];
  }
  const content = typeof raw.value === 'string' ? raw.value : data.value;
  return [
    { name: 'MIME type', text: raw.mimeType },
    { name: 'Size', text: content ? byteSize(base64Size(content)) : 'empty', action: content ? 'save' : null },
  ];
}

function valueFields(data, raw, inFile) {
  switch (data.model_type) {
    case 'MultiLanguageProperty':
      return Array.isArray(raw.value) ? [{ name: 'Value', langs: raw.value }] : [{ name: 'Value', text: data.value }];
    case 'Range': // "min – max" as the Rust side wrote it, keeping the digits sent
      return [{ name: 'Value', text: data.value && (data.unit ? `${data.value} ${data.unit}` : data.value) }];
    case 'File':
      return fileFields(data, raw, inFile);
    case 'Blob':
      return blobFields(data, raw, inFile);
    case 'ReferenceElement': // its target is in the Keys field
    case 'SubmodelElementCollection':
      return [];
    default:
      return [{ name: 'Value', text: data.value }];
  }
}

/**
 * The fields of a node's details, in order, each `{name}` with `text`, `langs`
 * ([{language, text}]), `lines` or `keys` (of a reference); a text may have a `note`
 * and an `action` ('save' a Blob, or a File of a file opened; 'open' a web address, 'copy'
 * a path). Empty ones are left out. `children` are the outline nodes under it (loaded
 * lazily for shells and submodels); `inFile`: the node is of an AAS file opened, whose
 * package holds its Files and whose outline gives a Blob's size as its value.
 */
export function detailFields(data, children = data.children ?? [], { inFile = false } = {}) {
  const raw = readRaw(data.raw) ?? {};
  const type = data.model_type;
  const spec = iec61360(raw);
  const fields = [
    { name: 'idShort', text: data.id_short },
    { name: 'Identifier', text: data.id },
    { name: 'Model type', text: type },
    { name: 'Category', text: raw.category },
    ...valueFields(data, raw, inFile),
    { name: 'Value type', text: data.value_type },
    { name: 'Unit', text: type === 'Range' ? null : data.unit },
    { name: 'Preferred name', langs: langList(spec.preferredName) },
    { name: 'Short name', langs: langList(spec.shortName) },
    { name: 'Data type', text: spec.dataType },
    { name: 'Definition', langs: langList(spec.definition) },
    { name: 'Entity type', text: type === 'Entity' ? raw.entityType : null },
    { name: 'Ordered', text: type === 'SubmodelElementCollection' ? yesNo(raw.ordered) : null },
    { name: 'Allows duplicates', text: type === 'SubmodelElementCollection' ? yesNo(raw.allowDuplicates) : null },
    ...(REFERENCES[type] ?? []).map(([name, field]) => ({ name, keys: referenceKeys(raw[field]) })),
    ...(type === 'Operation' ? VARIABLES.map(([name, field]) => ({ name, lines: variableLines(raw[field]) })) : []),
    { name: 'Semantic ID', text: data.semantic_id },
    { name: 'Kind', text: data.kind },
    { name: 'Administration', text: administration(raw.administration) },
    { name: 'Qualifiers', lines: qualifierLines(raw.qualifiers) },
    { name: 'Description', langs: data.description },
    { name: 'Contains', lines: type === 'Operation' ? [] : childSummary(children.map((c) => c.model_type)) },
  ];
  return fields.filter((f) => (f.langs ?? f.lines ?? f.keys)?.length > 0 || (typeof f.text === 'string' && f.text !== ''));
}

/**
 * What the submodel templates call a semanticId (`{name, templates}`, api.conceptNames'
 * answer) in words: "ManufacturerName (Digital Nameplate 1.0, 2.0, 3.0)"; each
 * template's versions together.
 */
export function conceptText({ name, templates }) {
  const versions = new Map();
  for (const title of templates) {
    const cut = title.lastIndexOf(' ');
    const [template, version] = cut > 0 ? [title.slice(0, cut), title.slice(cut + 1)] : [title, ''];
    versions.set(template, [...(versions.get(template) ?? []), version].filter(Boolean));
  }
  const named = [...versions].map(([template, list]) => (list.length ? `${template} ${list.join(', ')}` : template));
  return `${name} (${named.join('; ')})`;
}
