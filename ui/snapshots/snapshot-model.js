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

/** Each snapshot's label in a picker: its date, to the second where two share a minute,
 * "(partial)" added to one cut short. */
export function pickerLabels(snapshots) {
  const minutes = snapshots.map((s) => formatTakenAt(s.taken_at));
  return snapshots.map((s, i) => {
    const shared = minutes.indexOf(minutes[i]) !== minutes.lastIndexOf(minutes[i]);
    return `${formatTakenAt(s.taken_at, shared)}${s.complete ? '' : ' (partial)'}`;
  });
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

/** "the snapshot of 2024-05-03 14:07", "(partial)" added to one cut short. */
export function snapshotName(snapshot) {
  return `the snapshot of ${formatTakenAt(snapshot.taken_at)}${snapshot.complete ? '' : ' (partial)'}`;
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
