/**
 * `mcp-workbench conformance <url>`: acts as the client under the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`). The suite starts one scenario server, runs
 * `sh -c "<command> <url>"` with the scenario name in MCP_CONFORMANCE_SCENARIO, and then grades what it saw on
 * the wire. Every scenario goes through McpClient and the HTTP transports, exactly as a user's session would.
 *
 * Exit code: 0 when the scenario's client behaviour completed, 1 with the reason on stderr otherwise.
 */
import { McpClient } from '../protocol/client';
import { applySchemaDefaults } from '../workbench/forms/elicitationDefaults';
import { jsonPreview } from '../workbench/display';
import { errorMessage, isLocalError, McpError } from '../protocol/errors';
import type { ClientHost } from '../protocol/host';
import type { JsonObject, Tool } from '../protocol/types';
import { isModernVersion } from '../protocol/eras/modern/meta';
import { describeEra, type EraPreference } from '../protocol/eras/select';
import { HANDSHAKE_VERSIONS, isSupportedHandshakeVersion } from '../protocol/versions';
import { createHttpTransport } from '../protocol/transports/http';
import { withStaticHeaders } from '../protocol/auth/authorizer';
import { OAuthAuthorizer, type ConfiguredClient, type OAuthGrant } from '../protocol/auth/oauthAuthorizer';
import { authExtensionsFor } from '../protocol/extensions/auth';
import { memoryAuthStore } from '../protocol/auth/types';
import { headlessUserAgent } from '../workbench/auth/headlessUserAgent';
import type { ParsedArgs } from './args';
import { stderrLogger } from './connect';
import type { EnabledExtension } from '../protocol/extensions/protocolExtension';
import { SKILL_SCENARIOS } from './conformanceSkills';
import { EVENT_SCENARIOS } from './conformanceEvents';
import { NEWEST_SCENARIOS } from './conformanceNewest';
import { isObject } from '../protocol/guards';

/** What one scenario does with a connected client; throwing fails the run. */
export interface ScenarioDriver {
  host?: ClientHost;
  /** The era a scenario is defined for, when the suite does not name a revision (Events: 2026-07-28 only). */
  era?: EraPreference;
  /** Protocol extensions the scenario needs declared (beside the grant's auth extension). */
  extensions?: () => EnabledExtension[];
  /** `context` is MCP_CONFORMANCE_CONTEXT, parsed: data the scenario hands the client (credentials, calls to make). */
  run(client: McpClient, log: (line: string) => void, context: JsonObject | undefined): Promise<void>;
}

/** A host that offers every client capability, so a scenario can check each declaration. */
function everyCapabilityHost(): ClientHost {
  return {
    ...acceptWithDefaultsHost(),
    roots: { listRoots: () => [{ uri: 'file:///conformance', name: 'conformance' }] },
    sampling: {
      createMessage: async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'conformance' },
        model: 'mcp-workbench-conformance',
      }),
    },
  };
}

/** `toolCalls` in the scenario context: the exact calls (name and arguments) the scenario wants to see. */
function contextToolCalls(
  context: JsonObject | undefined,
): { name: string; arguments: Record<string, unknown> }[] | undefined {
  const calls = context?.toolCalls;
  if (!Array.isArray(calls)) return undefined;
  return calls
    .filter(
      (call): call is JsonObject =>
        typeof call === 'object' && call !== null && typeof (call as JsonObject).name === 'string',
    )
    .map((call) => ({
      name: call.name as string,
      arguments:
        typeof call.arguments === 'object' && call.arguments !== null
          ? (call.arguments as Record<string, unknown>)
          : {},
    }));
}

/** The suite's per-run limit is 30 s; stay well under it so a hang ends with our own message, not a kill. */
const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** After the verdict, give the transport this long to release its sockets before exiting regardless. */
const EXIT_GRACE_MS = 3_000;

class ScenarioFailure extends Error {
  override readonly name = 'ScenarioFailure';
}

