// What the details pane shows per element type: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64Size, childSummary, detailFields, keyLines, orderByLanguage, readRaw } from '../../ui/details-model.js';

// The outline node the Rust side sends for an element, with its raw JSON.
function outline(raw, fields = {}) {
  return {
    id_short: raw.idShort, model_type: raw.modelType?.name, kind: 'Instance', description: [],
    qualifiers: 0, children: [], raw: JSON.stringify(raw), error: null, ...fields,
  };
}

const asObject = (fields) => Object.fromEntries(fields.map((f) => [f.name, f.text ?? f.langs ?? f.lines]));

test('a Property shows value, value type, unit, semanticId, kind and qualifiers', () => {
  const data = outline(
    { idShort: 'ManufacturerName', modelType: { name: 'Property' }, valueType: 'string', value: 'Acme Tools Inc.' },
    { value: 'Acme Tools Inc.', value_type: 'string', unit: 'mm', semantic_id: '0173-1#02-AAO677#002', qualifiers: 2 },
  );
  assert.deepEqual(asObject(detailFields(data)), {
    idShort: 'ManufacturerName', 'Model type': 'Property', Value: 'Acme Tools Inc.', 'Value type': 'string',
    Unit: 'mm', 'Semantic ID': '0173-1#02-AAO677#002', Kind: 'Instance', Qualifiers: '2',
  });
  assert.deepEqual(detailFields(data).slice(0, 3).map((f) => f.name), ['idShort', 'Model type', 'Value']);
});

test('a MultiLanguageProperty and descriptions are language lists', () => {
  const texts = [{ language: 'en', text: 'Drill' }, { language: 'de', text: 'Bohrer' }];
  const data = outline({ idShort: 'Name', modelType: { name: 'MultiLanguageProperty' }, value: texts },
    { value: 'Drill (en); Bohrer (de)', description: [{ language: 'en', text: 'The name' }] });
  const fields = asObject(detailFields(data));
  assert.deepEqual(fields.Value, texts);
  assert.deepEqual(fields.Description, [{ language: 'en', text: 'The name' }]);
});

test('a Range shows min – max with its unit', () => {
  const data = outline({ idShort: 'T', modelType: { name: 'Range' }, valueType: 'double', min: 1.50, max: 20 },
    { value: '1.50 – 20', value_type: 'double', unit: '°C' });
  const fields = asObject(detailFields(data));
  assert.equal(fields.Value, '1.50 – 20 °C', 'the digits as sent');
  assert.equal(fields.Unit, undefined, 'the unit is in the value');
  assert.equal(asObject(detailFields({ ...data, unit: null })).Value, '1.50 – 20');
  assert.equal(asObject(detailFields({ ...data, value: null })).Value, undefined);
});

test('File and Blob show the MIME type from the raw JSON', () => {
  const file = outline({ idShort: 'Manual', modelType: { name: 'File' }, mimeType: 'application/pdf', value: '/aasx/manual.pdf' },
    { value: '/aasx/manual.pdf' });
  assert.deepEqual(asObject(detailFields(file)), {
    idShort: 'Manual', 'Model type': 'File', 'MIME type': 'application/pdf', Path: '/aasx/manual.pdf', Kind: 'Instance',
  });
  const blob = outline({ idShort: 'Logo', modelType: { name: 'Blob' }, mimeType: 'image/png', value: 'aGVsbG8=' }, { value: 'aGVsbG8=' });
  assert.equal(asObject(detailFields(blob))['MIME type'], 'image/png');
  assert.equal(asObject(detailFields(blob)).Content, '5 bytes (base64)');
});

test('reference elements, relationships and entities list their keys', () => {
  const ref = { keys: [
    { type: 'Submodel', local: true, value: 'urn:sm:1', idType: 'IRI' },
    { type: 'Property', local: true, value: 'Serial', idType: 'IdShort' },
  ] };
  const data = outline({ idShort: 'R', modelType: { name: 'ReferenceElement' }, value: ref }, { value: 'Serial' });
  assert.deepEqual(asObject(detailFields(data)).Keys, ['Submodel (IRI) urn:sm:1', 'Property (IdShort) Serial']);
  const rel = asObject(detailFields(outline({ idShort: 'Rel', modelType: { name: 'RelationshipElement' }, first: ref, second: { keys: [] } })));
  assert.equal(rel.First.length, 2);
  assert.equal(rel.Second, undefined, 'an empty reference is left out');
  const entity = asObject(detailFields(outline({ idShort: 'E', modelType: { name: 'Entity' }, entityType: 'SelfManagedEntity', asset: ref })));
  assert.equal(entity['Entity type'], 'SelfManagedEntity');
  assert.equal(entity.Asset.length, 2);
});

test('collections and entities summarise their children per model type', () => {
  const kids = ['Property', 'File', 'Property', undefined].map((t) => ({ model_type: t }));
  const data = outline({ idShort: 'C', modelType: { name: 'SubmodelElementCollection' }, value: [] }, { children: kids });
  assert.deepEqual(asObject(detailFields(data)).Contains, ['2 × Property', '1 × File', '1 × (unreadable)']);
  assert.deepEqual(childSummary([]), []);
  const aas = { id_short: 'M1', id: 'urn:aas:1', model_type: 'AssetAdministrationShell', children: [], raw: '{}' };
  assert.deepEqual(asObject(detailFields(aas, [{ model_type: 'Submodel' }])).Contains, ['1 × Submodel'], 'loaded submodels');
});

test('a node whose raw text is not JSON still shows its outline fields', () => {
  assert.equal(readRaw('{"a":1'), null);
  assert.equal(readRaw('"text"'), null);
  assert.deepEqual(readRaw('{"a":1}'), { a: 1 });
  const data = { id_short: null, model_type: 'Range', raw: 'garbage', error: 'bad', description: [], children: [] };
  assert.deepEqual(detailFields(data).map((f) => f.name), ['Model type']);
});

test('key lines tolerate a missing reference', () => {
  assert.deepEqual(keyLines(null), []);
  assert.deepEqual(keyLines({ keys: 'no' }), []);
});

test('the preferred language comes first, exact tag before its primary language', () => {
  const list = [{ language: 'en' }, { language: 'de' }, { language: 'de-AT' }, { language: 'fr' }];
  const order = (prefs) => orderByLanguage(list, prefs).map((l) => l.language);
  assert.deepEqual(order(['de-AT']), ['de-AT', 'de', 'en', 'fr']);
  assert.deepEqual(order(['fr', 'de']), ['fr', 'de', 'de-AT', 'en']);
  assert.deepEqual(order([null, 'FR-ca']), ['fr', 'en', 'de', 'de-AT'], 'case and region ignored, null skipped');
  assert.deepEqual(order(['ja']), ['en', 'de', 'de-AT', 'fr'], 'as given when none fits');
  assert.equal(list[0].language, 'en', 'the list itself is not reordered');
});

test('base64 size counts the decoded bytes', () => {
  assert.equal(base64Size(''), 0);
  assert.equal(base64Size('aGVsbG8='), 5);
  assert.equal(base64Size('aGVs\nbG8h'), 6);
  assert.equal(base64Size('aA=='), 1);
});
