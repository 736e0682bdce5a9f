/**
 * The sign-in step recorder: every secret of the flow masked (by name and, once seen, by value), bounded to the last
 * steps and flows, in the order they happened; the fetch and user-agent wrappers classify and report each step.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MASK,
  observedOAuthFetch,
  observedUserAgent,
  SignInRecorder,
  type RawExchange,
} from '../../../../src/protocol/auth/signInSteps';

const ACCESS = 'eyJhbGciOiJSUzI1NiJ9.access-token-value-1234567890';
const REFRESH = 'refresh-token-value-0987654321';

function exchange(overrides: Partial<RawExchange>): RawExchange {
  return { kind: 'other', time: 1, durationMs: 2, method: 'GET', url: 'https://as.example/x', ...overrides };
}

describe('SignInRecorder', () => {
  it('masks tokens, codes, verifiers, states and client secrets in requests and answers', () => {
    const recorder = new SignInRecorder();
    recorder.flowStarted('sign-in');
    recorder.exchange(
      exchange({
        kind: 'registration',
        method: 'POST',
        url: 'https://as.example/reg',
        requestBody: JSON.stringify({ client_name: 'Workbench', redirect_uris: ['http://127.0.0.1:5/cb'] }),
        status: 201,
        answerBody: JSON.stringify({ client_id: 'client-1', client_secret: 'very-secret-client-secret' }),
      }),
    );
    recorder.exchange(
      exchange({
        kind: 'authorization',
        url: 'https://as.example/auth?response_type=code&client_id=client-1&state=state-value-123456&code_challenge=abc',
        status: 302,
        answerBody: 'code=authorization-code-123456&state=state-value-123456&iss=https%3A%2F%2Fas.example',
      }),
    );
    recorder.exchange(
      exchange({
        kind: 'token',
        method: 'POST',
        url: 'https://as.example/token',
        requestBody:
          'grant_type=authorization_code&code=authorization-code-123456&code_verifier=verifier-abcdefgh&client_secret=very-secret-client-secret',
        status: 200,
        answerBody: JSON.stringify({
          access_token: ACCESS,
          refresh_token: REFRESH,
          token_type: 'Bearer',
          expires_in: 60,
        }),
      }),
    );
    // An error text that echoes a token it saw is masked by value.
    recorder.flowEnded(new Error(`the server refused ${ACCESS}`));
    const kept = JSON.stringify({ steps: recorder.allSteps(), flows: recorder.flows() });
    for (const secret of [
      ACCESS,
      REFRESH,
      'very-secret-client-secret',
      'authorization-code-123456',
      'verifier-abcdefgh',
      'state-value-123456',
    ])
      assert.ok(!kept.includes(secret), `${secret} is not kept`);
    const [registration, authorization, token] = recorder.allSteps();
    assert.match(registration.answer?.body ?? '', /"client_id": "client-1"/, 'what is not secret stays readable');
    assert.match(authorization.request.url, /client_id=client-1/);
    assert.match(authorization.request.url, /code_challenge=abc/);
    assert.match(authorization.answer?.body ?? '', new RegExp(`^code=${MASK}&state=${MASK}&iss=`));
    assert.match(token.request.body ?? '', new RegExp(`code_verifier=${MASK}`));
    assert.match(token.answer?.body ?? '', /"token_type": "Bearer"/);
    assert.equal(recorder.flows()[0].outcome, 'failed');
    assert.match(recorder.flows()[0].error ?? '', new RegExp(`refused ${MASK}`));
  });

  it('keeps the last steps and flows within its bounds, oldest first, and cuts long bodies', () => {
    const recorder = new SignInRecorder({ maxSteps: 3, maxFlows: 2, maxBodyChars: 10 });
    for (let flow = 0; flow < 3; flow++) {
      recorder.flowStarted(flow === 2 ? 'refresh' : 'sign-in');
      for (let step = 0; step < 2; step++)
        recorder.exchange(
          exchange({ url: `https://as.example/${flow}/${step}`, status: 200, answerBody: 'x'.repeat(50) }),
        );
      recorder.flowEnded();
    }
    const steps = recorder.allSteps();
    assert.deepEqual(
      steps.map((step) => [step.seq, step.flow, new URL(step.request.url).pathname]),
      [
        [4, 2, '/1/1'],
        [5, 3, '/2/0'],
        [6, 3, '/2/1'],
      ],
    );
    assert.deepEqual(
      recorder.flows().map((flow) => [flow.id, flow.kind, flow.outcome]),
      [
        [2, 'sign-in', 'succeeded'],
        [3, 'refresh', 'succeeded'],
      ],
    );
    assert.equal(steps[0].answer?.body, `${'x'.repeat(10)}…`);
  });

  it('tells its listeners of each change and keeps the tokens life without tokens', () => {
    const recorder = new SignInRecorder();
    let changes = 0;
    recorder.onDidChange(() => changes++);
    recorder.flowStarted('refresh');
    recorder.tokens({ tokenType: 'bearer', obtainedAt: 1000, expiresAt: 61_000, refreshable: true, scopes: ['a'] });
    recorder.flowEnded();
    assert.equal(changes, 3);
    assert.deepEqual(recorder.tokenLife(), {
      tokenType: 'bearer',
      obtainedAt: 1000,
      expiresAt: 61_000,
      refreshable: true,
      scopes: ['a'],
    });
  });
});

describe('observedOAuthFetch and observedUserAgent', () => {
  it('report each exchange with its kind, form and answer, and a failed one with its error', async () => {
    const recorder = new SignInRecorder();
    const answers: Record<string, Response | Error> = {
      'https://rs.example/.well-known/oauth-protected-resource': Response.json({ resource: 'https://rs.example' }),
      'https://as.example/.well-known/oauth-authorization-server': Response.json({ issuer: 'https://as.example' }),
      'https://as.example/token': Response.json({ access_token: ACCESS, token_type: 'Bearer' }),
      'https://as.example/down': new Error('connect ECONNREFUSED'),
    };
    const fake: typeof fetch = async (input) => {
      const answer = answers[String(input)];
      if (answer instanceof Error) throw answer;
      return answer;
    };
    const observed = observedOAuthFetch(fake, recorder);
    await observed('https://rs.example/.well-known/oauth-protected-resource');
    await observed('https://as.example/.well-known/oauth-authorization-server');
    const response = await observed('https://as.example/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: REFRESH }),
    });
    assert.equal(((await response.json()) as { access_token: string }).access_token, ACCESS, 'the flow reads it whole');
    await assert.rejects(
      observed('https://as.example/down', { method: 'POST', body: 'grant_type=authorization_code' }),
    );
    const steps = recorder.allSteps();
    assert.deepEqual(
      steps.map((step) => step.kind),
      ['resource-metadata', 'server-metadata', 'refresh', 'token'],
    );
    assert.equal(steps[2].request.body, `grant_type=refresh_token&refresh_token=${MASK}`);
    assert.equal(steps[2].answer?.status, 200);
    assert.ok(!JSON.stringify(steps).includes(ACCESS));
    assert.equal(steps[3].error, 'connect ECONNREFUSED');

    const agent = observedUserAgent(
      {
        prepare: async () => ({
          redirectUri: 'http://127.0.0.1:9/cb',
          complete: async () => new URL('http://127.0.0.1:9/cb?code=the-authorization-code&state=the-state-value'),
          dispose: () => undefined,
        }),
      },
      recorder,
    );
    const pending = await agent.prepare();
    await pending.complete(new URL('https://as.example/auth?state=the-state-value'), new AbortController().signal, {
      issuer: 'https://as.example',
    });
    const authorization = recorder.allSteps().at(-1);
    assert.equal(authorization?.kind, 'authorization');
    assert.equal(authorization?.request.url, `https://as.example/auth?state=${encodeURIComponent(MASK)}`);
    assert.equal(authorization?.answer?.body, `code=${MASK}&state=${MASK}`);
  });
});