/** An ElicitationHandler that accepts every form with the schema's defaults filled in (SEP-1034). */
function acceptWithDefaultsHost(): ClientHost {
  return {
    elicitation: {
      modes: ['form'],
      elicit: async (request) => ({ action: 'accept', content: applySchemaDefaults(request.requestedSchema) }),
    },
  };
}

function requireTool(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    throw new ScenarioFailure(
      `the server does not list the tool "${name}" (it lists: ${tools.map((t) => t.name).join(', ') || 'none'})`,
    );
  return tool;
}

async function callExpectingSuccess(
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  log: (line: string) => void,
): Promise<void> {
  const { result } = await client.callTool(name, args);
  log(`tools/call ${name} -> ${jsonPreview(result.content, 300)}`);
  if (result.isError) throw new ScenarioFailure(`tool ${name} returned isError: ${jsonPreview(result.content, 500)}`);
}

const listOnly: ScenarioDriver = {
  run: async (client, log) => {
    const tools = await client.listTools();
    log(`tools/list -> ${tools.map((t) => t.name).join(', ') || '(none)'}`);
  },
};

async function callTolerantly(
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  log: (line: string) => void,
): Promise<void> {
  try {
    const { result } = await client.callTool(name, args);
    log(`tools/call ${name} -> ${result.isError ? 'isError ' : ''}${jsonPreview(result.content, 200)}`);
  } catch (error) {
    // A server-side JSON-RPC error (for example missing required arguments) is the server's verdict on
    // this guess at arguments, not a client failure; anything local (transport, timeout) is.
    if (!(error instanceof McpError)) throw error;
    log(`tools/call ${name} -> server error: ${error.message}`);
  }
}

/**
 * For scenarios without a dedicated driver: list tools and call each one, with the arguments the scenario
 * context names when it names any (http-custom-headers), else with none.
 */
const exerciseEveryTool: ScenarioDriver = {
  host: acceptWithDefaultsHost(),
  run: async (client, log, context) => {
    const tools = await client.listTools();
    log(`tools/list -> ${tools.map((t) => t.name).join(', ') || '(none)'}`);
    const calls = contextToolCalls(context);
    if (calls) {
      for (const call of calls) await callTolerantly(client, call.name, call.arguments, log);
      return;
    }
    for (const tool of tools) await callTolerantly(client, tool.name, {}, log);
  },
};

/** Every feature once: tools (called), resources (read), prompts (got). */
const exerciseEverything: ScenarioDriver = {
  host: acceptWithDefaultsHost(),
  run: async (client, log, context) => {
    await exerciseEveryTool.run(client, log, context);
    for (const resource of await client.listResources()) {
      const read = await client.readResource(resource.uri);
      log(`resources/read ${resource.uri} -> ${read.contents.length} content item(s)`);
    }
    for (const prompt of await client.listPrompts()) {
      const got = await client.getPrompt(prompt.name, {});
      log(`prompts/get ${prompt.name} -> ${got.messages.length} message(s)`);
    }
  },
};

