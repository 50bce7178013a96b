// What the file banner says of a file opened: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { fileBannerText, readingText } = await import('../../ui/shell/open-file.js');

const opened = (parts, shells, submodels) => ({ file: 3, name: 'pump.aasx', asset_types: [], shells, submodels, parts });

test('the banner names the file, how it is written and what it holds', () => {
  const xml = { name: '/aasx/pump.xml', version: '3.0', serialisation: 'xml' };
  assert.equal(fileBannerText(opened([xml], 1, 5)), 'File pump.aasx (AAS V3.0 XML): 1 shell, 5 submodels. Read-only.');
  // Parts written alike are named once; a JSON part names no version beyond V3.
  const json = { name: '/aasx/more.json', version: '3', serialisation: 'json' };
  assert.equal(fileBannerText(opened([xml, xml, json], 2, 1)),
    'File pump.aasx (AAS V3.0 XML, AAS V3 JSON): 2 shells, 1 submodel. Read-only.');
  assert.equal(fileBannerText(opened([], 0, 0)), 'File pump.aasx: 0 shells, 0 submodels. Read-only.');
});

test('a file shown while it is read says how far, then that its submodels are still read', () => {
  assert.equal(readingText({ name: 'big.aasx', read: 120_400_000, size: 1_046_300_000, done: false }),
    'Opening big.aasx: 11% read');
  assert.equal(readingText({ name: 'empty.json', read: 0, size: 0, done: false }), 'Opening empty.json: 0% read');
  assert.equal(fileBannerText({ ...opened([], 3, 0), complete: false }),
    'File pump.aasx: 3 shells, its submodels being read. Read-only.');
});

test('a file taken in says which snapshot holds it and what reads it', () => {
  const xml = { name: '/aasx/pump.xml', version: '3.0', serialisation: 'xml' };
  const taken = { ...opened([xml], 1, 5), taken: { id: 12, plant: 'pump.aasx', store: 'here' } };
  assert.equal(fileBannerText(taken),
    'File pump.aasx (AAS V3.0 XML): 1 shell, 5 submodels. Read-only. Taken in as snapshot 12: search, Changes, Table and Quality read it.');
});

test('a V3 server read is named by its address, and a partial reading says what is missing', () => {
  const server = {
    file: 4, kind: 'v3_server', name: 'http://127.0.0.1:8081/api/v3.0', asset_types: [], shells: 3, submodels: 6,
    parts: [], failures: [], complete: true,
  };
  assert.equal(fileBannerText(server), 'V3 server http://127.0.0.1:8081/api/v3.0: 3 shells, 6 submodels, as read now. Read-only.');
  const failed = { ...server, complete: false, failures: ['http://127.0.0.1:8081/api/v3.0/submodels/dXJu: the server does not hold it (HTTP 404)'] };
  assert.equal(fileBannerText(failed), 'V3 server http://127.0.0.1:8081/api/v3.0: 3 shells, 6 submodels, as read now. Read-only. '
    + 'Partial: http://127.0.0.1:8081/api/v3.0/submodels/dXJu: the server does not hold it (HTTP 404).');
  assert.match(fileBannerText({ ...server, complete: false }), /Partial: the reading was stopped\.$/);
  // Its shells, shown while their submodels are read: not called partial.
  assert.equal(fileBannerText({ ...server, submodels: 0, complete: false, reading: true }),
    'V3 server http://127.0.0.1:8081/api/v3.0: 3 shells, their submodels being read. Read-only.');
});

test('properties a newer writer added are named, the first of them, and counted', () => {
  const json = { name: 'newer.json', version: '3', serialisation: 'json' };
  const newer = { ...opened([json], 1, 1), unknown: ['submodels[0].futureField'], unknown_count: 1 };
  assert.equal(fileBannerText(newer), 'File pump.aasx (AAS V3 JSON): 1 shell, 1 submodel. Read-only. '
    + "1 property no AAS version known here has (a newer writer's?), kept as read in Raw JSON: submodels[0].futureField.");
  const many = { ...newer, unknown: ['a.x', 'b.y'], unknown_count: 30 };
  assert.match(fileBannerText(many), /30 properties .*: a\.x, b\.y and 28 more\.$/);
  assert.doesNotMatch(fileBannerText({ ...newer, unknown: [], unknown_count: 0 }), /property/);
});
