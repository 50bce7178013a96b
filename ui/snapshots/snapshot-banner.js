// The banners that say which plant is on screen: the snapshot banner while a snapshot
// is browsed (read-only, its date, Back to live), and the offline banner's offer to
// browse the latest snapshot instead of an empty tree while the service is away.

import * as api from '../lib/api.js';
import { bannerText, offlineOffer, snapshotName } from './snapshot-model.js';

/** `els`: banner, text, live (the Back to live button, which calls `onLive()`). */
export function initSnapshotBanner(els, onLive) {
  els.live.addEventListener('click', onLive);
  return {
    /**
     * Names `snapshot` (null hides the banner); `since`: the older snapshot of the
     * comparison marked in the tree; `others`: the plant's snapshots (a date that shares
     * its minute with another's is given to the second).
     */
    show(snapshot, since = null, others = []) {
      els.banner.hidden = !snapshot;
      if (!snapshot) return;
      els.text.textContent = bannerText(snapshot, since, others);
    },
  };
}

/**
 * The offline banner's "Browse the snapshot of …" button. `plant()` is the plant
 * shown, `browsing()` the snapshot on screen (null: live), `browse(snapshot)` shows one.
 * Returns `{update}`: call it when the banner shows or what is on screen changed.
 */
export function initOfflineOffer(banner, button, { plant, browsing, browse }) {
  let offered = null;
  button.addEventListener('click', () => offered && browse(offered));
  return {
    async update() {
      const wanted = !banner.hidden && plant() && !browsing();
      // A store that cannot be read has nothing to offer; the Snapshots dialog says why.
      const snapshots = wanted ? (await api.listSnapshots(plant()).catch(() => null))?.snapshots ?? [] : [];
      offered = offlineOffer(snapshots, browsing());
      button.hidden = !offered;
      if (offered) button.textContent = `Browse ${snapshotName(offered, snapshots)}`;
    },
  };
}
