// The offline banner: shown when a call finds the service unreachable. While it shows,
// the service is probed every few seconds; the first answer hides it again and lets
// the caller fetch what failed meanwhile.

import * as api from './api.js';

const PROBE_EVERY_MS = 3000;

export function initOffline(banner, onBack) {
  let timer = null;
  const probe = () => {
    timer = null;
    // An answer of any kind reports itself through onReachability.
    api.checkConnection().catch(() => {});
  };
  api.onReachability((reachable) => {
    if (!reachable) {
      banner.hidden = false;
      timer ??= setTimeout(probe, PROBE_EVERY_MS);
    } else if (!banner.hidden) {
      banner.hidden = true;
      clearTimeout(timer);
      timer = null;
      onBack();
    }
  });
}
