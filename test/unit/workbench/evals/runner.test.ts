import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Ajv from 'ajv';
import type { CallToolOutcome } from '../../../../src/protocol/clientOptions';
import type { Tool } from '../../../../src/protocol/types';
import { checkEvalFile, EvalFormatError, parseEvalFile } from '../../../../src/workbench/evals/format';
import {
  boundedFetch,
  formatEvalReport,
  modelToolset,
  planEval,
  runEval,
  type EvalModel,
  type EvalServer,
} from '../../../../src/workbench/evals/runner';
import type { ChatModelProvider, ChatRequest } from '../../../../src/workbench/sampling/chatModel';
import { OpenAiCompatibleProvider } from '../../../../src/workbench/sampling/openaiProvider';
import { startOpenAiServer, type ChatBody, type OpenAiTestServer } from '../../../fixtures/openai/openaiServer';
import { repoRoot } from '../../../support/paths';

/** A server with the given tools whose calls are recorded and answered with "<tool> done". */
function fakeServer(name: string, toolNames: string[]): EvalServer & { called: string[] } {
  const called: string[] = [];
  const tools: Tool[] = toolNames.map((tool) => ({
    name: tool,
    description: `the ${tool} tool`,
    inputSchema: { type: 'object', properties: {} },
  }));
  return {
    serverName: name,
    called,
    listTools: async () => tools,
    callTool: async (tool: string, args?: Record<string, unknown>): Promise<CallToolOutcome> => {
      called.push(`${tool} ${JSON.stringify(args ?? {})}`);
      return { result: { content: [{ type: 'text', text: `${tool} done` }] } };
    },
  };
}

/** How many tool results the conversation so far holds: the fake model answers by how far the run has come. */
function toolResults(body: ChatBody): number {
  return body.messages.filter((message) => message.role === 'tool').length;
}

const KEY = 'sk-test-secret-key-123456';
let model: OpenAiTestServer;
let models: EvalModel[];

before(async () => {
  model = await startOpenAiServer();
  const provider = new OpenAiCompatibleProvider({
    baseUrl: model.baseUrl,
    model: 'fake-1',
    apiKey: KEY,
    stream: false,
  });
  models = [{ provider, info: (await provider.listModels())[0] }];
});
after(() => model.close());

function evalOf(requests: unknown[], extra: Record<string, unknown> = {}) {
  return checkEvalFile({ mcpeval: 1, requests, ...extra });
}

