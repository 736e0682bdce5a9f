/**
 * The authorization code grant's PKCE rule (grants.ts): an authorization server that lists its code challenge
 * methods without S256 gets no authorization request, no registration and no browser; one that lists S256, or
 * lists nothing (2025-03-26 servers, the endpoint fallback), goes on to the user agent.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authorizationCodeGrant, requireS256, type GrantContext } from '../../../../src/protocol/auth/grants';
import { OAuthFlowError } from '../../../../src/protocol/auth/discovery';
import type { AuthorizationServer } from '../../../../src/protocol/auth/oauthLibrary';
import type { AuthorizationUserAgent } from '../../../../src/protocol/auth/types';

const ISSUER = 'http://127.0.0.1:9/';

function server(methods: unknown): AuthorizationServer {
  const as: Record<string, unknown> = {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}authorize`,
    token_endpoint: `${ISSUER}token`,
  };
  if (methods !== undefined) as.code_challenge_methods_supported = methods;
  return as as AuthorizationServer;
}

/** A grant context and user agent that count what the flow reached; the agent stops the flow when it is reached. */
function probe(methods: unknown): { context: GrantContext; agent: AuthorizationUserAgent; reached: string[] } {
  const reached: string[] = [];
  const context = {
    serverName: 'pkce-probe',
    as: server(methods),
    resource: 'http://127.0.0.1:9/mcp',
    scopes: [],
    http: {} as GrantContext['http'],
    signal: new AbortController().signal,
    credentials: () => {
      reached.push('credentials');
      return Promise.reject(new Error('not in this test'));
    },
    log: () => {},
  } satisfies GrantContext;
  const agent: AuthorizationUserAgent = {
    prepare: () => {
      reached.push('user agent');
      return Promise.reject(new Error('stopped at the user agent'));
    },
  };
  return { context, agent, reached };
}

describe('PKCE S256 before an authorization request', () => {
  for (const methods of [[], ['plain'], 'S256']) {
    test(`code_challenge_methods_supported ${JSON.stringify(methods)}: refused before the user agent`, async () => {
      const { context, agent, reached } = probe(methods);
      await assert.rejects(authorizationCodeGrant(context, agent, undefined), (error: unknown) => {
        assert.ok(error instanceof OAuthFlowError);
        assert.match(error.message, /does not support PKCE with S256/);
        return true;
      });
      assert.deepEqual(reached, []);
    });
  }

  for (const methods of [['S256'], ['plain', 'S256'], undefined]) {
    test(`code_challenge_methods_supported ${JSON.stringify(methods) ?? 'absent'}: goes on to the user agent`, async () => {
      const { context, agent, reached } = probe(methods);
      await assert.rejects(authorizationCodeGrant(context, agent, undefined), /stopped at the user agent/);
      assert.deepEqual(reached, ['user agent']);
      assert.doesNotThrow(() => requireS256(server(methods), 'pkce-probe'));
    });
  }
});
