/**
 * WWW-Authenticate parsing (RFC 9110 §11.6.1): a list of challenges, each a scheme followed by auth-params
 * (`name=token` or `name="quoted string"`) or a token68. The header is server input: anything malformed ends
 * the parse with what was understood so far instead of throwing.
 */

interface AuthChallenge {
  /** Lower-cased scheme, e.g. `bearer`, `dpop`. */
  scheme: string;
  /** Parameter names lower-cased; the last occurrence wins. */
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

export function parseWwwAuthenticate(header: string | undefined): AuthChallenge[] {
  if (!header) return [];
  const challenges: AuthChallenge[] = [];
  let rest = header;
  let current: AuthChallenge | undefined;
  const skip = (pattern: RegExp) => {
    const match = pattern.exec(rest);
    if (match) rest = rest.slice(match[0].length);
  };
  for (let guard = 0; guard < 1000; guard++) {
    skip(/^[\s,]*/);
    if (!rest) break;
    const token = TOKEN.exec(rest);
    if (!token) break;
    const afterToken = rest.slice(token[0].length);
    const isParam = /^\s*=(?!=)/.test(afterToken);
    if (current && isParam) {
      rest = afterToken.replace(/^\s*=\s*/, '');
      let value: string;
      if (rest.startsWith('"')) {
        let i = 1;
        value = '';
        while (i < rest.length && rest[i] !== '"') {
          if (rest[i] === '\\' && i + 1 < rest.length) i++;
          value += rest[i];
          i++;
        }
        rest = rest.slice(i + 1);
      } else {
        const bare = /^[^\s,]*/.exec(rest);
        value = bare ? bare[0] : '';
        rest = rest.slice(value.length);
      }
      current.params[token[0].toLowerCase()] = value;
      continue;
    }
    // A new challenge: the scheme, then optionally a token68 (kept under the empty name).
    current = { scheme: token[0].toLowerCase(), params: {} };
    challenges.push(current);
    rest = afterToken;
    const token68 = /^\s+([A-Za-z0-9\-._~+/]+=*)\s*(?=,|$)/.exec(rest);
    if (token68 && !/^\s*=/.test(rest.slice(token68[0].length))) {
      current.params[''] = token68[1];
      rest = rest.slice(token68[0].length);
    }
  }
  return challenges;
}

/** The Bearer (or DPoP) challenge's parameters, merged with Bearer first: the ones MCP authorization reads. */
export function oauthChallengeParams(header: string | undefined): Record<string, string> {
  const challenges = parseWwwAuthenticate(header);
  const merged: Record<string, string> = {};
  for (const scheme of ['dpop', 'bearer']) {
    for (const challenge of challenges) if (challenge.scheme === scheme) Object.assign(merged, challenge.params);
  }
  return merged;
}