describe('runEval', () => {
  test('a request that runs two tools in sequence passes; the model reads each result and the key reaches only the endpoint', async () => {
    model.requests.length = 0;
    model.authorizations.length = 0;
    model.respond = (body) => {
      switch (toolResults(body)) {
        case 0:
          return { kind: 'tool-call', name: 'find_city', arguments: { name: 'Paris' }, id: 'c1' };
        case 1:
          return { kind: 'tool-call', name: 'get_weather', arguments: { city: 'Paris', units: 'metric' }, id: 'c2' };
        default:
          return { kind: 'text', text: 'It is sunny in Paris.' };
      }
    };
    const server = fakeServer('weather', ['find_city', 'get_weather', 'delete_city']);
    const loaded = evalOf([
      {
        name: 'weather in Paris',
        request: 'What is the weather in Paris?',
        expect: {
          calls: [
            { tool: 'find_city', args: { name: 'Paris' } },
            { tool: 'get_weather', args: { city: 'Paris', units: 'x' }, rules: [{ path: '$.units', ignore: true }] },
          ],
          notCalled: ['delete_city'],
          answer: { match: 'sunny' },
        },
      },
    ]);
    const report = await runEval(loaded, { servers: [server], models, secrets: [KEY] });
    assert.deepEqual(server.called, ['find_city {"name":"Paris"}', 'get_weather {"city":"Paris","units":"metric"}']);
    assert.equal(report.passRate, 1);
    assert.deepEqual(
      report.requests.map(({ name, passed, runs }) => ({ name, passed, runs })),
      [{ name: 'weather in Paris', passed: 1, runs: 1 }],
    );
    assert.equal(report.modelCalls, 3);
    const last = model.requests[2];
    assert.deepEqual(
      last.messages.filter((message) => message.role === 'tool').map((message) => message.content),
      ['find_city done', 'get_weather done'],
    );
    assert.deepEqual(
      (model.requests[0].tools as { function: { name: string } }[]).map((tool) => tool.function.name),
      ['find_city', 'get_weather', 'delete_city'],
    );
    assert.ok(model.authorizations.every((value) => value === `Bearer ${KEY}`));
  });

  test('a call with other arguments fails with a diff of the expected and the actual call', async () => {
    model.respond = (body) =>
      toolResults(body) === 0
        ? { kind: 'tool-call', name: 'get_weather', arguments: { city: 'Lyon', units: 'metric' } }
        : { kind: 'text', text: 'Cloudy.' };
    const loaded = evalOf([
      {
        request: 'Weather in Paris?',
        expect: { calls: [{ tool: 'get_weather', args: { city: 'Paris', units: 'metric' } }] },
      },
    ]);
    const report = await runEval(loaded, { servers: [fakeServer('weather', ['get_weather'])], models });
    const [entry] = report.requests;
    assert.equal(entry.passed, 0);
    assert.equal(entry.failures.length, 1);
    const [problem] = entry.failures[0].problems;
    assert.equal(problem.kind, 'missing-call');
    assert.match(problem.message, /expected call: get_weather \{"city":"Paris","units":"metric"\}/);
    assert.match(problem.message, /actual call: +get_weather \{"city":"Lyon","units":"metric"\}/);
    assert.match(problem.message, /\$\.city: expected "Paris", got "Lyon"/);
    assert.match(formatEvalReport(report), /FAIL Weather in Paris\?: 0\/1 runs passed \(0%\)/);
  });

  test('pass rates are counted over runs', async () => {
    // Runs alternate: the model calls the right tool in runs 1 and 3, the wrong one in runs 2 and 4.
    let run = 0;
    model.respond = (body) => {
      if (toolResults(body) > 0) return { kind: 'text', text: 'done' };
      run++;
      return { kind: 'tool-call', name: run % 2 === 1 ? 'echo' : 'add', arguments: {} };
    };
    const loaded = evalOf([{ name: 'echo it', request: 'Echo hi', expect: { calls: [{ tool: 'echo' }] } }], {
      runs: 4,
    });
    const report = await runEval(loaded, { servers: [fakeServer('s', ['echo', 'add'])], models });
    assert.deepEqual(
      report.requests.map(({ passed, runs, passRate }) => ({ passed, runs, passRate })),
      [{ passed: 2, runs: 4, passRate: 0.5 }],
    );
    assert.deepEqual(
      report.requests[0].failures.map((failure) => failure.run),
      [2, 4],
    );
    assert.equal(report.passRate, 0.5);
    const overridden = await runEval(loaded, { servers: [fakeServer('s', ['echo', 'add'])], models, runs: 1 });
    assert.equal(overridden.requests[0].runs, 1);
  });

  test('a tool that must not be called fails the run and is not run on the server', async () => {
    model.respond = (body) =>
      toolResults(body) === 0
        ? { kind: 'tool-call', name: 'delete_city', arguments: { city: 'Paris' } }
        : { kind: 'text', text: 'Deleted.' };
    const server = fakeServer('weather', ['get_weather', 'delete_city']);
    const loaded = evalOf([{ request: 'Remove Paris', expect: { notCalled: ['delete_city'] } }]);
    const report = await runEval(loaded, { servers: [server], models });
    assert.deepEqual(server.called, []);
    const problems = report.requests[0].failures[0].problems;
    assert.deepEqual(
      problems.map((problem) => problem.kind),
      ['forbidden-call'],
    );
    const toolMessage = model.requests.at(-1)?.messages.find((message) => message.role === 'tool');
    assert.match(String(toolMessage?.content), /not run/);
  });

  test('the step cap ends a run that keeps calling tools, and the run fails saying so', async () => {
    model.requests.length = 0;
    model.respond = () => ({ kind: 'tool-call', name: 'echo', arguments: {} });
    const loaded = evalOf([{ request: 'Loop', expect: { calls: [{ tool: 'echo' }] } }], { maxSteps: 3 });
    const report = await runEval(loaded, { servers: [fakeServer('s', ['echo'])], models });
    assert.equal(model.requests.length, 3);
    assert.equal(report.modelCalls, 3);
    const problems = report.requests[0].failures[0].problems;
    assert.deepEqual(
      problems.map((problem) => problem.kind),
      ['step-cap'],
    );
    assert.match(problems[0].message, /step cap \(3 model calls\)/);
  });

  test('a key the model or a server echoes is masked in the report', async () => {
    model.respond = () => ({ kind: 'text', text: `my key is ${KEY}` });
    const loaded = evalOf([{ request: 'Key?', expect: { answer: { contains: 'never' } } }]);
    const report = await runEval(loaded, { servers: [fakeServer('s', ['echo'])], models, secrets: [KEY] });
    const text = JSON.stringify(report) + formatEvalReport(report, [KEY]);
    assert.ok(!text.includes(KEY), text);
    assert.match(text, /expected a final answer containing/);
  });
});

