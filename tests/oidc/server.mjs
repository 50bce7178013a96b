// A third-party OAuth 2 / OpenID Connect server (oidc-provider, not our code) with the
// client-credentials grant, so the client's token handling is tested against an
// implementation we did not write. Two layouts:
//   node server.mjs            token endpoint at the spec's path (Keycloak up to 16:
//                              /auth/realms/{realm}/protocol/openid-connect/token), no
//                              discovery document where a client looks for one;
//   node server.mjs --realms   mounted under /realms/{realm} as Keycloak 17 and later
//                              serve it, with its discovery document there; its issuer
//                              is built after it listens, so it carries the port.
// Prints one JSON line {auth_url, realm, clients: [...]} once listening; serves until killed.
import http from 'node:http';
import Provider from 'oidc-provider';

const realm = 'third-party';
const clients = [
  { client_id: 'form-client', client_secret: 'form-client-secret', token_endpoint_auth_method: 'client_secret_post' },
  { client_id: 'basic-client', client_secret: 'basic-client-secret', token_endpoint_auth_method: 'client_secret_basic' },
];
const realmsLayout = process.argv.includes('--realms');
const mount = realmsLayout ? `/realms/${realm}` : '';
const base = realmsLayout ? '/protocol/openid-connect' : `/auth/realms/${realm}/protocol/openid-connect`;

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  const provider = new Provider(`${origin}${mount}`, {
    clients: clients.map((c) => ({ ...c, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] })),
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
    routes: { token: `${base}/token`, jwks: `${base}/certs` },
    ttl: { ClientCredentials: 120 },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url.startsWith(`${mount}/`)) {
      res.writeHead(404).end();
      return;
    }
    // As connect and express mount an app: the provider sees the path below the
    // mount, and finds the mount from originalUrl when it writes its own URLs.
    req.originalUrl = req.url;
    req.url = req.url.slice(mount.length);
    handle(req, res);
  });
  process.stdout.write(JSON.stringify({ auth_url: origin, realm, clients }) + '\n');
});
