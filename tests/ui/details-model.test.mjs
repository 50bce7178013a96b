// What the details pane shows per element type: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  base64Size, byteSize, childSummary, conceptText, detailFields, isWebAddress, orderByLanguage, readRaw, referenceKeys, unopenedFileNote,
} from '../../ui/details/details-model.js';

// The outline node the Rust side sends for an element, with its raw JSON.
function outline(raw, fields = {}) {
  return {
    id_short: raw.idShort, model_type: raw.modelType?.name, kind: 'Instance', description: [],
    qualifiers: 0, children: [], raw: JSON.stringify(raw), error: null, ...fields,
  };
}

const asObject = (fields) => Object.fromEntries(fields.map((f) => [f.name, f.text ?? f.langs ?? f.lines ?? f.keys]));
const fieldNamed = (data, name) => detailFields(data).find((f) => f.name === name);

test('a Property shows value, value type, unit, semanticId and kind', () => {
  const data = outline(
    { idShort: 'ManufacturerName', modelType: { name: 'Property' }, valueType: 'string', value: 'Acme Tools Inc.' },
    { value: 'Acme Tools Inc.', value_type: 'string', unit: 'mm', semantic_id: '0173-1#02-AAO677#002', qualifiers: 2 },
  );
  assert.deepEqual(asObject(detailFields(data)), {
    idShort: 'ManufacturerName', 'Model type': 'Property', Value: 'Acme Tools Inc.', 'Value type': 'string',
    Unit: 'mm', 'Semantic ID': '0173-1#02-AAO677#002', Kind: 'Instance',
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

test('a File that cannot be opened says why, its path can be copied; a web address can be opened', () => {
  const file = outline({ idShort: 'Manual', modelType: { name: 'File' }, mimeType: 'application/pdf', value: '/aasx/manual.pdf' },
    { value: '/aasx/manual.pdf' });
  assert.deepEqual(asObject(detailFields(file)), {
    idShort: 'Manual', 'Model type': 'File', 'MIME type': 'application/pdf', Path: '/aasx/manual.pdf', Kind: 'Instance',
  });
  assert.match(fieldNamed(file, 'Path').note, /^A file inside the asset's AASX package: .* serves no files, so this app cannot open or save it/);
  assert.equal(fieldNamed(file, 'Path').action, 'copy');
  assert.match(unopenedFileNote('docs/manual.pdf'), /^A path on the asset's server: /);
  assert.match(unopenedFileNote('ftp://x.example/m.pdf'), /^Not a web address: only http and https/);
  const none = outline({ idShort: 'Manual', modelType: { name: 'File' }, mimeType: 'application/pdf' });
  assert.deepEqual(fieldNamed(none, 'Path'),
    { name: 'Path', text: 'none', note: 'The File names no path or address: there is no file to open.', action: null });
  const web = outline({ idShort: 'Manual', modelType: { name: 'File' }, mimeType: 'application/pdf', value: 'https://x.example/m.pdf' });
  assert.deepEqual(fieldNamed(web, 'Address'), { name: 'Address', text: 'https://x.example/m.pdf', action: 'open' });
  assert.equal(fieldNamed(web, 'Path'), undefined);
});

test('a Blob shows its MIME type and decoded size, and can be saved', () => {
  const blob = outline({ idShort: 'Logo', modelType: { name: 'Blob' }, mimeType: 'image/png', value: 'aGVsbG8=' }, { value: 'aGVsbG8=' });
  assert.equal(asObject(detailFields(blob))['MIME type'], 'image/png');
  assert.deepEqual(fieldNamed(blob, 'Size'), { name: 'Size', text: '5 bytes', action: 'save' });
  assert.equal(fieldNamed(blob, 'Value'), undefined, 'the base64 text is not shown as a value');
  const empty = outline({ idShort: 'E', modelType: { name: 'Blob' }, mimeType: 'image/png' });
  assert.deepEqual(fieldNamed(empty, 'Size'), { name: 'Size', text: 'empty', action: null });
});

test('sizes and web addresses', () => {
  assert.equal(byteSize(1), '1 byte');
  assert.equal(byteSize(1023), '1,023 bytes');
  assert.equal(byteSize(2345), '2.3 KiB (2,345 bytes)');
  assert.equal(byteSize(3 * 1024 * 1024), '3.0 MiB (3,145,728 bytes)');
  assert.ok(isWebAddress('HTTPS://x.example/a'));
  assert.ok(!isWebAddress('/aasx/a.pdf'));
  assert.ok(!isWebAddress('file:///etc/passwd'));
  assert.ok(!isWebAddress(null));
});

test('reference elements, relationships, events and entities show their keys', () => {
  const ref = { keys: [
    { type: 'Submodel', local: true, value: 'urn:sm:1', idType: 'IRI' },
    { type: 'Property', local: true, value: 'Serial', idType: 'IdShort' },
  ] };
  const data = outline({ idShort: 'R', modelType: { name: 'ReferenceElement' }, value: ref }, { value: 'Serial' });
  assert.deepEqual(asObject(detailFields(data)).Keys, ref.keys);
  assert.equal(asObject(detailFields(data)).Value, undefined, 'the target is in the keys');
  const rel = asObject(detailFields(outline({ idShort: 'Rel', modelType: { name: 'RelationshipElement' }, first: ref, second: { keys: [] } })));
  assert.equal(rel.First.length, 2);
  assert.equal(rel.Second, undefined, 'an empty reference is left out');
  const event = asObject(detailFields(outline({ idShort: 'Ev', modelType: { name: 'BasicEvent' }, observed: ref })));
  assert.equal(event.Observed.length, 2);
  const entity = asObject(detailFields(outline({ idShort: 'E', modelType: { name: 'Entity' }, entityType: 'SelfManagedEntity', asset: ref })));
  assert.equal(entity['Entity type'], 'SelfManagedEntity');
  assert.equal(entity.Asset.length, 2);
  const withValueId = outline({ idShort: 'P', modelType: { name: 'Property' }, valueId: ref });
  assert.equal(asObject(detailFields(withValueId))['Value ID'].length, 2);
});

test('an Operation lists its variables by direction, not as children', () => {
  const variable = (idShort, valueType) => ({ value: { idShort, modelType: { name: 'Property' }, valueType } });
  const data = outline({
    idShort: 'Op', modelType: { name: 'Operation' },
    inputVariable: [variable('Reason', 'string'), variable('Priority', { dataObjectType: { name: 'int' } })],
    outputVariable: [{ value: { idShort: 'Done', modelType: { name: 'Capability' } } }],
    inoutputVariable: [],
  }, { children: [{ model_type: 'Property' }, { model_type: 'Property' }, { model_type: 'Capability' }] });
  const fields = asObject(detailFields(data));
  assert.deepEqual(fields['Input variables'], ['Reason: Property (string)', 'Priority: Property (int)']);
  assert.deepEqual(fields['Output variables'], ['Done: Capability']);
  assert.equal(fields['In/out variables'], undefined);
  assert.equal(fields.Contains, undefined);
});

test('IEC 61360 names, qualifiers, category and administration', () => {
  const data = outline({
    idShort: 'Weight', modelType: { name: 'Property' }, category: 'PARAMETER', valueType: 'double', value: '12.5',
    administration: { version: '1', revision: '0' },
    qualifiers: [
      { modelType: { name: 'Qualifier' }, type: 'Multiplicity', valueType: 'string', value: 'One' },
      { modelType: { name: 'Formula' }, dependsOn: [{ keys: [] }] },
    ],
    embeddedDataSpecifications: [{ dataSpecificationContent: {
      preferredName: [{ language: 'en', text: 'Weight' }, { language: 'de', text: 'Gewicht' }],
      unit: 'kg', dataType: 'REAL_MEASURE',
    } }],
  }, { value: '12.5', value_type: 'double', unit: 'kg', qualifiers: 2 });
  const fields = asObject(detailFields(data));
  assert.deepEqual(fields['Preferred name'].map((l) => l.text), ['Weight', 'Gewicht']);
  assert.equal(fields.Unit, 'kg');
  assert.equal(fields['Data type'], 'REAL_MEASURE');
  assert.equal(fields.Category, 'PARAMETER');
  assert.equal(fields.Administration, 'version 1, revision 0');
  assert.deepEqual(fields.Qualifiers, ['Multiplicity = One (string)', 'Formula over 1 reference']);
});

test('collections and entities summarise their children per model type', () => {
  const kids = ['Property', 'File', 'Property', undefined].map((t) => ({ model_type: t }));
  const data = outline({ idShort: 'C', modelType: { name: 'SubmodelElementCollection' }, ordered: false, allowDuplicates: true, value: [] },
    { children: kids });
  const fields = asObject(detailFields(data));
  assert.deepEqual(fields.Contains, ['2 × Property', '1 × File', '1 × (unreadable)']);
  assert.equal(fields.Ordered, 'no');
  assert.equal(fields['Allows duplicates'], 'yes');
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

test('reference keys tolerate a missing or malformed reference', () => {
  assert.deepEqual(referenceKeys(null), []);
  assert.deepEqual(referenceKeys({ keys: 'no' }), []);
  assert.deepEqual(referenceKeys({ keys: [null, { type: 'Submodel' }] }), [{ type: 'Submodel' }]);
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

test('in a file opened, a File of its package and a Blob are offered to save', () => {
  const file = { model_type: 'File', id_short: 'Manual', value: '/aasx/suppl/manual.pdf', raw: '<file/>' };
  const path = detailFields(file, [], { inFile: true }).find((f) => f.name === 'Path');
  assert.deepEqual([path.text, path.action, path.note], ['/aasx/suppl/manual.pdf', 'save', undefined]);
  // From the service the same path cannot be had: it says why and offers to copy it.
  assert.equal(detailFields(file).find((f) => f.name === 'Path').action, 'copy');
  const blob = { model_type: 'Blob', id_short: 'Logo', value: '2048 bytes', raw: '<blob/>' };
  const size = detailFields(blob, [], { inFile: true }).find((f) => f.name === 'Size');
  assert.deepEqual([size.text, size.action], ['2048 bytes', 'save']);
});

test('conceptText names the concept and each template once, its versions together', () => {
  assert.equal(
    conceptText({ name: 'ManufacturerName', templates: ['Digital Nameplate 1.0', 'Digital Nameplate 2.0', 'Technical Data 1.2'] }),
    'ManufacturerName (Digital Nameplate 1.0, 2.0; Technical Data 1.2)',
  );
  assert.equal(conceptText({ name: 'X', templates: ['Solo'] }), 'X (Solo)');
});