describe('runEval: bounds and stops', () => {
  test('an expected tool no server offers fails before any model call', async () => {
    model.requests.length = 0;
    const loaded = evalOf([{ request: 'a', expect: { calls: [{ tool: 'ech' }] } }]);
    await assert.rejects(
      runEval(loaded, { servers: [fakeServer('s', ['echo'])], models }),
      /expects "ech", which no server offers; offered: echo/,
    );
    assert.equal(model.requests.length, 0);
  });

  test('a model answer larger than the cap is not read whole, and the error says so', async () => {
    model.respond = () => ({ kind: 'text', text: 'x'.repeat(10_000) });
    const provider = new OpenAiCompatibleProvider({
      baseUrl: model.baseUrl,
      model: 'fake-1',
      stream: false,
      fetch: boundedFetch(1_000),
    });
    const capped: EvalModel[] = [{ provider, info: (await provider.listModels())[0] }];
    const loaded = evalOf([{ request: 'a', expect: { answer: { contains: 'x' } } }]);
    await assert.rejects(
      runEval(loaded, { servers: [fakeServer('s', ['echo'])], models: capped }),
      /more than 1000 bytes/,
    );
  });

  test('a stopped eval makes no further model call and no further tool call, and says it was interrupted', async () => {
    model.requests.length = 0;
    model.respond = (body) =>
      toolResults(body) === 0 ? { kind: 'tool-call', name: 'echo', arguments: {} } : { kind: 'text', text: 'done' };
    const stop = new AbortController();
    const server = fakeServer('s', ['echo']);
    const call = server.callTool.bind(server);
    server.callTool = async (tool, args, options) => {
      const outcome = await call(tool, args, options);
      stop.abort();
      return outcome;
    };
    const loaded = evalOf([{ request: 'a', expect: { calls: [{ tool: 'echo' }] } }], { runs: 3 });
    const report = await runEval(loaded, { servers: [server], models, signal: stop.signal });
    assert.equal(report.interrupted, true);
    assert.equal(model.requests.length, 1);
    assert.deepEqual(server.called, ['echo {}']);
    assert.equal(report.requests[0].runs, 0);
  });
});