const SCENARIOS: Readonly<Record<string, ScenarioDriver>> = {
  initialize: listOnly,
  tools_call: {
    run: async (client, log) => {
      requireTool(await client.listTools(), 'add_numbers');
      await callExpectingSuccess(client, 'add_numbers', { a: 5, b: 3 }, log);
    },
  },
  'elicitation-sep1034-client-defaults': {
    host: acceptWithDefaultsHost(),
    run: async (client, log) => {
      requireTool(await client.listTools(), 'test_client_elicitation_defaults');
      await callExpectingSuccess(client, 'test_client_elicitation_defaults', {}, log);
    },
  },
  'sse-retry': {
    run: async (client, log) => {
      requireTool(await client.listTools(), 'test_reconnection');
      // The server closes the POST's SSE stream after a priming event with `retry: 500`; the transport must
      // resume with GET + Last-Event-ID after that delay, and the response arrives on the resumed stream.
      await callExpectingSuccess(client, 'test_reconnection', {}, log);
    },
  },
  'request-metadata': { host: everyCapabilityHost(), run: exerciseEveryTool.run },
  'http-standard-headers': exerciseEverything,
  'json-schema-2020-12-preservation': {
    run: async (client, log) => {
      // The harness checks that $schema, $defs (with $anchor), additionalProperties, allOf/anyOf and
      // if/then/else survived our parsing, by having us echo the inputSchema we observed back to it.
      const tools = await client.listTools();
      const focal = requireTool(tools, 'json_schema_2020_12_tool');
      requireTool(tools, 'json_schema_echo');
      await callExpectingSuccess(client, 'json_schema_echo', { schema: focal.inputSchema }, log);
    },
  },
  ...SKILL_SCENARIOS,
  ...EVENT_SCENARIOS,
  ...NEWEST_SCENARIOS,
};

function driverFor(scenario: string): ScenarioDriver {
  return Object.prototype.hasOwnProperty.call(SCENARIOS, scenario) ? SCENARIOS[scenario] : exerciseEveryTool;
}

/** The suite sets MCP_CONFORMANCE_PROTOCOL_VERSION under --spec-version: offer that revision first when we speak it. */
function offeredVersions(requested: string | undefined, log: (line: string) => void): readonly string[] | undefined {
  if (!requested) return undefined;
  if (!isSupportedHandshakeVersion(requested)) {
    log(
      `MCP_CONFORMANCE_PROTOCOL_VERSION=${requested} is not a revision this client speaks; offering ${HANDSHAKE_VERSIONS[0]}`,
    );
    return undefined;
  }
  return [requested, ...HANDSHAKE_VERSIONS.filter((v) => v !== requested)];
}

/** MCP_CONFORMANCE_CONTEXT, parsed; undefined when the scenario hands the client nothing. */
export function conformanceContext(raw: string | undefined): JsonObject | undefined {
  if (raw === undefined || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new ScenarioFailure(`MCP_CONFORMANCE_CONTEXT is not valid JSON: ${errorMessage(error)}`);
  }
  if (!isObject(value)) throw new ScenarioFailure('MCP_CONFORMANCE_CONTEXT is not a JSON object');
  return value as JsonObject;
}

/**
 * The era to speak: --era when given; else the scenario's own (the Events scenarios are defined for 2026-07-28 only,
 * and the suite names its latest dated revision to every scenario it runs without --spec-version); else 2026-07-28
 * when the suite asks for that revision, the handshake otherwise.
 */
export function conformanceEra(
  explicit: EraPreference | undefined,
  requestedVersion: string | undefined,
  scenarioEra?: EraPreference,
): EraPreference {
  if (explicit) return explicit;
  if (scenarioEra) return scenarioEra;
  return isModernVersion(requestedVersion) ? '2026-07-28' : 'legacy';
}

/** The Client ID Metadata Document URL the suite's basic-cimd scenario expects (it does not fetch it). */
const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

interface AuthSetup {
  client?: ConfiguredClient;
  grant?: OAuthGrant;
}

