/**
 * The gateway in the extension (src/extension/platform/gateway): a running server's gateway opened through the
 * platform service, an SDK client calling a tool through it from inside the extension host (listed as an agent
 * under the server), and the gateway closed when the server stops. On code-server 4.100 (VS Code 1.100) the chat
 * provider is absent and nothing else changes.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, leaveCleanState, startFromCleanState } from './workbench';

export function gatewaySuite(vscode: VscodeApi): Suite {
  const suite = new Suite('gateway');
  let api: McpWorkbenchApi | undefined;
  const clients: Client[] = [];
  const requireApi = (): McpWorkbenchApi => {
    assert(api, 'the extension API is not available');
    return api;
  };
  const everything = () => {
    const controller = requireApi().manager.byName(EVERYTHING_SERVER)[0];
    assert(controller, `no server named "${EVERYTHING_SERVER}" is configured`);
    return controller;
  };

  suite.before(async () => {
    api = await startFromCleanState(vscode);
  });

  suite.test(
    'the chat provider is registered only where VS Code takes it (1.101+), and 1.100 activates without it',
    () => {
      const [major, minor] = vscode.version.split('.').map(Number);
      const takesProviders = major > 1 || (major === 1 && minor >= 101);
      assertEqual(
        requireApi().gateway.providerRegistered,
        takesProviders,
        `provider registered in VS Code ${vscode.version}`,
      );
    },
  );

  suite.test(
    "an SDK client calls a tool through a running server's gateway, and is listed as its agent",
    async () => {
      const controller = everything();
      await controller.start();
      await requireApi().manager.waitForState(EVERYTHING_SERVER, 'running', 60_000);
      const pid = controller.pid;
      const served = await requireApi().gateway.serve(controller);
      assert(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(served.url), `gateway URL ${served.url}`);
      assert(/^Bearer [0-9a-f]{64}$/.test(served.headers.Authorization ?? ''), 'the gateway asks for a bearer secret');

      const client = new Client({ name: 'integration-agent', version: '1.2.3' });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { ...served.headers } } }),
      );
      const result = (await client.callTool({ name: 'echo', arguments: { message: 'through the gateway' } })) as {
        content: { type: string; text?: string }[];
      };
      assert(
        result.content.some((item) => item.text?.includes('through the gateway')),
        `echo's answer: ${JSON.stringify(result)}`,
      );
      assertEqual(controller.pid, pid, 'the same server process answered (no second copy)');
      const agents = await waitUntil(
        'the agent listed under the server',
        () => {
          const list = requireApi().gateway.agents(controller);
          return list.length > 0 ? list : undefined;
        },
        10_000,
      );
      assertEqual(`${agents[0].name} ${agents[0].version}`, 'integration-agent 1.2.3', 'the agent as it named itself');
    },
    { timeoutMs: 90_000 },
  );

  suite.test(
    'per-tool rules for agents: disable hides and refuses a tool (agents hear list_changed), ask and review go to the person, History labels the agent',
    async () => {
      const controller = everything();
      const { gateway, history } = requireApi();
      const served = await gateway.serve(controller);
      const client = new Client({ name: 'policy-agent', version: '4.5.6' });
      clients.push(client);
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { ...served.headers } } }),
      );
      const echoRow = { kind: 'tool', controller, tool: { name: 'echo', inputSchema: { type: 'object' } } };
      const asked: string[] = [];
      gateway.setToolPolicyPrompts({
        ask: async (call) => {
          asked.push(`ask ${call.agent?.name ?? '?'} ${call.tool} ${JSON.stringify(call.arguments)}`);
          return true;
        },
        review: async (call) => {
          asked.push(`review ${call.agent?.name ?? '?'} ${call.tool}`);
          return false;
        },
      });
      try {
        await vscode.commands.executeCommand('mcpWorkbench.disableToolForAgents', echoRow);
        await waitUntil('the agent heard tools/list_changed', () => (changed >= 1 ? true : undefined), 10_000);
        const listed = (await client.listTools()).tools.map((tool) => tool.name);
        assert(!listed.includes('echo'), `echo is hidden from agents: ${listed.join(', ')}`);
        const refused = await client.callTool({ name: 'echo', arguments: { message: 'hi' } }).then(
          () => 'ran',
          (error: Error & { code?: number }) => `${error.code}: ${error.message}`,
        );
        assert(/^-32602: .*Tool "echo" is disabled for agents/.test(refused), `the refusal: ${refused}`);
        // The person's own list is the server's: the rule is for agents only.
        assert(
          controller.state.kind === 'running' && controller.state.tools.some((tool) => tool.name === 'echo'),
          'the workbench still lists echo',
        );

        await vscode.commands.executeCommand('mcpWorkbench.enableToolForAgents', echoRow);
        await vscode.commands.executeCommand('mcpWorkbench.agentToolPolicyAsk', echoRow);
        const allowed = (await client.callTool({ name: 'echo', arguments: { message: 'asked' } })) as {
          content: { text?: string }[];
        };
        assert(
          allowed.content.some((item) => item.text?.includes('asked')),
          `the allowed call: ${JSON.stringify(allowed)}`,
        );
        assertEqual(asked.join(' | '), 'ask policy-agent echo {"message":"asked"}', 'what the person was asked');

        await vscode.commands.executeCommand('mcpWorkbench.agentToolPolicyReview', echoRow);
        const withheld = (await client.callTool({ name: 'echo', arguments: { message: 'secret' } })) as {
          isError?: boolean;
          content: { text?: string }[];
        };
        assertEqual(withheld.isError, true, 'a withheld result is an error result');
        assert(
          withheld.content.some((item) => item.text?.includes('withheld')) &&
            !JSON.stringify(withheld).includes('Echo: secret'),
          `the withheld answer: ${JSON.stringify(withheld)}`,
        );

        const mine = history
          .entries()
          .filter((entry) => entry.source?.kind === 'agent' && entry.source.name === 'policy-agent');
        assertEqual(
          mine
            .map((entry) => `${entry.operation.kind === 'tool' ? entry.operation.toolName : '?'} ${entry.outcome.kind}`)
            .join(', '),
          'echo declined, echo succeeded, echo tool-error',
          "History's entries of the agent",
        );
        assertEqual(mine[1]?.source?.kind === 'agent' ? mine[1].source.version : '', '4.5.6', "the agent's version");
      } finally {
        gateway.setToolPolicyPrompts(undefined);
        await vscode.commands.executeCommand('mcpWorkbench.agentToolPolicyRun', echoRow);
        await vscode.commands.executeCommand('mcpWorkbench.enableToolForAgents', echoRow);
      }
    },
    { timeoutMs: 90_000 },
  );

  suite.test('stopping the server closes its gateway: the URL no longer answers', async () => {
    const controller = everything();
    const served = requireApi().gateway.served(controller);
    assert(served, 'the gateway was not open before the stop');
    await controller.stop();
    await waitUntil(
      'the gateway closed',
      () => (requireApi().gateway.served(controller) === undefined ? true : undefined),
      15_000,
    );
    const refused = await fetch(served.url, {
      method: 'POST',
      headers: { ...served.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    }).then(
      (response) => `answered ${response.status}`,
      () => 'refused',
    );
    assertEqual(refused, 'refused', 'a request to the closed gateway');
  });

  suite.test(
    'where VS Code takes the provider, the two-clients notice asks how chat reaches the servers and keeps the answer',
    async () => {
      const { config, gateway } = requireApi();
      const available = gateway.providerRegistered;
      const isQuestion = (message: string) => message.startsWith("VS Code's own MCP support reads the same");
      config.clearNotifications();
      config.answerNotifications((notification) =>
        isQuestion(notification.message) ? 'Chat Uses MCP Workbench' : undefined,
      );
      try {
        await gateway.forgetChatRoute();
        gateway.setChatRouteAvailable(true);
        assertEqual(await config.recheckBuiltInMcpNotice(), 'through-workbench', 'outcome of the notice');
        const shown = config.notifications().filter((n) => isQuestion(n.message));
        assertEqual(shown.length, 1, 'questions shown');
        assertEqual(
          shown[0].actions.join(' | '),
          "Chat Uses MCP Workbench | Chat Runs VS Code's Own Copy",
          'its actions',
        );
        assertEqual(gateway.chatRoute(), 'workbench', "the workspace's choice");
        // Decided: asked again (a reload, a second check), it does not ask.
        assertEqual(await config.recheckBuiltInMcpNotice(), 'already-shown', 'outcome once decided');
      } finally {
        config.answerNotifications(undefined);
        gateway.setChatRouteAvailable(available);
        await gateway.forgetChatRoute();
      }
    },
  );

  suite.after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await leaveCleanState(vscode, api);
  });

  return suite;
}
