// The status bar's texts and the connection test's lines: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectionText, statusTexts } from '../../ui/shell/status-bar.js';
import { fieldShown, stepLine, transportNote } from '../../ui/profiles/profiles.js';

test('statusTexts shows the token lifetime, the user token expiry and the counts', () => {
  const now = 1_000_000;
  const texts = statusTexts({
    profile: 'Plant Nord', token_expires_in: 250, user_token_expiry: now + 1800, requests: 12, errors: 1,
  }, now);
  assert.deepEqual(texts, {
    profile: 'Plant Nord',
    token: 'token 4 min 10 s left',
    userToken: { level: 'warn', text: 'user token expires in 30 min' },
    requests: '12 requests, 1 error',
    waiting: '',
  });
});

test('a server silent for seconds is named, with what to check', () => {
  const texts = statusTexts({
    profile: 'Nord', token_expires_in: null, user_token_expiry: null, requests: 0, errors: 0,
    waiting: { server: 'the token server', origin: 'https://10.20.0.5:8443', seconds: 3 },
  }, 0);
  assert.equal(texts.waiting,
    'Waiting 3 s for the token server https://10.20.0.5:8443: no answer yet. Check the address, the VPN or the proxy.');
});

test('statusTexts before the first request, with an opaque user token', () => {
  const texts = statusTexts({
    profile: 'Demo', token_expires_in: null, user_token_expiry: null, requests: 1, errors: 0,
  }, 0);
  assert.equal(texts.token, 'no access token yet');
  assert.deepEqual(texts.userToken, { level: 'ok', text: '' });
  assert.equal(texts.requests, '1 request, 0 errors');
});

test('stepLine marks each step and keeps the server text', () => {
  assert.equal(stepLine({ step: 'registry', status: 'passed', text: '21 AAS descriptors' }), '✓ Registry: 21 AAS descriptors');
  assert.equal(
    stepLine({ step: 'gateway', status: 'failed', text: 'HTTP 401, invalid_user_token: bad' }),
    '✗ Gateway: HTTP 401, invalid_user_token: bad',
  );
  assert.equal(stepLine({ step: 'token', status: 'skipped', text: 'x' }), '– Access token: x');
});

test('stepLine names the steps of a V3 server', () => {
  assert.equal(stepLine({ step: 'shells', status: 'passed', text: '21 shells' }), '✓ Shells: 21 shells');
  assert.equal(stepLine({ step: 'description', status: 'skipped', text: 'none' }), '– Server description: none');
});

test('fieldShown: a field shows for its kinds, and under a V3 server for its authentication', () => {
  const clientId = { kind: 'platform v3_server', auth: 'oauth' };
  assert.equal(fieldShown(clientId, 'platform', 'none'), true, 'the platform always has a client');
  assert.equal(fieldShown(clientId, 'v3_server', 'oauth'), true);
  assert.equal(fieldShown(clientId, 'v3_server', 'api_key'), false);
  assert.equal(fieldShown({ kind: 'platform' }, 'v3_server', 'oauth'), false);
  assert.equal(fieldShown({ kind: 'v3_server' }, 'v3_server', 'none'), true);
  assert.equal(fieldShown({}, 'v3_server', 'none'), true, 'unmarked: always');
});

test('transportNote says what the settings file sets beyond the form', () => {
  assert.equal(transportNote({ allow_plain_http: false }), '');
  assert.equal(transportNote(null), '');
  const note = transportNote({ allow_plain_http: true, ca_file: '/etc/ssl/company-ca.pem' });
  assert.match(note, /plain http to other hosts allowed/);
  assert.match(note, /\/etc\/ssl\/company-ca\.pem/);
  assert.match(transportNote({ ca_file: '/ca.pem' }), /^From the settings file, kept on save: also trusts/);
  assert.match(transportNote({ proxy: 'http://proxy.corp:3128' }), /through the proxy http:\/\/proxy\.corp:3128\.$/);
  assert.match(transportNote({ proxy: 'http://p:3128', proxy_user: 'eng' }), /as eng \(password in the keychain\)/);
});

test('connectionText names the gateway and says when it does not answer', () => {
  assert.equal(connectionText('https://gw.example/gateway', true), 'Connected to https://gw.example/gateway');
  assert.equal(connectionText('https://gw.example/gateway', false), 'Offline: https://gw.example/gateway does not answer');
  // The token server, not the gateway, when it is the one that did not answer.
  assert.equal(connectionText('https://gw.example/gateway', false, 'https://login.example'),
    'Offline: https://login.example does not answer');
});
