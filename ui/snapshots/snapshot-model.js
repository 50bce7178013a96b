// Snapshots as the page shows them, free of the DOM so it can be unit-tested: their
// names, sizes and dates, which one to offer or compare, and errors of the store in words.

import { plural } from '../lib/format.js';

const two = (n) => String(n).padStart(2, '0');

/** `taken_at` (RFC 3339, UTC) as local "YYYY-MM-DD HH:MM" (":SS" added when `seconds`);
 * an unreadable one as given. */
export function formatTakenAt(takenAt, seconds = false) {
  const d = new Date(takenAt);
  if (Number.isNaN(d.getTime())) return String(takenAt);
  const minute = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
  return seconds ? `${minute}:${two(d.getSeconds())}` : minute;
}

/**
 * `snapshot`'s date as the page writes it: to the second when another snapshot of
 * `others` (one taken at another time) reads the same to the minute, else to the minute.
 */
export function takenAtIn(snapshot, others = []) {
  const minute = formatTakenAt(snapshot.taken_at);
  const shared = others.some((o) => o && o.taken_at !== snapshot.taken_at && formatTakenAt(o.taken_at) === minute);
  return formatTakenAt(snapshot.taken_at, shared);
}

/**
 * `snapshot`'s date written after `named`'s (the other side of a comparison, named in
 * full just before): without the day when both are of one day, to the second as
 * `takenAtIn` says with `named` among the others.
 */
export function takenAtAfter(snapshot, named, others = []) {
  const full = takenAtIn(snapshot, [named, ...others]);
  const day = (text) => /^\d{4}-\d\d-\d\d /.test(text) && text.slice(0, 10);
  return day(full) && day(full) === day(formatTakenAt(named.taken_at)) ? full.slice(11) : full;
}

/**
 * Each of `snapshots`' dates as `takenAtIn` writes it among them, in one pass (a thousand
 * snapshots are a thousand dates to write, not a million).
 */
export function takenAtLabels(snapshots) {
  const minutes = snapshots.map((s) => formatTakenAt(s.taken_at));
  const times = new Map(); // minute -> the distinct times written to it
  snapshots.forEach((s, i) => {
    if (!times.has(minutes[i])) times.set(minutes[i], new Set());
    times.get(minutes[i]).add(s.taken_at);
  });
  return snapshots.map((s, i) => formatTakenAt(s.taken_at, times.get(minutes[i]).size > 1));
}

/** Each snapshot's label in a picker: its date, to the second where two share a minute,
 * "(partial)" added to one cut short. */
export function pickerLabels(snapshots) {
  const dates = takenAtLabels(snapshots);
  return snapshots.map((s, i) => `${dates[i]}${s.complete ? '' : ' (partial)'}`);
}

/** A size in bytes for people: "0 B", "950 B", "12.3 kB", "4.5 MB", "1.2 GB". */
export function formatBytes(bytes) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** "the snapshot of 2024-05-03 14:07", "(partial)" added to one cut short; to the second
 * when one of `others` was taken in the same minute (see `takenAtIn`). */
export function snapshotName(snapshot, others = []) {
  return `the snapshot of ${takenAtIn(snapshot, others)}${snapshot.complete ? '' : ' (partial)'}`;
}

/**
 * The snapshot banner's words for `snapshot` browsed, `since` the older snapshot whose
 * changes are marked in the tree (or null), `others` the plant's snapshots: each date
 * said once, to the second where two share a minute, the older one's day left out when
 * it is the same: "Browsing the snapshot of 2026-11-27 00:32:41, read-only — what
 * changed since 00:32:05 is marked."
 */
export function bannerText(snapshot, since = null, others = []) {
  if (!since) return `Browsing ${snapshotName(snapshot, others)}, read-only.`;
  return `Browsing ${snapshotName(snapshot, [since, ...others])}, read-only — what changed since ${takenAtAfter(since, snapshot, others)} is marked.`;
}

/** "from the snapshot of 2026-11-27 00:32:05 to 00:32:41": the two sides of a comparison. */
export function comparedWords(old, newer, others = []) {
  // Two sources (a file taken in and the plant): each named with its own.
  if (old.plant && newer.plant && old.plant !== newer.plant) {
    return `from ${old.plant}, ${snapshotName(old, others)}, to ${newer.plant}, ${snapshotName(newer, others)}`;
  }
  return `from ${snapshotName(old, [newer, ...others])} to ${takenAtAfter(newer, old, others)}`;
}

/** The store a snapshot is in: "here" (this computer) or "team"; a take's own record says none: here. */
export const storeOf = (snapshot) => snapshot.store ?? 'here';

/** How calls name snapshot `s` (ids are each store's own): `{store, id}`; null stays null. */
export const snapshotRef = (s) => (s ? { store: storeOf(s), id: s.id } : null);

/** Whether `a` and `b` are the same snapshot. */
export const sameSnapshot = (a, b) => !!a && !!b && a.id === b.id && storeOf(a) === storeOf(b);

/** A snapshot as one string, for a select's option value. */
export const snapshotKey = (s) => `${storeOf(s)}:${s.id}`;

/** Where a snapshot lives, in words. */
export const placeName = (s) => (storeOf(s) === 'team' ? 'Team' : 'This computer');

/** The newest complete snapshot of a list ordered newest first, or null. */
export const latestComplete = (snapshots) => snapshots.find((s) => s.complete) ?? null;

/**
 * The snapshot to offer while the service is away: none while one is browsed already,
 * else the newest complete one, else the newest partial one (better than an empty tree).
 */
export function offlineOffer(snapshots, browsing) {
  if (browsing) return null;
  return latestComplete(snapshots) ?? snapshots[0] ?? null;
}

/**
 * The complete snapshot of the same store taken before `snapshot` (to compare with), or
 * null. Partial ones are skipped: what a cancelled crawl never fetched would read as
 * removed. Another store's is not offered: two stores are not compared.
 */
export function previousOf(snapshots, snapshot) {
  const at = snapshots.findIndex((s) => sameSnapshot(s, snapshot));
  return at < 0 ? null : snapshots.slice(at + 1).find((s) => s.complete && storeOf(s) === storeOf(snapshot)) ?? null;
}

/**
 * The keep-N preference typed by the user as a whole number, or null; whether the app
 * keeps that many is the app's to say (it refuses what is out of its bounds, in words).
 */
export function keepValue(text) {
  const n = Number(text);
  return text.trim() !== '' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** What went wrong with the store, in words that say what to do (the app's, where it has them). */
export function problemWords(error) {
  if (error.advice) return error.advice;
  if (error.kind === 'store_damaged') return `${error.message} (Snapshots… offers to move it aside and start a new store.)`;
  return error.message;
}

/** The line after Take snapshot: how it ended, what failed, what the keep-N rule retired. */
export function takeSummary(result) {
  const { snapshot, requests, failures, cancelled, retired } = result;
  const unreadable = result.unreadable_count ?? 0;
  const head = cancelled
    ? `Cancelled after ${plural(requests, 'request')}: kept as a partial snapshot`
    : `Snapshot taken: ${plural(snapshot.shells, 'shell')}, ${formatBytes(snapshot.bytes)}`;
  const failed = failures.length ? `; ${plural(failures.length, 'node')} failed` : '';
  const unread = unreadable ? `; ${plural(unreadable, 'part')} could not be read (kept as sent)` : '';
  const gone = retired.length ? `; ${plural(retired.length, 'older snapshot')} removed (keep setting)` : '';
  return head + failed + unread + gone;
}
