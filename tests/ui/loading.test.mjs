// "Load everything" in the page, over a Tauri bridge that delivers a progress message
// after the command's answer (Tauri does not order the two).
import test from 'node:test';
import assert from 'node:assert/strict';

class Channel {
  onmessage = () => {};
}
let lateProgress;
globalThis.window = {
  __TAURI__: {
    core: {
      Channel,
      invoke: async (command, args) => {
        if (command !== 'load_everything') return null;
        const last = { requests_done: 156, requests_known: 156, bytes: 800_000, failures: 0 };
        args.onProgress.onmessage(last);
        lateProgress = () => args.onProgress.onmessage(last);
        return { requests: 156, failures: [], cancelled: false };
      },
    },
  },
};
const { initLoading } = await import('../../ui/loading.js');

function element() {
  const handlers = {};
  return {
    hidden: false, disabled: false, textContent: '', title: '', value: '', max: 0, options: [],
    addEventListener: (type, fn) => { handlers[type] = fn; },
    removeAttribute() {},
    fire: (type) => handlers[type](),
  };
}

test('a progress message arriving after the summary does not overwrite it', async () => {
  const names = ['loadAll', 'progress', 'bar', 'text', 'cancel', 'exportButton', 'format', 'reveal'];
  const els = Object.fromEntries(names.map((n) => [n, element()]));
  initLoading(els, {
    current: () => ({ plant: 'P1', assetTypes: ['machine'] }),
    ticked: () => ({ count: 0 }),
    say: () => {},
  });
  await els.loadAll.fire('click');
  assert.equal(els.text.textContent, 'Loaded with 156 requests');
  lateProgress();
  assert.equal(els.text.textContent, 'Loaded with 156 requests');
  assert.equal(els.exportButton.disabled, false, 'what was loaded can be exported');
});
