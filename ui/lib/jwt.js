// Reads a JWT's claims to SHOW them (the user token's expiry). The signature is not
// checked and nothing here decides access: the server verifies every token itself.

/** How long before a token lapses the UI starts to warn. */
export const WARN_BEFORE_S = 60 * 60;

/** The claims of `token` if it is a JWT (three base64url parts, JSON object payload), else null. */
export function jwtClaims(token) {
  const parts = String(token ?? '').trim().split('.');
  if (parts.length !== 3) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes));
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? claims : null;
  } catch {
    return null;
  }
}

/** A duration in seconds as the two largest units: "45 s", "4 min 10 s", "2 h 5 min", "3 d 4 h". */
export function formatDuration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const units = [['d', 86400], ['h', 3600], ['min', 60], ['s', 1]];
  const found = units.findIndex(([, size]) => s >= size);
  const i = found === -1 ? units.length - 1 : found;
  const [bigName, big] = units[i];
  const parts = [`${Math.floor(s / big)} ${bigName}`];
  if (i + 1 < units.length) {
    const [smallName, small] = units[i + 1];
    const rest = Math.floor((s % big) / small);
    if (rest > 0) parts.push(`${rest} ${smallName}`);
  }
  return parts.join(' ');
}

/**
 * How an expiry at `exp` (Unix seconds) looks at `now` (Unix seconds):
 * `{ level: 'ok' | 'warn' | 'expired', text }`.
 */
export function describeExpiry(exp, now, warnBefore = WARN_BEFORE_S) {
  const left = exp - now;
  if (left <= 0) return { level: 'expired', text: `expired ${formatDuration(-left)} ago` };
  return { level: left <= warnBefore ? 'warn' : 'ok', text: `expires in ${formatDuration(left)}` };
}

/** What the profile form says about a pasted user token, or '' when there is nothing to say. */
export function userTokenNote(token, now) {
  if (!String(token ?? '').trim()) return { level: 'ok', text: '' };
  const claims = jwtClaims(token);
  if (!claims) return { level: 'ok', text: 'Not a JWT: its expiry cannot be shown.' };
  if (typeof claims.exp !== 'number') return { level: 'ok', text: 'JWT without an expiry (exp).' };
  const when = new Date(claims.exp * 1000).toLocaleString();
  const { level, text } = describeExpiry(claims.exp, now);
  return { level, text: `JWT ${text} (${when}); the signature is not checked here.` };
}
