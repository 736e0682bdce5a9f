/**
 * Add Model Endpoint as a guided input (src/extension/features/sampling/endpointSetup.ts, vscode-free): four steps with
 * Back, the base URL checked, the endpoint appended to the user's setting, and the key in secret storage only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addModelEndpoint,
  checkBaseUrl,
  type EndpointSetupHost,
  type EndpointStep,
  type StepAnswer,
} from '../../../../../src/extension/features/sampling/endpointSetup';

const words = {
  nameRequired: 'name required',
  nameTaken: (name: string) => `taken: ${name}`,
  urlInvalid: 'not a URL',
  urlScheme: 'scheme',
  urlCredentials: 'credentials',
  urlPlainHttp: 'plain http',
  modelRequired: 'model required',
};

/** A person answering the steps from a script: each answer sees the step it answers (what the input showed). */
function person(script: ((step: EndpointStep) => StepAnswer)[], endpoints: unknown[] = []) {
  const seen: EndpointStep[] = [];
  const written: unknown[][] = [];
  const secrets = new Map<string, string>();
  const host: EndpointSetupHost = {
    ask: async (step) => {
      seen.push(step);
      const next = script.shift();
      assert.ok(next, `no answer scripted for step ${step.step} (${step.id})`);
      return next(step);
    },
    endpoints: () => [...endpoints],
    writeEndpoints: async (value) => void written.push(value),
    storeKey: async (name, key) => void secrets.set(name, key),
    words,
  };
  return { host, seen, written, secrets };
}
const value = (text: string) => (): StepAnswer => ({ kind: 'value', value: text });
const back = (): StepAnswer => ({ kind: 'back' });

test('name, base URL, model and key: the endpoint goes to the setting, the key to secret storage only', async () => {
  const other = { name: 'Hosted', baseUrl: 'https://api.example.com/v1', model: 'm', images: true };
  const run = person(
    [value(' Local Ollama '), value('http://127.0.0.1:11434/v1'), value('llama3.2'), value('sk-secret')],
    [other],
  );
  const entry = await addModelEndpoint(run.host);
  assert.deepEqual(entry, { name: 'Local Ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
  assert.deepEqual(run.written, [[other, entry]], 'appended to what the setting held');
  assert.ok(!JSON.stringify(run.written).includes('sk-secret'), 'the key is never in the setting');
  assert.deepEqual([...run.secrets], [['Local Ollama', 'sk-secret']]);
  assert.deepEqual(
    run.seen.map((step) => `${step.step}/${step.total} ${step.id}${step.password ? ' (password)' : ''}`),
    ['1/4 name', '2/4 baseUrl', '3/4 model', '4/4 apiKey (password)'],
  );
});

test('Back returns to the previous step with its value; an empty key stores nothing', async () => {
  const run = person([
    value('A'),
    value('https://a.example/v1'),
    back,
    (step) => {
      assert.equal(step.id, 'baseUrl');
      assert.equal(step.value, 'https://a.example/v1', 'the value given before');
      return value('https://b.example/v1')();
    },
    back,
    back,
    (step) => {
      assert.equal(step.id, 'name');
      return value('B')();
    },
    value('https://b.example/v1'),
    value('gpt'),
    value(''),
  ]);
  assert.deepEqual(await addModelEndpoint(run.host), { name: 'B', baseUrl: 'https://b.example/v1', model: 'gpt' });
  assert.equal(run.secrets.size, 0);
});

test('Escape at any step writes nothing', async () => {
  for (let at = 0; at < 4; at++) {
    const answers = [value('A'), value('https://a.example/v1'), value('m'), value('k')];
    answers[at] = () => ({ kind: 'cancel' });
    const run = person(answers.slice(0, at + 1));
    assert.equal(await addModelEndpoint(run.host), undefined);
    assert.deepEqual(run.written, []);
    assert.equal(run.secrets.size, 0);
  }
});

test('the checks: a taken or empty name, a URL with credentials or another scheme, an empty model', async () => {
  const run = person([], [{ name: 'Taken' }]);
  const steps: Record<string, EndpointStep> = {};
  run.host.ask = async (step) => {
    steps[step.id] = step;
    return { kind: 'cancel' };
  };
  await addModelEndpoint(run.host);
  const name = steps.name;
  assert.ok(name);
  assert.equal(name.validate('Taken')?.message, 'taken: Taken');
  assert.equal(name.validate('  ')?.message, 'name required');
  assert.equal(name.validate('New'), undefined);

  assert.equal(checkBaseUrl('not a url', words)?.severity, 'error');
  assert.equal(checkBaseUrl('file:///etc/passwd', words)?.message, 'scheme');
  assert.equal(checkBaseUrl('https://user:sk-123@api.example.com/v1', words)?.message, 'credentials');
  assert.equal(checkBaseUrl('http://models.example.com/v1', words)?.severity, 'warning');
  for (const local of ['http://127.0.0.1:11434/v1', 'http://localhost:1234/v1', 'http://[::1]:8080/v1'])
    assert.equal(checkBaseUrl(local, words), undefined, local);
  assert.equal(checkBaseUrl('https://api.example.com/v1', words), undefined);
});

test('a value that fails its check is asked again, never written', async () => {
  const run = person([
    value('A'),
    value('https://user:sk-123@api.example.com/v1'),
    (step) => {
      assert.equal(step.id, 'baseUrl', 'the same step again');
      return value('https://api.example.com/v1')();
    },
    value(' '),
    value('m'),
    value(''),
  ]);
  assert.deepEqual(await addModelEndpoint(run.host), { name: 'A', baseUrl: 'https://api.example.com/v1', model: 'm' });
  assert.ok(!JSON.stringify(run.written).includes('sk-123'));
});
