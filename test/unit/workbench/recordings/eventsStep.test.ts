/**
 * The `events/subscribe` step of a recording (src/workbench/recordings/eventsStep.ts): read and written back as it
 * was, refused without a bound, compared with the recordings' rules, run until its bound (count or time) and then
 * stopped, made from a History `events` entry, and described by schemas/mcptest.schema.json.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import Ajv from 'ajv';
import type { McpClient } from '../../../../src/protocol/client';
import { eventsExtension, type EventType, type FeedItem } from '../../../../src/protocol/extensions/events';
import type { HistoryEntry } from '../../../../src/workbench/history/historyLog';
import { compareAnswers } from '../../../../src/workbench/recordings/compare';
import { performEventsStep } from '../../../../src/workbench/recordings/eventsStep';
import {
  MCPTEST_FORMAT_VERSION,
  RecordingFormatError,
  parseRecording,
  serializeRecording,
  type Recording,
} from '../../../../src/workbench/recordings/format';
import { historyStep } from '../../../../src/workbench/recordings/fromHistory';
import { describeFailure, replayRecording } from '../../../../src/workbench/recordings/replay';
import { repoRoot } from '../../../support/paths';

const params = { name: 'ticks', mode: 'push', arguments: {}, cursor: 't-0', until: { count: 2, withinMs: 5000 } };
const answer = {
  result: {
    events: [
      { name: 'ticks', data: { n: 1 } },
      { name: 'ticks', data: { n: 2 } },
    ],
  },
};

function recording(step: Record<string, unknown> = {}): Recording {
  return {
    mcptest: MCPTEST_FORMAT_VERSION,
    server: { kind: 'stdio', command: 'node', args: ['eventsServer.mjs'] },
    steps: [{ request: { method: 'events/subscribe', params }, answer, ...step }],
  } as Recording;
}

const event = (n: number): FeedItem => ({
  kind: 'event',
  receivedAt: n,
  eventId: `e-${n}`,
  name: 'ticks',
  timestamp: `2026-12-07T10:00:0${n}Z`,
  data: { n },
  cursor: `t-${n}`,
  payload: { kind: 'unchecked', reason: 'no payloadSchema' },
});

describe('the events/subscribe step in a recording', () => {
  test('is read and written back as it was', () => {
    const text = serializeRecording(recording());
    const loaded = parseRecording(text, 'e.mcptest.json');
    assert.deepEqual(loaded.recording, recording());
    assert.equal(serializeRecording(loaded.recording), text);
  });

  test('is refused without a bound, with a bound out of range, another mode or an unknown key', () => {
    const refused = (changed: Record<string, unknown>, reason: RegExp) =>
      assert.throws(
        () =>
          parseRecording(
            JSON.stringify({
              ...recording(),
              steps: [{ request: { method: 'events/subscribe', params: changed }, answer }],
            }),
            'e.mcptest.json',
          ),
        (error: unknown) => error instanceof RecordingFormatError && reason.test(error.message),
      );
    refused({ ...params, until: {} }, /steps\[0\]: events\/subscribe needs params\.until\.count or/);
    refused({ name: 'ticks', mode: 'push' }, /needs params\.until/);
    refused({ ...params, until: { count: 0 } }, /until\.count as a whole number from 1/);
    refused({ ...params, until: { withinMs: 3_600_000 } }, /until\.withinMs as a whole number from 1 to 600000/);
    refused({ ...params, mode: 'carrier-pigeon' }, /params\.mode, one of poll, push, webhook/);
    refused({ ...params, extra: 1 }, /unknown params extra/);
  });

  test("a changed payload is named with the event's place and both values; rules apply as to any answer", () => {
    const actual = { result: { events: [answer.result.events[0], { name: 'ticks', data: { n: 3 } }] } };
    const differences = compareAnswers(answer, actual, []);
    assert.deepEqual(
      differences.map(({ path, expected, actual: got }) => [path, expected, got]),
      [['$.result.events[1].data.n', '2', '3']],
    );
    const loaded = parseRecording(
      JSON.stringify(recording({ rules: [{ path: '$.result.events[*].data.n', match: '^[0-9]+$' }] })),
      'e.mcptest.json',
    );
    assert.deepEqual(
      compareAnswers(answer, actual, loaded.rulesOf(0)).map((difference) => difference.reason),
      ['expected a string matching "^[0-9]+$"', 'expected a string matching "^[0-9]+$"'],
      'a number is no string the pattern matches',
    );
    const ignoring = parseRecording(
      JSON.stringify(recording({ rules: [{ path: '$.result.events[*].data.n', ignore: true }] })),
      'e.mcptest.json',
    );
    assert.deepEqual(compareAnswers(answer, actual, ignoring.rulesOf(0)), []);
  });

  test('the schema describes it: a recording with one validates, one without a bound does not', async () => {
    const schema = JSON.parse(await readFile(path.join(repoRoot, 'schemas', 'mcptest.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    assert.equal(validate(JSON.parse(serializeRecording(recording()))), true, JSON.stringify(validate.errors));
    const unbounded = {
      ...recording(),
      steps: [{ request: { method: 'events/subscribe', params: { ...params, until: {} } }, answer }],
    };
    assert.equal(validate(unbounded), false);
    const noParams = { ...recording(), steps: [{ request: { method: 'events/subscribe' }, answer }] };
    assert.equal(validate(noParams), false);
  });
});

/** A client whose events API is the test's: `emit` hands the subscription's listener an item. */
function fakeClient() {
  const type: EventType = { name: 'ticks', delivery: ['poll', 'push'] };
  const state = {
    stopped: 0,
    listener: undefined as ((item: FeedItem) => void) | undefined,
    request: undefined as unknown,
  };
  let endSubscription!: () => void;
  let subscribed!: () => void;
  const whenSubscribed = new Promise<void>((resolve) => (subscribed = resolve));
  const api = {
    supported: true,
    list: () => Promise.resolve({ types: [type], invalid: [] }),
    subscribe: (_type: EventType, _mode: string, request: unknown, listener: (item: FeedItem) => void) => {
      state.listener = listener;
      state.request = request;
      subscribed();
      const ended = new Promise<void>((resolve) => (endSubscription = resolve));
      return {
        ended,
        stop: () => {
          state.stopped++;
          endSubscription();
          return ended;
        },
      };
    },
  };
  const client = {
    serverName: 'events',
    extension: (key: { id: string }) => (key.id === eventsExtension.id ? api : undefined),
  } as unknown as McpClient;
  return {
    client,
    state,
    whenSubscribed,
    emit: (item: FeedItem) => state.listener?.(item),
    end: () => endSubscription(),
  };
}

