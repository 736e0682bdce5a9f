/**
 * The host end of an app's wire (src/workbench/apps/appSession.ts) driven the way an app drives it, message by
 * message, against real servers: the apps fixture (both eras) and the published debug example server.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpClient } from '../../../../src/protocol/client';
import { appsExtensionsFor, mcpApps, type AppsApi } from '../../../../src/protocol/extensions/apps';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import type { Tool } from '../../../../src/protocol/types';
import { AppSession, type AppHostPort } from '../../../../src/workbench/apps/appSession';
import type { HostSurroundings } from '../../../../src/workbench/apps/hostContext';
import type { HistoryRecord } from '../../../../src/workbench/history/historyLog';
import { APPS_FIXTURE, DEBUG_APP_SERVER } from '../../../support/appsSupport';
import { waitFor } from '../../../support/testSupport';

const clients: McpClient[] = [];
/** Each connection's tools as the server listed them: the host's list a session reads a tool's annotations from. */
const listed = new WeakMap<AppsApi, Tool[]>();
after(async () => {
  for (const client of clients) await client.close();
});

async function connect(args: string[], era: 'legacy' | '2026-07-28'): Promise<{ api: AppsApi; tools: Tool[] }> {
  const client = new McpClient({
    serverName: 'apps',
    transport: new StdioTransport({ command: process.execPath, args, shutdownGraceMs: 1000 }),
    era,
    requestTimeoutMs: 15_000,
    extensions: appsExtensionsFor(true),
  });
  clients.push(client);
  await client.connect();
  const api = client.extension(mcpApps);
  assert.ok(api);
  const tools = await client.listTools();
  listed.set(api, tools);
  return { api, tools };
}

const SURROUNDINGS: HostSurroundings = {
  theme: 'dark',
  styles: { '--color-background-primary': '#1e1e1e' },
  displayMode: 'inline',
  container: { width: 640, maxHeight: 800 },
  locale: 'en-US',
  timeZone: 'Europe/Berlin',
};

type Posted = Record<string, unknown> & {
  id?: unknown;
  method?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
  params?: Record<string, unknown>;
};

/** A port that records what the session posts and answers the person's prompts as told. */
function recordingPort(answers: { link?: boolean; message?: boolean; call?: boolean } = {}) {
  const posted: Posted[] = [];
  const asked: string[] = [];
  const stopped: string[] = [];
  const logs: string[] = [];
  const sizes: { width?: number; height?: number }[] = [];
  const port: AppHostPort = {
    post: (message) => posted.push(message as Posted),
    openLink: async (url) => (asked.push(`link ${url}`), answers.link ?? false),
    offerMessage: async (content) => (asked.push(`message ${JSON.stringify(content)}`), answers.message ?? false),
    confirmToolCall: async (call) => (
      asked.push(`call ${call.name} ${JSON.stringify(call.args)} ${call.tool ? 'listed' : 'unlisted'}`),
      answers.call ?? false
    ),
    downloadFiles: async (items) => (asked.push(`download ${items.length}`), false),
    requestDisplayMode: (mode) => (mode === 'pip' ? 'inline' : mode),
    sizeChanged: (size) => sizes.push(size),
    modelContextChanged: () => undefined,
    log: (level, text) => logs.push(`${level} ${text}`),
    teardownRequested: () => undefined,
    stopped: (reason) => stopped.push(reason),
  };
  return { port, posted, asked, stopped, logs, sizes };
}

function answerTo(posted: Posted[], id: number | string): Posted | undefined {
  return posted.find((message) => message.id === id && message.method === undefined);
}

function session(
  api: AppsApi,
  tool: Tool,
  port: AppHostPort,
  extra: Partial<ConstructorParameters<typeof AppSession>[0]> = {},
): AppSession {
  return new AppSession({
    serverName: 'apps',
    tool,
    callId: 7,
    api,
    hostInfo: { name: 'mcp-workbench', version: '0.1.0' },
    surroundings: SURROUNDINGS,
    port,
    toolOf: (name) => listed.get(api)?.find((entry) => entry.name === name),
    ...extra,
  });
}

