// A third-party OAuth 2 / OpenID Connect server (oidc-provider, not our code) with the
// client-credentials grant at Keycloak's token path, so the client's token handling is
// tested against an implementation we did not write.
// Prints one JSON line {auth_url, realm, clients: [...]} once listening; serves until killed.
import Provider from 'oidc-provider';

const realm = 'third-party';
const base = `/auth/realms/${realm}/protocol/openid-connect`;
const clients = [
  { client_id: 'form-client', client_secret: 'form-client-secret', token_endpoint_auth_method: 'client_secret_post' },
  { client_id: 'basic-client', client_secret: 'basic-client-secret', token_endpoint_auth_method: 'client_secret_basic' },
];

const provider = new Provider('http://127.0.0.1', {
  clients: clients.map((c) => ({ ...c, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] })),
  features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
  routes: { token: `${base}/token`, jwks: `${base}/certs` },
  ttl: { ClientCredentials: 120 },
});

const server = provider.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(JSON.stringify({ auth_url: `http://127.0.0.1:${port}`, realm, clients }) + '\n');
});
