// "Take snapshot", "Export…" and "Convert a file…" in the page, over a Tauri
// bridge that delivers a progress message after the command's answer (Tauri does not
// order the two).
import test from 'node:test';
import assert from 'node:assert/strict';

process.env.TZ = 'UTC'; // dates are shown in local time

class Channel {
  onmessage = () => {};
}
let lateProgress;
let failWith = null; // an error the next take_snapshot answers with
let converted = null; // what convert_file answers with (or a function that answers)
const calls = [];
const CONVERSION = 'AAS V3.0: 63 changes (21 asset-field, 42 required); each is listed in /tmp/plant.conversion.json';
const snapshot = { id: 9, taken_at: '2024-05-03T12:07:00Z', shells: 24, nodes: 156, complete: true, bytes: 800_000 };
globalThis.window = {
  __TAURI__: {
    core: {
      Channel,
      invoke: async (command, args) => {
        calls.push([command, args]);
        if (command === 'export_snapshot') {
          const path = args.format.startsWith('v3-') ? '/tmp/plant.json' : '/tmp/plant.aasx';
          return { path, bytes: 1000, conversion: args.format.startsWith('v3-') ? CONVERSION : null };
        }
        if (command === 'convert_file') return typeof converted === 'function' ? converted() : converted;
        if (command !== 'take_snapshot') return null;
        if (failWith) throw failWith;
        const last = { requests_done: 156, requests_known: 156, bytes: 800_000, failures: 0 };
        args.onProgress.onmessage(last);
        lateProgress = () => args.onProgress.onmessage(last);
        return { snapshot, requests: 156, failures: [], cancelled: false, retired: [3] };
      },
    },
  },
};
const { initTakeAndExport } = await import('../../ui/snapshots/take-and-export.js');

function element() {
  const handlers = {};
  return {
    hidden: false, disabled: false, textContent: '', title: '', value: '', max: 0, options: [],
    addEventListener: (type, fn) => { handlers[type] = fn; },
    removeAttribute() {},
    showModal() { this.open = true; },
    close() { this.open = false; },
    elements: { 'convert-target': { value: 'v3.1' }, 'convert-kind': { value: 'xml' } },
    fire: (type) => handlers[type]({ preventDefault() {} }),
  };
}

function page(known) {
  const names = ['take', 'progress', 'bar', 'text', 'cancel', 'exportButton', 'convert', 'format', 'reveal', 'note',
    'report', 'convertDialog', 'convertForm', 'convertCancel'];
  const els = Object.fromEntries(names.map((n) => [n, element()]));
  const taken = [];
  const said = [];
  initTakeAndExport(els, {
    current: () => ({ plant: 'P1', assetTypes: ['machine'] }),
    ticked: () => ({ count: 0, plant: 'P1' }),
    snapshotToExport: () => known.snapshot,
    onTaken: (result) => {
      taken.push(result);
      known.snapshot = result.snapshot;
    },
    say: (text, level = 'error') => said.push([level, text]),
  });
  return { els, taken, said };
}

test('a progress message arriving after the summary does not overwrite it', async () => {
  const known = { snapshot: null };
  const { els, taken } = page(known);
  assert.equal(els.exportButton.disabled, true, 'nothing ticked and no snapshot: nothing to export');
  await els.take.fire('click');
  const summary = 'Snapshot taken: 24 shells, 800.0 kB; 1 older snapshot removed (keep setting)';
  assert.equal(els.text.textContent, summary);
  lateProgress();
  assert.equal(els.text.textContent, summary);
  assert.deepEqual(taken.map((r) => r.snapshot.id), [9], 'the page hears of the new snapshot');
  assert.equal(els.take.disabled, false);
});

test('Export… with nothing ticked writes the snapshot on screen, or the latest', async () => {
  const known = { snapshot };
  const { els } = page(known);
  calls.length = 0;
  els.format.value = 'aasx';
  assert.equal(els.exportButton.disabled, false);
  assert.match(els.exportButton.title, /^Save the snapshot of 2024-05-03/);
  await els.exportButton.fire('click');
  assert.deepEqual(calls, [['export_snapshot', { plant: 'P1', snapshot: { store: 'here', id: 9 }, format: 'aasx' }]]);
  assert.match(els.text.textContent, /^Exported the snapshot of 2024-05-03/);
  assert.equal(els.reveal.hidden, false, 'Show in folder is offered');
});