const settle = async () => {
  for (let index = 0; index < 5; index++) await Promise.resolve();
};

describe('running an events/subscribe step', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  test('ends at its count, keeps name and payload (and a truncated gap), and stops the subscription', async () => {
    const { client, state, emit } = fakeClient();
    const running = performEventsStep(client, {
      name: 'ticks',
      mode: 'push',
      arguments: { city: 'Oslo' },
      cursor: 't-0',
      until: { count: 2, withinMs: 60_000 },
    });
    await settle();
    assert.deepEqual(state.request, { arguments: { city: 'Oslo' }, cursor: 't-0' });
    emit({ kind: 'status', receivedAt: 0, status: 'active' });
    emit(event(1));
    emit({ kind: 'gap', receivedAt: 1, reason: 'truncated' });
    emit({ kind: 'gap', receivedAt: 1, reason: 'flood', dropped: 3 });
    emit(event(2));
    emit(event(3));
    assert.deepEqual(await running, {
      events: [{ name: 'ticks', data: { n: 1 } }, { gap: 'truncated' }, { name: 'ticks', data: { n: 2 } }],
    });
    assert.equal(state.stopped, 1);
  });

  test('ends at its time bound with what came, and stops the subscription', async () => {
    const { client, state, emit } = fakeClient();
    let settled = false;
    const running = performEventsStep(client, {
      name: 'ticks',
      mode: 'poll',
      arguments: {},
      cursor: null,
      until: { count: 5, withinMs: 1_000 },
    }).finally(() => (settled = true));
    await settle();
    emit(event(1));
    mock.timers.tick(999);
    await settle();
    assert.equal(settled, false, 'it waits until its bound');
    mock.timers.tick(1);
    assert.deepEqual(await running, { events: [{ name: 'ticks', data: { n: 1 } }] });
    assert.equal(state.stopped, 1);
  });

  test('a subscription the server ended ends the step, marked terminated', async () => {
    const { client, end } = fakeClient();
    const running = performEventsStep(client, {
      name: 'ticks',
      mode: 'push',
      arguments: {},
      cursor: null,
      until: { withinMs: 60_000 },
    });
    await settle();
    end();
    assert.deepEqual(await running, { events: [], terminated: true });
  });

  test('in a replay, an event that differs fails the step naming its type and where the payload changed', async () => {
    const { client, emit, whenSubscribed } = fakeClient();
    const loaded = parseRecording(serializeRecording(recording()), 'e.mcptest.json');
    const replay = replayRecording(client, loaded);
    await whenSubscribed;
    emit(event(1));
    emit(event(5));
    const report = await replay;
    assert.equal(report.firstFailure, 0);
    assert.equal(
      describeFailure(report.steps[0]),
      'step 1 (events/subscribe ticks) differs at $.result.events[1].data.n: the value changed; expected 2, got 5',
    );
  });

  test('a server without events answers the step with an error, as any failed request', async () => {
    const client = { serverName: 'plain', extension: () => undefined } as unknown as McpClient;
    const report = await replayRecording(client, parseRecording(serializeRecording(recording()), 'e.mcptest.json'));
    assert.deepEqual(report.steps[0].actual, {
      error: { kind: 'capability-missing', message: 'plain does not offer events (events/subscribe)' },
    });
  });
});

