// Where a reference's keys lead in the tree: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adopt, createNode } from '../../ui/tree/tree-model.js';
import { findTarget, followKeys } from '../../ui/tree/reference-target.js';

const key = (type, value, idType = 'IdShort') => ({ type, local: true, value, idType });

// A shell with a loaded submodel (Nameplate > Address > City) and one not loaded yet.
function plant() {
  const shell = createNode({ label: 'M1', data: { id: 'urn:aas:1', id_short: 'M1' } });
  const nameplate = createNode({ label: 'Nameplate', data: { id: 'urn:sm:np', id_short: 'Nameplate' } });
  const address = createNode({ label: 'Address', data: { id_short: 'Address' } });
  adopt(address, [createNode({ label: 'City', data: { id_short: 'City' } })]);
  adopt(nameplate, [createNode({ label: 'Serial', data: { id_short: 'Serial' } }), address]);
  let loads = 0;
  const lazy = createNode({
    label: 'Ops', data: { id: 'urn:sm:ops', id_short: 'Ops' },
    load: async () => { loads += 1; return [createNode({ label: 'State', data: { id_short: 'State' } })]; },
  });
  adopt(shell, [nameplate, lazy]);
  return { shell, nameplate, address, lazy, loads: () => loads };
}

const load = async (node) => adopt(node, await node.load());

test('a submodel key, then idShort keys, lead to a loaded node', () => {
  const { nameplate, address } = plant();
  const serial = nameplate.children[0];
  const city = address.children[0];
  assert.deepEqual(followKeys(serial, [key('Submodel', 'urn:sm:np', 'IRI')]), { node: nameplate, rest: [] });
  const keys = [key('Submodel', 'urn:sm:np', 'IRI'), key('SubmodelElementCollection', 'Address'), key('Property', 'City')];
  assert.equal(followKeys(serial, keys).node, city);
  const withShell = [key('AssetAdministrationShell', 'urn:aas:1', 'IRI'), ...keys];
  assert.equal(followKeys(city, withShell).node, city);
});

test('a target outside the tree has none', () => {
  const { nameplate } = plant();
  const from = nameplate.children[0];
  assert.equal(followKeys(from, [key('Submodel', 'urn:sm:other', 'IRI')]), null);
  assert.equal(followKeys(from, [key('Submodel', 'urn:sm:np', 'IRI'), key('Property', 'Nope')]), null);
  assert.equal(followKeys(from, [key('AssetAdministrationShell', 'urn:aas:2', 'IRI')]), null, 'another shell');
  assert.equal(followKeys(from, [key('Asset', 'urn:asset:1', 'IRI')]), null);
  assert.equal(followKeys(from, []), null);
  assert.equal(followKeys(from, undefined), null);
});

test('a target in a submodel not loaded yet stops there, then is found after loading it', async () => {
  const { nameplate, lazy, loads } = plant();
  const keys = [key('Submodel', 'urn:sm:ops', 'IRI'), key('MultiLanguageProperty', 'State')];
  assert.deepEqual(followKeys(nameplate, keys), { node: lazy, rest: keys.slice(1) });
  const target = await findTarget(nameplate, keys, load);
  assert.equal(target?.label, 'State');
  assert.equal(loads(), 1);
  assert.equal(await findTarget(nameplate, [keys[0], key('Property', 'Missing')], load), null);
  assert.equal(loads(), 1, 'loaded once');
});

test('a load that fails ends the search', async () => {
  const { nameplate } = plant();
  const keys = [key('Submodel', 'urn:sm:ops', 'IRI'), key('Property', 'State')];
  assert.equal(await findTarget(nameplate, keys, async () => {}), null);
});