describe('runEval: one answer with many calls', () => {
  test('at most 16 tool calls of one answer run on the server; the others are answered "not run"', async () => {
    const seen: ChatRequest[] = [];
    const provider: ChatModelProvider = {
      id: 'many',
      listModels: async () => [],
      complete: async (_model, request) => {
        seen.push(request);
        return seen.length === 1
          ? {
              model: 'many',
              text: '',
              toolCalls: Array.from({ length: 40 }, (_, index) => ({
                id: `c${index}`,
                name: 'echo',
                input: { index },
              })),
            }
          : { model: 'many', text: 'done', toolCalls: [] };
      },
    };
    const server = fakeServer('s', ['echo']);
    const info = {
      id: 'many',
      name: 'many',
      providerLabel: 'test',
      abilities: { images: false, audio: false, tools: true },
    };
    const report = await runEval(evalOf([{ request: 'a', expect: { calls: [{ tool: 'echo' }] } }]), {
      servers: [server],
      models: [{ provider, info }],
    });
    assert.equal(server.called.length, 16);
    const results = seen[1].messages.at(-1)?.parts ?? [];
    assert.equal(results.length, 40);
    assert.match(JSON.stringify(results.at(-1)), /Not run: at most 16/);
    assert.equal(report.requests[0].passed, 1);
  });
});

describe('modelToolset and planEval', () => {
  test('tools of several servers get names that say their server and never collide', async () => {
    const toolset = await modelToolset([fakeServer('a', ['echo', 'x.y', 'x_y']), fakeServer('b c', ['echo'])]);
    assert.deepEqual(
      toolset.tools.map((tool) => tool.name),
      ['a__echo', 'a__x_y', 'a__x_y_2', 'b_c__echo'],
    );
    assert.equal(toolset.byModelName.get('a__x_y_2')?.tool.name, 'x_y');
    assert.equal(toolset.byModelName.get('b_c__echo')?.server.serverName, 'b c');
  });

  test('the plan counts the most model calls, and refuses more runs than the cap', () => {
    const loaded = evalOf(
      [
        { request: 'a', expect: { calls: [{ tool: 'x' }] } },
        { request: 'b', runs: 3, expect: { calls: [{ tool: 'x' }] } },
      ],
      {
        runs: 2,
        maxSteps: 4,
      },
    );
    assert.deepEqual(planEval(loaded, 2), { runs: 10, maxModelCalls: 40 });
    assert.deepEqual(planEval(loaded, 1, 5), { runs: 10, maxModelCalls: 40 });
    assert.throws(() => planEval(loaded, 20, 30), /at most 1000/);
  });
});

describe('the eval file', () => {
  test('errors name the place; patterns run on the linear engine', () => {
    assert.throws(() => parseEvalFile('{', 'e.mcpeval.json'), /e\.mcpeval\.json is not JSON/);
    assert.throws(
      () => evalOf([{ request: 'a', expect: {} }]),
      (error: unknown) =>
        error instanceof EvalFormatError && /requests\[0\]\.expect must say something/.test(error.message),
    );
    assert.throws(() => evalOf([{ request: 'a', expect: { answer: { match: '(a)\\1' } } }]), /cannot be used/);
    assert.throws(
      () =>
        evalOf([
          { request: 'a', expect: { calls: [{ tool: 'x', args: {}, rules: [{ path: '$.a', match: '(?=a)' }] }] } },
        ]),
      /cannot be used/,
    );
    assert.throws(() => evalOf([{ request: 'a', expect: { calls: [{ tool: 'x' }] } }], { runs: 0 }), /runs must be/);
  });

  test('schemas/mcpeval.schema.json accepts what the parser accepts and refuses an unknown key', async () => {
    const schema = JSON.parse(await readFile(path.join(repoRoot, 'schemas', 'mcpeval.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const good = {
      $schema: '../schemas/mcpeval.schema.json',
      mcpeval: 1,
      runs: 3,
      models: ['gpt-4o-mini'],
      maxSteps: 5,
      requests: [
        {
          name: 'weather',
          request: 'Weather in Paris?',
          expect: {
            calls: [{ tool: 'get_weather', args: { city: 'Paris' }, rules: [{ path: '$.units', ignore: true }] }],
            notCalled: ['delete_city'],
            answer: { contains: 'Paris' },
          },
        },
      ],
    };
    assert.equal(validate(good), true, JSON.stringify(validate.errors));
    checkEvalFile(good);
    assert.equal(validate({ ...good, server: 'x' }), false);
    assert.throws(() => checkEvalFile({ ...good, server: 'x' }), /unknown key "server"/);
  });
});