describe('Save as Test from a History events entry', () => {
  const entry = (result: HistoryEntry['result']): HistoryEntry => ({
    id: 1,
    server: { id: 's', name: 'events' },
    startedAt: 0,
    durationMs: 4_200,
    operation: { kind: 'events', eventName: 'ticks', mode: 'push', arguments: { city: 'Oslo' } },
    outcome: { kind: 'succeeded', note: 'stopped' },
    result,
  });

  test('becomes an events/subscribe step waiting for as many events, as long as it ran', () => {
    const items: FeedItem[] = [{ kind: 'status', receivedAt: 0, status: 'active' }, event(1), event(2)];
    const choice = historyStep(entry({ kind: 'kept', value: { stats: {}, itemsLeftOut: 0, items }, chars: 100 }));
    assert.equal(choice.kind, 'step');
    assert.deepEqual(choice.kind === 'step' && choice.step, {
      request: {
        method: 'events/subscribe',
        params: {
          name: 'ticks',
          mode: 'push',
          arguments: { city: 'Oslo' },
          cursor: null,
          until: { count: 2, withinMs: 4_200 },
        },
      },
      answer: answer,
    });
    // What Save as Test writes is a recording the parser reads.
    const written = serializeRecording({
      ...recording(),
      steps: [choice.kind === 'step' ? choice.step : ({} as never)],
    });
    assert.doesNotThrow(() => parseRecording(written, 'e.mcptest.json'));
  });

  test('is refused when History left some of its events out, or kept no result', () => {
    const partial = historyStep(
      entry({ kind: 'kept', value: { stats: {}, itemsLeftOut: 7, items: [event(8)] }, chars: 100 }),
    );
    assert.match(partial.kind === 'unusable' ? partial.reason : '', /only its last 1 events \(7 left out\)/);
    const dropped = historyStep(entry({ kind: 'dropped', originalChars: 10 }));
    assert.match(dropped.kind === 'unusable' ? dropped.reason : '', /did not keep its whole result/);
  });
});