test('a failed take says why in words, and can be tried again', async () => {
  const { els, taken } = page({ snapshot: null });
  failWith = {
    kind: 'disk_full',
    message: 'No space left on device (os error 28)',
    advice: 'The disk is full: nothing more was written, and no earlier snapshot was lost.',
  };
  await els.take.fire('click');
  failWith = null;
  assert.match(els.text.textContent, /^No snapshot taken: The disk is full: nothing more was written, and no earlier snapshot was lost/);
  assert.deepEqual(taken, []);
  assert.equal(els.take.disabled, false);
  assert.equal(els.cancel.hidden, true);
});

test('an AAS V3.0 export also says what the conversion changed', async () => {
  const { els, said } = page({ snapshot });
  els.format.value = 'v3-env';
  await els.exportButton.fire('click');
  assert.equal(els.text.textContent, 'Exported the snapshot of 2024-05-03 12:07');
  assert.equal(els.note.textContent, CONVERSION);
  assert.equal(els.note.hidden, false);
  assert.deepEqual(said.at(-1), ['info', 'Saved /tmp/plant.json']);
  els.format.value = 'env';
  await els.exportButton.fire('click');
  assert.equal(els.text.textContent, 'Exported the snapshot of 2024-05-03 12:07');
  assert.equal(els.note.hidden, true, 'a V2 export has no conversion line');
  assert.equal(els.report.hidden, true, 'nor a report');
});

/** Convert a file…: the dialog, then its choice (V3.1 as XML) taken. */
async function convert(els) {
  await els.convert.fire('click');
  assert.equal(els.convertDialog.open, true, 'the version and kind are asked first');
  await els.convertForm.fire('submit');
  assert.equal(els.convertDialog.open, false);
}

test('Convert a file… shows where it wrote and what changed, and offers the folder and the report', async () => {
  const { els, said } = page({ snapshot: null });
  assert.equal(els.convert.disabled, false, 'nothing to export, but a file can be converted');
  calls.length = 0;
  let whileRunning;
  converted = () => {
    whileRunning = { convert: els.convert.disabled, exportButton: els.exportButton.disabled, take: els.take.disabled };
    return { path: '/tmp/demo-v3.json', bytes: 5000, conversion: CONVERSION };
  };
  await convert(els);
  assert.deepEqual(calls, [['convert_file', { to: { target: 'v3.1', kind: 'xml' } }]]);
  assert.deepEqual(whileRunning, { convert: true, exportButton: true, take: true }, 'one job at a time');
  assert.equal(els.text.textContent, 'Converted to demo-v3.json');
  assert.equal(els.note.textContent, CONVERSION);
  assert.equal(els.note.hidden, false);
  assert.equal(els.progress.hidden, false);
  assert.equal(els.reveal.hidden, false, 'Show in folder is offered');
  assert.equal(els.report.hidden, false, 'Show report is offered');
  assert.deepEqual(said.at(-1), ['info', 'Saved /tmp/demo-v3.json']);
  assert.equal(els.convert.disabled, false);
});

test('a cancelled conversion says nothing; a failed one says why', async () => {
  const { els, said } = page({ snapshot: null });
  converted = null;
  await convert(els);
  assert.equal(els.progress.hidden, true, 'cancelled: nothing shown');
  assert.equal(els.reveal.hidden, true);
  assert.equal(els.note.hidden, true);
  assert.deepEqual(said, []);
  converted = () => { throw { kind: 'bad_data', message: 'x.json holds no AAS environment' }; };
  await convert(els);
  assert.equal(els.text.textContent, 'Conversion failed: x.json holds no AAS environment');
  assert.equal(els.note.hidden, true);
  assert.deepEqual(said, [['error', 'Conversion failed: x.json holds no AAS environment']]);
  assert.equal(els.convert.disabled, false, 'it can be tried again');
});
