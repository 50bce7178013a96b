// The JWT display helpers: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeExpiry, formatDuration, jwtClaims, userTokenNote, WARN_BEFORE_S } from '../../ui/lib/jwt.js';

const b64url = (text) => Buffer.from(text).toString('base64url');
const jwt = (claims) => `${b64url('{"alg":"RS256"}')}.${b64url(JSON.stringify(claims))}.c2ln`;

test('jwtClaims reads the payload of a JWT, unpadded base64url and UTF-8 included', () => {
  // "ü?>" encodes to base64url with '-' or '_' in some positions; the name checks UTF-8.
  const claims = { exp: 1700000000, sub: 'Jürgen', q: '??>>' };
  assert.deepEqual(jwtClaims(jwt(claims)), claims);
  assert.deepEqual(jwtClaims(`  ${jwt(claims)}\n`), claims);
});

test('jwtClaims returns null for anything that is not a JWT with an object payload', () => {
  for (const token of ['', null, undefined, 'opaque-token', 'a.b', 'a.b.c.d', `x.${b64url('[1]')}.y`,
    `x.${b64url('not json')}.y`, `x.${b64url('null')}.y`, 'x.%%%.y']) {
    assert.equal(jwtClaims(token), null, String(token));
  }
});

test('formatDuration shows the two largest units', () => {
  assert.equal(formatDuration(0), '0 s');
  assert.equal(formatDuration(45), '45 s');
  assert.equal(formatDuration(250), '4 min 10 s');
  assert.equal(formatDuration(300), '5 min');
  assert.equal(formatDuration(2 * 3600 + 5 * 60 + 9), '2 h 5 min');
  assert.equal(formatDuration(3 * 86400 + 4 * 3600), '3 d 4 h');
  assert.equal(formatDuration(-5), '0 s');
});

test('describeExpiry warns within the warning window and says when it lapsed', () => {
  const now = 1_000_000;
  assert.deepEqual(describeExpiry(now + 2 * 86400, now), { level: 'ok', text: 'expires in 2 d' });
  assert.deepEqual(describeExpiry(now + WARN_BEFORE_S, now), { level: 'warn', text: 'expires in 1 h' });
  assert.deepEqual(describeExpiry(now + 90, now), { level: 'warn', text: 'expires in 1 min 30 s' });
  assert.deepEqual(describeExpiry(now - 600, now), { level: 'expired', text: 'expired 10 min ago' });
  assert.deepEqual(describeExpiry(now, now), { level: 'expired', text: 'expired 0 s ago' });
});

test('userTokenNote explains pasted tokens', () => {
  const now = 1_000_000;
  assert.equal(userTokenNote('', now).text, '');
  assert.match(userTokenNote('opaque', now).text, /^Not a JWT/);
  assert.match(userTokenNote(jwt({ sub: 'u' }), now).text, /without an expiry/);
  const soon = userTokenNote(jwt({ exp: now + 120 }), now);
  assert.equal(soon.level, 'warn');
  assert.match(soon.text, /^JWT expires in 2 min \(.+\); the signature is not checked here\.$/);
  assert.equal(userTokenNote(jwt({ exp: now - 1 }), now).level, 'expired');
});