function initialize(subject: AppSession): void {
  subject.receive({
    jsonrpc: '2.0',
    id: 'init',
    method: 'ui/initialize',
    params: { appInfo: { name: 'test-app', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' },
  });
}

for (const era of ['legacy', '2026-07-28'] as const) {
  describe(`apps bridge: the apps fixture (${era})`, () => {
    test('nothing reaches the app before initialized; then its input once and its result, in that order', async () => {
      const { api, tools } = await connect([APPS_FIXTURE], era);
      const tool = tools.find((entry) => entry.name === 'show_panel')!;
      const { port, posted } = recordingPort();
      const subject = session(api, tool, port);
      subject.toolInput({ a: 1 });
      subject.toolResult({ content: [{ type: 'text', text: 'panel result' }] });
      assert.equal(posted.length, 0, 'nothing is posted before the app spoke');
      initialize(subject);
      const init = posted.find((message) => message.id === 'init');
      assert.ok(init?.result, 'ui/initialize is answered');
      assert.equal(init.result.protocolVersion, '2026-01-26');
      assert.deepEqual(init.result.hostInfo, { name: 'mcp-workbench', version: '0.1.0' });
      const context = init.result.hostContext as Record<string, unknown>;
      assert.equal(context.theme, 'dark');
      assert.equal(context.locale, 'en-US');
      assert.equal(context.timeZone, 'Europe/Berlin');
      assert.equal(context.displayMode, 'inline');
      assert.equal(context.platform, 'desktop');
      assert.deepEqual(context.containerDimensions, { width: 640, maxHeight: 800 });
      assert.equal((context.toolInfo as { tool: Tool; id: number }).tool.name, 'show_panel');
      assert.equal(posted.length, 1, 'still nothing but the answer before initialized');
      // A request before initialized is refused.
      subject.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'app_only' } });
      await waitFor(() => answerTo(posted, 2) !== undefined, 'the early call to be refused');
      assert.match(answerTo(posted, 2)!.error!.message, /tools\/call before ui\/notifications\/initialized/);
      subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
      const notifications = posted
        .filter((message) => typeof message.method === 'string')
        .map((message) => message.method);
      assert.deepEqual(notifications, ['ui/notifications/tool-input', 'ui/notifications/tool-result']);
      assert.deepEqual(posted.find((message) => message.method === 'ui/notifications/tool-input')!.params, {
        arguments: { a: 1 },
      });
      // A cancelled call is told to the app.
      subject.toolCancelled('cancelled by the user');
      assert.deepEqual(posted.at(-1), {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-cancelled',
        params: { reason: 'cancelled by the user' },
      });
      subject.close();
    });

    test("the app calls its own server's app tools; a model-only tool is refused with its name", async () => {
      const { api, tools } = await connect([APPS_FIXTURE], era);
      const { port, posted } = recordingPort();
      const subject = session(
        api,
        tools.find((entry) => entry.name === 'show_panel')!,
        port,
      );
      initialize(subject);
      subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
      subject.receive({
        jsonrpc: '2.0',
        id: 'c1',
        method: 'tools/call',
        params: { name: 'app_only', arguments: { word: 'clicked' } },
      });
      subject.receive({
        jsonrpc: '2.0',
        id: 'c2',
        method: 'tools/call',
        params: { name: 'model_only', arguments: {} },
      });
      subject.receive({ jsonrpc: '2.0', id: 'r1', method: 'resources/read', params: { uri: 'fixture://notes' } });
      subject.receive({ jsonrpc: '2.0', id: 'x1', method: 'sampling/createMessage', params: {} });
      await waitFor(
        () => ['c1', 'c2', 'r1', 'x1'].every((id) => posted.some((message) => message.id === id)),
        'every request to be answered',
      );
      const ofId = (id: string) => posted.find((message) => message.id === id)!;
      assert.deepEqual((ofId('c1').result as { content: unknown }).content, [
        { type: 'text', text: 'app-only answer: clicked' },
      ]);
      assert.match(ofId('c2').error!.message, /may not call tool "model_only"/);
      assert.equal((ofId('r1').result as { contents: { text: string }[] }).contents[0]!.text, 'notes for the app');
      assert.match(ofId('x1').error!.message, /sampling\/createMessage is not a method this host serves/);
      subject.close();
    });
  });
}

