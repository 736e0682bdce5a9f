import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSecretKey, MASK, maskHeaders, maskSecrets, maskText } from '../../../src/workbench/secrets';

test('known secrets are replaced wherever they appear inside strings, in a deep copy', () => {
  const original = {
    jsonrpc: '2.0',
    method: 'tools/call',
    params: { arguments: { query: 'use key sk-live-12345 please', nested: ['sk-live-12345', 42, true, null] } },
  };
  const masked = maskSecrets(original, ['sk-live-12345']);
  assert.deepEqual(masked, {
    jsonrpc: '2.0',
    method: 'tools/call',
    params: { arguments: { query: `use key ${MASK} please`, nested: [MASK, 42, true, null] } },
  });
  assert.equal(original.params.arguments.query, 'use key sk-live-12345 please', 'the input is not modified');
  assert.notEqual(masked.params, original.params);
});

test('values under secret-looking keys are masked; the auth scheme stays visible', () => {
  const masked = maskSecrets({
    headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'k', Cookie: 'session=1', Accept: 'application/json' },
    env: {
      GITHUB_TOKEN: 'ghp_x',
      PERPLEXITY_API_KEY: 'pk',
      DB_PASSWORD: 'p',
      client_secret: 's',
      HOME: '/home/u',
      apikey: 7,
    },
    oauth: { access_token: 'a', refresh_token: 'r', token_type: 'Bearer', credentials: 'c' },
  });
  assert.deepEqual(masked, {
    headers: { Authorization: `Bearer ${MASK}`, 'X-Api-Key': MASK, Cookie: MASK, Accept: 'application/json' },
    env: {
      GITHUB_TOKEN: MASK,
      PERPLEXITY_API_KEY: MASK,
      DB_PASSWORD: MASK,
      client_secret: MASK,
      HOME: '/home/u',
      apikey: MASK,
    },
    oauth: { access_token: MASK, refresh_token: MASK, token_type: 'Bearer', credentials: MASK },
  });
});

test('protocol fields and flags that merely look secret are left alone', () => {
  const message = {
    params: { _meta: { progressToken: 'tok-1' }, cursor: 'c2', maxTokens: 500, nextPageToken: 'p' },
    inputs: [{ type: 'promptString', id: 'key', password: true }],
    usage: { inputTokens: 10, outputTokens: 20 },
    secretName: 'MY_KEY',
    empty: { password: '' },
  };
  assert.deepEqual(maskSecrets(message), message);
  for (const key of ['progressToken', 'maxTokens', 'tokenType', 'secretName', 'inputTokens'])
    assert.equal(isSecretKey(key), false, key);
  for (const key of [
    'Authorization',
    'proxy-authorization',
    'x-api-key',
    'api_key',
    'ApiKey',
    'GITHUB_TOKEN',
    'set-cookie',
    'password',
  ])
    assert.equal(isSecretKey(key), true, key);
});

test('short known secrets are never masked by substring', () => {
  assert.equal(maskText('the abc of it', ['abc', '']), 'the abc of it');
  assert.deepEqual(maskSecrets({ text: 'xyz' }, ['xyz']), { text: 'xyz' });
  assert.equal(maskText('pin 1234 ok', ['1234']), `pin ${MASK} ok`);
});

test('maskText: longest secret first, JSON-escaped and URL-encoded forms, Bearer credentials in logged lines', () => {
  assert.equal(maskText('a=secret-long b=secret', ['secret', 'secret-long']), `a=${MASK} b=${MASK}`);
  const tricky = 'pa"ss\\word';
  assert.equal(maskText(JSON.stringify({ password2: tricky }), [tricky]), `{"password2":"${MASK}"}`);
  assert.equal(maskText('GET /mcp?key=a%2Fb%3Dc%26d', ['a/b=c&d']), `GET /mcp?key=${MASK}`);
  assert.equal(maskText('> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc'), `> Authorization: Bearer ${MASK}`);
  assert.equal(maskText('Bearer short'), 'Bearer short', 'too short to be a credential');
});

test('maskHeaders keeps names, masks values, handles arrays and undefined', () => {
  assert.deepEqual(
    maskHeaders(
      {
        authorization: 'Basic dXNlcjpwYXNz',
        'set-cookie': ['a=1', 'b=2'],
        'x-trace': 'id-supersecret',
        host: undefined,
      },
      ['supersecret'],
    ),
    { authorization: `Basic ${MASK}`, 'set-cookie': [MASK, MASK], 'x-trace': `id-${MASK}`, host: undefined },
  );
});

test('cycles and shared references do not recurse forever', () => {
  const shared = { token: 't-value' };
  const cyclic: Record<string, unknown> = { a: shared, b: shared };
  cyclic.self = cyclic;
  const masked = maskSecrets(cyclic) as Record<string, unknown>;
  assert.equal(masked.self, masked);
  assert.deepEqual(masked.a, { token: MASK });
  assert.equal(masked.a, masked.b);
});

test('a URL query parameter named like a secret is masked in free text, other parameters stay', () => {
  const line =
    'Starting remote: https://api.example.com/mcp?api_key=sk-live-abc&region=eu&access_token=t0k3n#frag (http)';
  assert.equal(
    maskText(line),
    `Starting remote: https://api.example.com/mcp?api_key=${MASK}&region=eu&access_token=${MASK}#frag (http)`,
  );
  assert.equal(
    maskText('GET /search?q=tokens&page=2'),
    'GET /search?q=tokens&page=2',
    'a parameter merely about tokens stays',
  );
  assert.equal(maskText('url: "https://h/x?apiKey=abc"'), `url: "https://h/x?apiKey=${MASK}"`);
});

test('the secrets asked for each time count: a list changed in place, or a new secret, is masked at once', () => {
  const secrets = ['first-secret'];
  assert.equal(maskText('a first-secret b', secrets), `a ${MASK} b`);
  secrets.push('later-input');
  assert.equal(
    maskText('later-input and first-secret', secrets),
    `${MASK} and ${MASK}`,
    'the same array, grown in place',
  );
  secrets.splice(0, 1);
  assert.equal(
    maskText('first-secret later-input', secrets),
    `first-secret ${MASK}`,
    'a secret no longer listed is not masked from memory',
  );
  assert.equal(maskText('a=1&password=hunter22 Bearer abcdefghij', []), `a=1&password=${MASK} Bearer ${MASK}`);
});
