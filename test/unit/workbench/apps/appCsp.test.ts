/** The app document's own policy: Trusted Types, which the WebRTC guard (media/apps/appFrameGuard.js) relies on. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appCsp } from '../../../../src/workbench/apps/appCsp';

const NONE = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

test("the app's document requires Trusted Types and allows only the guard's two policies; the page's policy does not", () => {
  const csp = appCsp({ ...NONE, connectDomains: ['http://127.0.0.1:8080'] });
  assert.ok(csp.framePolicy.startsWith(`${csp.policy}; `), 'the frame keeps every directive of the page');
  const added = csp.framePolicy.slice(csp.policy.length + 2).split('; ');
  assert.deepEqual(added, ["require-trusted-types-for 'script'", 'trusted-types mcp-app-guard default']);
  // The page sets the frame's srcdoc from a string: Trusted Types there would refuse it.
  assert.doesNotMatch(csp.policy, /trusted-types/);
});
