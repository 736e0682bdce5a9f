/**
 * The help texts main.ts prints without importing their subcommands (src/cli/usage.ts) say what the code does.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EVAL_USAGE } from '../../../src/cli/usage';
import { ANNOUNCE_MODEL_CALLS_OVER } from '../../../src/workbench/evals/runner';

test('eval --help names the model-call count above which a run is announced and needs --yes', () => {
  assert.match(
    EVAL_USAGE.replace(/\s+/g, ' '),
    new RegExp(`than ${ANNOUNCE_MODEL_CALLS_OVER} model calls are announced`),
  );
});
