/**
 * Drivers for the conformance repository's newest client scenarios, which no released suite carries yet
 * (0.2.0-alpha.12 is the newest): session renegotiation after a 404, token refresh (basic and with rotation), the
 * legacy extensions round trip and the 2026-07-28 stateless gauntlet. The PKCE and cross-app access scenarios need
 * no driver of their own (the grant comes from the context; the refusal is the client's). Each driver does what a
 * host does with a connected client; the scenario grades the wire.
 */
import type { McpClient } from '../protocol/client';
import type { ClientHost } from '../protocol/host';
import type { JsonObject, Tool } from '../protocol/types';
import { enableExtension, type EnabledExtension, type ExtensionId } from '../protocol/extensions/protocolExtension';
import { appsExtensionsFor } from '../protocol/extensions/apps';
import { applySchemaDefaults } from '../workbench/forms/elicitationDefaults';
import { jsonPreview } from '../workbench/display';
import { sampleArguments } from './conformanceSamples';
import type { ScenarioDriver } from './conformance';

/** Raised like the core's ScenarioFailure: the run fails with the scenario's reason. */
class NewestScenarioFailure extends Error {
  override readonly name = 'ScenarioFailure';
}

function requireTool(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    throw new NewestScenarioFailure(
      `the server does not list the tool "${name}" (it lists: ${tools.map((t) => t.name).join(', ') || 'none'})`,
    );
  return tool;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * session-renegotiation-404 (conformance@db00c5b): the server forgets the session and answers 404 to the next
 * request; the transport starts a new session (initialize without the old id) and the request goes on, and a
 * further request runs under the new session.
 */
const renegotiation: ScenarioDriver = {
  run: async (client, log) => {
    log(`tools/list -> ${(await client.listTools()).length} tool(s)`);
    log(`tools/list again -> ${(await client.listTools()).length} tool(s)`);
  },
};

/**
 * auth/token-refresh-basic and -rotation (conformance@2ef97b5): the access tokens live 2 s. The session stays
 * open across two lifetimes, so the refresh grant is used twice, the second time with the rotated refresh token.
 */
const TOKEN_REFRESH_WAIT_MS = 2_500;
const tokenRefresh: ScenarioDriver = {
  run: async (client, log) => {
    for (let round = 0; round < 3; round++) {
      if (round > 0) await delay(TOKEN_REFRESH_WAIT_MS);
      log(`tools/list (round ${round + 1}) -> ${(await client.listTools()).length} tool(s)`);
    }
  },
};

/**
 * legacy-extensions (conformance@415be52, its fixture in src/scenarios/legacy-extensions.ts @9c138c2): the client
 * is configured with the extensions SDK_INTEGRATION.md names (our MCP Apps extension, and two declare-only
 * extensions with the settings the scenario expects verbatim), speaks 2025-11-25, and reports the server's
 * extensions as it holds them by calling the echo tool.
 */
const LEGACY_ECHO_TOOL = 'test_legacy_extension_capabilities';
const LEGACY_DECLARED: Readonly<Record<ExtensionId, JsonObject>> = {
  'com.example/conformance': { nested: { enabled: false, limit: 0 }, values: ['a', 2, null] },
  'com.example/empty': {},
};

function declareOnly(id: ExtensionId, settings: JsonObject): EnabledExtension {
  // A fresh copy per declaration: nothing downstream can alter the fixture.
  return enableExtension({ id, settings: () => structuredClone(settings) }, undefined);
}

const legacyExtensions: ScenarioDriver = {
  era: 'legacy',
  extensions: () => [
    ...appsExtensionsFor(true),
    ...Object.entries(LEGACY_DECLARED).map(([id, settings]) => declareOnly(id as ExtensionId, settings)),
  ],
  run: async (client, log) => {
    requireTool(await client.listTools(), LEGACY_ECHO_TOOL);
    const extensions = client.session.capabilities.extensions ?? {};
    log(`server extensions: ${jsonPreview(extensions, 300)}`);
    const { result } = await client.callTool(LEGACY_ECHO_TOOL, { extensions });
    if (result.isError) throw new NewestScenarioFailure(`${LEGACY_ECHO_TOOL}: ${jsonPreview(result.content, 300)}`);
  },
};

/** Accepts every form with content valid against its schema: defaults first, then a sample of each required field. */
function acceptValidContentHost(): ClientHost {
  return {
    elicitation: {
      modes: ['form'],
      elicit: async (request) => {
        const sampled = sampleArguments(request.requestedSchema) as NonNullable<
          Parameters<typeof applySchemaDefaults>[1]
        >;
        return { action: 'accept', content: applySchemaDefaults(request.requestedSchema, sampled) };
      },
    },
  };
}

/**
 * checker-2026-07-28, the stateless gauntlet (conformance@071ce4e src/scenarios/client/stateless-gauntlet.ts): one
 * 2026-07-28 server whose every tool judges the request that carried it; the contract is "list the tools, call each
 * once with valid arguments". Elicitation is declared, so the multi-round-trip tool is listed and answered too.
 */
const statelessGauntlet: ScenarioDriver = {
  era: '2026-07-28',
  host: acceptValidContentHost(),
  run: async (client: McpClient, log) => {
    const tools = await client.listTools();
    log(`tools/list -> ${tools.map((t) => t.name).join(', ') || '(none)'}`);
    for (const tool of tools) {
      const args = sampleArguments(tool.inputSchema);
      const { result } = await client.callTool(tool.name, args);
      log(`tools/call ${tool.name} ${jsonPreview(args, 200)} -> ${jsonPreview(result.content, 300)}`);
      if (result.isError)
        throw new NewestScenarioFailure(`tool ${tool.name} returned isError: ${jsonPreview(result.content, 500)}`);
    }
  },
};

export const NEWEST_SCENARIOS: Readonly<Record<string, ScenarioDriver>> = {
  'session-renegotiation-404': renegotiation,
  'auth/token-refresh-basic': tokenRefresh,
  'auth/token-refresh-rotation': tokenRefresh,
  'legacy-extensions': legacyExtensions,
  'checker-2026-07-28': statelessGauntlet,
};
