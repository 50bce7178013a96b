// The offline banner: shown when a call finds the service unreachable. While it shows,
// the service is probed (one small request, no token), first after 3 s, then backing
// off to once a minute; the first answer hides it again and lets the caller fetch what
// failed meanwhile. `onAway()` hears when it shows (to offer a snapshot instead).
// `reset()` (another profile: other servers) takes it down until a call finds the new
// ones away.

import * as api from '../lib/api.js';

export const FIRST_PROBE_MS = 3000;
export const LAST_PROBE_MS = 60000;

/** The wait before the probe after one that waited `ms`. */
export const nextProbeWait = (ms) => Math.min(ms * 2, LAST_PROBE_MS);

/** Pure: the banner's words, naming the server that did not answer where known. */
export const offlineWords = (server) =>
  `${server ?? 'The service'} does not answer. Check the server's address in the profile, ` +
  "this computer's network (a VPN the server needs?) and its proxy settings. Checking again " +
  'in a few seconds, then up to once a minute; what is already loaded stays here.';

export function initOffline(banner, onBack, onAway) {
  const words = banner.querySelector('.offline-words');
  let timer = null;
  let wait = FIRST_PROBE_MS;
  const probe = () => {
    timer = null;
    // An answer of any kind reports itself through onReachability.
    api.checkConnection().catch(() => {});
  };
  api.onReachability((reachable, server) => {
    if (!reachable) {
      words.textContent = offlineWords(server);
      if (banner.hidden) {
        banner.hidden = false;
        onAway();
      }
      if (timer === null) {
        timer = setTimeout(probe, wait);
        wait = nextProbeWait(wait);
      }
    } else {
      wait = FIRST_PROBE_MS;
      if (!banner.hidden) {
        banner.hidden = true;
        clearTimeout(timer);
        timer = null;
        onBack();
      }
    }
  });
  return {
    reset() {
      banner.hidden = true;
      clearTimeout(timer);
      timer = null;
      wait = FIRST_PROBE_MS;
    },
  };
}