function contextString(context: Record<string, unknown>, key: string): string | undefined {
  const value = context[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * MCP_CONFORMANCE_CONTEXT carries what a real deployment would configure: a pre-registered client, client
 * credentials, an enterprise IdP's ID token, a workload identity JWT.
 */
function authSetupFor(scenario: string, context: JsonObject | undefined): AuthSetup {
  if (!context) return {};
  const clientId = contextString(context, 'client_id');
  const clientSecret = contextString(context, 'client_secret');
  const privateKeyPem = contextString(context, 'private_key_pem');
  const client: ConfiguredClient | undefined =
    clientId === undefined
      ? undefined
      : { clientId, clientSecret, privateKeyPem, signingAlgorithm: contextString(context, 'signing_algorithm') };
  const idToken = contextString(context, 'idp_id_token');
  const idpTokenEndpoint = contextString(context, 'idp_token_endpoint');
  const idpClientId = contextString(context, 'idp_client_id');
  if (idToken && idpTokenEndpoint && idpClientId)
    return { client, grant: { kind: 'enterprise', idpTokenEndpoint, idpClientId, idToken: () => idToken } };
  const workloadJwt = contextString(context, 'valid_jwt');
  if (workloadJwt)
    return {
      client: client && { ...client, authMethod: 'none' },
      grant: { kind: 'jwt-bearer', assertion: () => workloadJwt },
    };
  if (scenario.startsWith('auth/client-credentials')) return { client, grant: { kind: 'client-credentials' } };
  return { client };
}

export async function runConformance(args: ParsedArgs): Promise<number> {
  const fail = (reason: string): number => {
    process.stderr.write(`conformance: FAILED: ${reason}\n`);
    return 1;
  };
  // The suite appends the server URL as the last argument; --url works too for manual runs.
  const rawUrl = args.positionals.at(-1) ?? args.url;
  if (rawUrl === undefined)
    return fail('no server URL: usage is `mcp-workbench conformance <url>` (the suite appends it)');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return fail(`not a valid URL: ${rawUrl}`);
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const driver = driverFor(scenario);
  const log = (line: string) => process.stderr.write(`conformance[${scenario || 'default'}]: ${line}\n`);
  log(
    `server ${url.href}${Object.prototype.hasOwnProperty.call(SCENARIOS, scenario) ? '' : ' (no dedicated driver: listing and calling every tool)'}`,
  );

  let context: JsonObject | undefined;
  try {
    context = conformanceContext(process.env.MCP_CONFORMANCE_CONTEXT);
  } catch (error) {
    return fail(errorMessage(error));
  }
  const requestedVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  const era = conformanceEra(args.era, requestedVersion, driver.era);
  const auth = authSetupFor(scenario, context);
  // The suite's authorization servers approve at once: the flow runs headlessly, state in memory.
  const authorizer = new OAuthAuthorizer({
    serverUrl: url.href,
    serverName: url.host,
    store: memoryAuthStore(),
    userAgent: headlessUserAgent(),
    client: auth.client,
    grant: auth.grant,
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    clientName: 'mcp-workbench conformance',
    signInTimeoutMs: args.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    log,
  });
  const client = new McpClient({
    serverName: url.host,
    transport: createHttpTransport({
      url: url.href,
      authorizer: withStaticHeaders(authorizer, args.headers),
      mode: args.transport ?? 'auto',
    }),
    host: driver.host,
    era,
    // The grant's protocol extension (client credentials, enterprise-managed) is declared as a client capability.
    extensions: [...authExtensionsFor(auth.grant), ...(driver.extensions?.() ?? [])],
    protocolVersions: era === 'legacy' ? offeredVersions(requestedVersion, log) : undefined,
    logger: stderrLogger(args.verbose),
    requestTimeoutMs: args.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    initializeTimeoutMs: args.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  });
  let code: number;
  try {
    const session = await client.connect();
    log(
      `connected: ${session.serverInfo.name} ${session.serverInfo.version}, ${describeEra(session)}, transport ${client.transport.kind}`,
    );
    await driver.run(client, log, context);
    log('PASSED (client side)');
    code = 0;
  } catch (error) {
    const kind =
      error instanceof McpError
        ? 'server error'
        : isLocalError(error)
          ? `local ${error.kind} error`
          : error instanceof ScenarioFailure
            ? 'scenario'
            : 'error';
    code = fail(`${kind}: ${errorMessage(error)}`);
  }
  try {
    await client.close();
  } catch (error) {
    log(`close failed: ${errorMessage(error)}`);
  }
  // Whatever the transport leaves behind (a keep-alive socket, a retry timer) must not hold the verdict hostage.
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
  return code;
}
