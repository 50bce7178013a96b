// The status bar: active profile, access-token lifetime left, the user token's expiry,
// requests made and failed, and a server silent for seconds. Asks the Rust side once a
// second, so it keeps itself current.

import * as api from '../lib/api.js';
import { describeExpiry, formatDuration } from '../lib/jwt.js';
import { plural } from '../lib/format.js';

const POLL_MS = 1000;

/** Pure: the status texts for one answer of the `status` command at `now` (Unix s). */
export function statusTexts(status, now) {
  const user = status.user_token_expiry == null ? null : describeExpiry(status.user_token_expiry, now);
  return {
    profile: status.profile,
    token: status.token_expires_in == null ? 'no access token yet' : `token ${formatDuration(status.token_expires_in)} left`,
    userToken: user ? { level: user.level, text: `user token ${user.text}` } : { level: 'ok', text: '' },
    requests: `${plural(status.requests, 'request')}, ${plural(status.errors, 'error')}`,
    waiting: waitingText(status.waiting),
  };
}

/**
 * Pure: what the status bar says of a server a request has waited on (`{server, origin,
 * seconds}`, from 2 s on), before the connect timeout and the retries let an error say it.
 */
export function waitingText(waiting) {
  if (!waiting) return '';
  return `Waiting ${waiting.seconds} s for ${waiting.server} ${waiting.origin}: no answer yet. `
    + 'Check the address, the VPN or the proxy.';
}

/** Starts polling; `els` holds the spans: profile, token, userToken, requests, waiting. */
export function initStatusBar(els) {
  async function update() {
    try {
      const texts = statusTexts(await api.status(), Date.now() / 1000);
      els.profile.textContent = texts.profile;
      els.profile.title = `Active profile: ${texts.profile}`; // a long name is cut
      els.token.textContent = texts.token;
      els.userToken.textContent = texts.userToken.text;
      els.userToken.dataset.level = texts.userToken.level;
      els.requests.textContent = texts.requests;
      els.waiting.textContent = texts.waiting;
      els.waiting.title = texts.waiting; // the line may be cut short
      els.waiting.hidden = !texts.waiting;
    } catch (e) {
      els.token.textContent = `status unknown: ${e.message}`;
    }
  }
  update();
  setInterval(update, POLL_MS);
}

/**
 * Pure: the connection's words for the profile's gateway, answering or not; offline, the
 * server that did not answer is named (the token server's, say), else the gateway.
 */
export const connectionText = (gatewayUrl, reachable, server = null) =>
  (reachable ? `Connected to ${gatewayUrl}` : `Offline: ${server ?? gatewayUrl} does not answer`);

/**
 * Keeps `el` naming the active profile's gateway and whether the service answers, as
 * calls to it find (the offline banner hears the same). `show(url)` on a profile change.
 */
export function initConnectionStatus(el) {
  let gateway = null;
  let reachable = true;
  let away = null;
  const paint = () => {
    if (gateway === null) return;
    el.textContent = connectionText(gateway, reachable, away);
    el.title = el.textContent; // a long address is cut
    el.dataset.level = reachable ? 'ok' : 'offline';
  };
  api.onReachability((up, server) => {
    reachable = up;
    away = server ?? null;
    paint();
  });
  return {
    show(gatewayUrl) {
      gateway = gatewayUrl;
      reachable = true;
      paint();
    },
  };
}