describe('apps bridge: the debug example server and the untrusted edges', () => {
  test('links and messages ask the person first; the URL asked about is the URL opened; bad URLs are never asked', async () => {
    const { api, tools } = await connect([DEBUG_APP_SERVER, '--stdio'], 'legacy');
    const { port, posted, asked } = recordingPort({ link: true, message: false });
    const subject = session(
      api,
      tools.find((entry) => entry.name === 'debug-tool')!,
      port,
    );
    initialize(subject);
    subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    subject.receive({ jsonrpc: '2.0', id: 1, method: 'ui/open-link', params: { url: 'https://example.com/a%20b' } });
    await waitFor(() => answerTo(posted, 1) !== undefined, 'the link answer');
    subject.receive({ jsonrpc: '2.0', id: 2, method: 'ui/open-link', params: { url: 'javascript:alert(1)' } });
    // Refused, never "fixed": a space, or a backslash before an @, could show one host and reach another.
    subject.receive({ jsonrpc: '2.0', id: 5, method: 'ui/open-link', params: { url: 'https://example.com/a b' } });
    subject.receive({
      jsonrpc: '2.0',
      id: 6,
      method: 'ui/open-link',
      params: { url: 'https://good.example\\@evil.example/' },
    });
    subject.receive({
      jsonrpc: '2.0',
      id: 3,
      method: 'ui/message',
      params: { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    });
    subject.receive({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'debug-refresh' } });
    await waitFor(() => [2, 3, 4, 5, 6].every((id) => answerTo(posted, id) !== undefined), 'the other answers');
    assert.deepEqual(answerTo(posted, 1)!.result, {}, 'opened');
    assert.match(answerTo(posted, 2)!.error!.message, /javascript: URLs are not allowed/);
    assert.match(answerTo(posted, 5)!.error!.message, /the URL contains the character/);
    assert.match(answerTo(posted, 6)!.error!.message, /the URL contains a backslash/);
    assert.deepEqual(answerTo(posted, 3)!.result, { isError: true }, 'the person declined the message');
    assert.deepEqual(asked, ['link https://example.com/a%20b', 'message [{"type":"text","text":"hello"}]']);
    assert.match(JSON.stringify(answerTo(posted, 4)!.result), /Server timestamp/);
    subject.close();
  });

  test('a file download asks the host (its save dialog) for well-formed files only; a declined save answers isError', async () => {
    const { api, tools } = await connect([DEBUG_APP_SERVER, '--stdio'], 'legacy');
    const { port, posted, asked } = recordingPort();
    const subject = session(
      api,
      tools.find((entry) => entry.name === 'debug-tool')!,
      port,
    );
    initialize(subject);
    subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    const file = { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hello' } };
    const link = { type: 'resource_link', uri: 'debug://log', name: 'log' };
    subject.receive({ jsonrpc: '2.0', id: 1, method: 'ui/download-file', params: { contents: [file, link] } });
    subject.receive({
      jsonrpc: '2.0',
      id: 2,
      method: 'ui/download-file',
      params: { contents: Array.from({ length: 9 }, () => file) },
    });
    subject.receive({
      jsonrpc: '2.0',
      id: 3,
      method: 'ui/download-file',
      params: { contents: [{ type: 'text', text: 'not a file' }] },
    });
    subject.receive({
      jsonrpc: '2.0',
      id: 4,
      method: 'ui/download-file',
      params: { contents: [{ type: 'resource', resource: { uri: 'file:///empty' } }] },
    });
    await waitFor(() => [1, 2, 3, 4].every((id) => answerTo(posted, id) !== undefined), 'the download answers');
    assert.deepEqual(answerTo(posted, 1)!.result, { isError: true }, 'the person cancelled the save dialog');
    assert.match(answerTo(posted, 2)!.error!.message, /1 to 8 contents/);
    assert.match(answerTo(posted, 3)!.error!.message, /resource or resource_link/);
    assert.match(answerTo(posted, 4)!.error!.message, /neither text nor blob/);
    assert.deepEqual(asked, ['download 2'], 'only the well-formed request reached the host');
    subject.close();
  });

  test('display mode, model context, size and log go to the host; theme changes send only what changed', async () => {
    const { api, tools } = await connect([DEBUG_APP_SERVER, '--stdio'], 'legacy');
    const { port, posted, sizes, logs } = recordingPort();
    const subject = session(
      api,
      tools.find((entry) => entry.name === 'debug-tool')!,
      port,
    );
    initialize(subject);
    subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    subject.receive({ jsonrpc: '2.0', id: 1, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
    subject.receive({
      jsonrpc: '2.0',
      id: 2,
      method: 'ui/update-model-context',
      params: { content: [{ type: 'text', text: 'the user picked B' }] },
    });
    subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 300, height: 99999 } });
    subject.receive({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'warning', data: { note: 'from the app' } },
    });
    await waitFor(() => answerTo(posted, 2) !== undefined, 'the model context answer');
    assert.deepEqual(answerTo(posted, 1)!.result, { mode: 'fullscreen' });
    assert.equal(subject.displayMode, 'fullscreen');
    assert.deepEqual(subject.modelContext, { content: [{ type: 'text', text: 'the user picked B' }] });
    assert.deepEqual(sizes, [{ width: 300, height: 10000 }], 'sizes are clamped');
    assert.deepEqual(logs, ['warning {"note":"from the app"}']);
    subject.updateSurroundings({ ...SURROUNDINGS, displayMode: 'fullscreen', theme: 'light' });
    const changes = posted
      .filter((message) => message.method === 'ui/notifications/host-context-changed')
      .map((message) => message.params);
    assert.deepEqual(changes, [{ displayMode: 'fullscreen' }, { theme: 'light' }]);
    subject.close();
  });

  test("the app's own tool calls are recorded as the app's; a destructive one asks first, and declined it is not made", async () => {
    const { api, tools } = await connect([APPS_FIXTURE], 'legacy');
    const records: HistoryRecord[] = [];
    const history = {
      recording: { record: (record: HistoryRecord) => void records.push(record) },
      server: { id: 'apps#1', name: 'apps' },
      note: 'via the app of show_panel',
    };
    // The person's answers, read when asked: changed between the calls below.
    const answers = { call: false };
    const { port, posted, asked } = recordingPort(answers);
    const subject = session(
      api,
      tools.find((entry) => entry.name === 'show_panel')!,
      port,
      { history },
    );
    initialize(subject);
    subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    const call = async (id: string, name: string, args: Record<string, unknown>) => {
      subject.receive({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
      await waitFor(() => answerTo(posted, id) !== undefined, `the answer to ${id}`);
      return answerTo(posted, id)!;
    };
    // Not destructive: made without asking, recorded as the app's.
    const plain = await call('c1', 'app_only', { word: 'hi' });
    assert.deepEqual((plain.result as { content: unknown }).content, [{ type: 'text', text: 'app-only answer: hi' }]);
    // Destructive: asked first; the first answer is no, so the server is never called and the app hears why.
    const declined = await call('c2', 'erase_notes', { what: 'all' });
    assert.equal(declined.result!.isError, true);
    assert.match(JSON.stringify(declined.result), /The person declined this call of erase_notes/);
    // Asked again, allowed: made.
    answers.call = true;
    const allowed = await call('c3', 'erase_notes', { what: 'all' });
    assert.deepEqual((allowed.result as { content: unknown }).content, [{ type: 'text', text: 'erased: all' }]);
    // A tool the host has not listed (its list is older than the server's): asked too; declined, never made.
    answers.call = false;
    const unlisted = await call('c4', 'brand_new', {});
    assert.equal(unlisted.result!.isError, true);
    assert.deepEqual(asked, [
      'call erase_notes {"what":"all"} listed',
      'call erase_notes {"what":"all"} listed',
      'call brand_new {} unlisted',
    ]);
    assert.deepEqual(
      records.map((record) => ({
        tool: record.operation.kind === 'tool' ? record.operation.toolName : '',
        outcome: record.outcome,
        source: record.source,
        server: record.server.name,
      })),
      [
        { tool: 'app_only', outcome: { kind: 'succeeded', note: 'via the app of show_panel' } },
        { tool: 'erase_notes', outcome: { kind: 'declined', note: 'via the app of show_panel' } },
        { tool: 'erase_notes', outcome: { kind: 'succeeded', note: 'via the app of show_panel' } },
        { tool: 'brand_new', outcome: { kind: 'declined', note: 'via the app of show_panel' } },
      ].map((row) => ({ ...row, source: { kind: 'app', appTool: 'show_panel' }, server: 'apps' })),
    );
    assert.deepEqual(records[2]!.result, allowed.result, 'the allowed call keeps its result');
    subject.close();
  });

  test('a flooding app is stopped once, with a note naming the server and tool; later messages are ignored', async () => {
    const { api, tools } = await connect([APPS_FIXTURE], 'legacy');
    const { port, posted, stopped } = recordingPort();
    const subject = session(
      api,
      tools.find((entry) => entry.name === 'show_hostile')!,
      port,
      { messagesPerSecond: 50 },
    );
    initialize(subject);
    subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    for (let index = 0; index < 500; index++)
      subject.receive({ jsonrpc: '2.0', method: 'notifications/message', params: { data: index } });
    assert.equal(stopped.length, 1);
    assert.match(stopped[0]!, /^apps: the app of show_hostile sent more than 50 messages in a second and was stopped$/);
    assert.equal(subject.state.kind, 'stopped');
    const before = posted.length;
    subject.receive({ jsonrpc: '2.0', id: 9, method: 'ping' });
    subject.toolResult({ content: [] });
    assert.equal(posted.length, before, 'a stopped app is sent nothing');
  });

  test('junk is dropped and counted; an app that keeps sending it is stopped', async () => {
    const { api, tools } = await connect([APPS_FIXTURE], 'legacy');
    const { port, posted, stopped, logs } = recordingPort();
    const subject = session(
      api,
      tools.find((entry) => entry.name === 'show_hostile')!,
      port,
      { maxRejected: 3 },
    );
    subject.receive('not an object');
    subject.receive({ type: 'ready' });
    subject.receive({ jsonrpc: '2.0', method: 'x'.repeat(5000) });
    assert.equal(stopped.length, 0, 'three pieces of junk are tolerated');
    assert.equal(logs.length, 3);
    subject.receive({ jsonrpc: '2.0', id: { nested: true }, method: 'ping' });
    assert.equal(stopped.length, 1);
    assert.match(stopped[0]!, /kept sending malformed messages/);
    assert.equal(posted.length, 0);
  });

  test('teardown is awaited when the app answers, and bounded when it does not', async () => {
    const { api, tools } = await connect([APPS_FIXTURE], 'legacy');
    const tool = tools.find((entry) => entry.name === 'show_panel')!;
    const polite = recordingPort();
    const answering = session(api, tool, polite.port);
    initialize(answering);
    answering.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    const done = answering.teardown(10_000);
    const request = polite.posted.find((message) => message.method === 'ui/resource-teardown')!;
    assert.ok(request, 'ui/resource-teardown was sent');
    answering.receive({ jsonrpc: '2.0', id: request.id, result: {} });
    assert.equal(await done, 'answered');
    assert.equal(answering.state.kind, 'closed');
    const silent = recordingPort();
    const mute = session(api, tool, silent.port);
    initialize(mute);
    mute.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    assert.equal(await mute.teardown(50), 'timed-out');
    assert.equal(mute.state.kind, 'closed');
    const never = session(api, tool, recordingPort().port);
    assert.equal(await never.teardown(10_000), 'not-running', 'an app that never initialized is closed at once');
  });

  test('closed while its app is still answering (its tab closed with X): the teardown wait ends, the call in flight is cancelled and answers nobody', async () => {
    const { api, tools } = await connect([APPS_FIXTURE], 'legacy');
    const tool = tools.find((entry) => entry.name === 'show_panel')!;
    const { port, posted } = recordingPort();
    const subject = session(api, tool, port);
    initialize(subject);
    subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    // The app's call of its app-only tool is on its way to the server when the tab closes.
    subject.receive({
      jsonrpc: '2.0',
      id: 'call',
      method: 'tools/call',
      params: { name: 'app_only', arguments: { word: 'late' } },
    });
    // Close App was pressed and the app is slow to answer; then the X closes the tab (the frame is gone).
    const tearingDown = subject.teardown(600_000);
    assert.ok(
      posted.some((message) => message.method === 'ui/resource-teardown'),
      'ui/resource-teardown was sent',
    );
    assert.equal(subject.close(), 1, 'one request in flight was cancelled');
    assert.equal(await tearingDown, 'closed', 'the teardown wait ends with the session, not at its bound');
    assert.equal(subject.state.kind, 'closed');
    assert.equal(subject.close(), 0, 'closing again cancels nothing');
    // The cancelled call settles on the host side; nothing is posted to the gone app, then or for later input.
    await waitFor(() => subject.requestsInFlight === 0, 'the cancelled call to settle');
    subject.toolResult({ content: [{ type: 'text', text: 'late result' }] });
    assert.equal(answerTo(posted, 'call'), undefined, 'the gone app gets no answer');
    assert.equal(posted.filter((message) => message.method === 'ui/notifications/tool-result').length, 0);
  });

  for (const asked of [
    { method: 'ui/open-link', params: { url: 'https://example.com/late' }, prompt: 'link' },
    { method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'late' }] }, prompt: 'message' },
  ] as const) {
    test(`a ${asked.prompt} consent still up when the app's tab closes: the person's answer reaches nobody`, async () => {
      const { api, tools } = await connect([APPS_FIXTURE], 'legacy');
      const { port, posted } = recordingPort();
      // The consent dialog stays up (it is modal: VS Code cannot take it down) until the person answers.
      let answer: ((agreed: boolean) => void) | undefined;
      const prompt = () => new Promise<boolean>((resolve) => (answer = resolve));
      const subject = session(
        api,
        tools.find((entry) => entry.name === 'show_panel')!,
        { ...port, openLink: prompt, offerMessage: prompt },
      );
      initialize(subject);
      subject.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
      subject.receive({ jsonrpc: '2.0', id: 'asked', method: asked.method, params: asked.params });
      await waitFor(() => answer !== undefined, `the ${asked.prompt} consent to be up`);
      assert.equal(subject.close(), 1, 'the consent is a request in flight when the tab closes');
      answer!(true);
      // The request is over once it no longer counts as in flight: its answer was given or dropped by then.
      await waitFor(() => subject.requestsInFlight === 0, 'the answered consent to settle');
      assert.equal(answerTo(posted, 'asked'), undefined, 'the gone app gets no answer');
    });
  }
});
