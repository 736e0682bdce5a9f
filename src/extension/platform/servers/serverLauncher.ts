import type { TraceDirection } from '../../../protocol/jsonrpc/mcpStreams';
import { enableTasks } from '../../../protocol/extensions/tasks';
import { PersonWaits } from '../../../protocol/jsonrpc/personWaits';
import type { MementoEraMemory } from './eraMemory';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { appsExtensionsFor } from '../../../protocol/extensions/apps';
import { appsEnabled } from '../apps/appsSetting';
import { McpClient, type ServerSession } from '../../../protocol/client';
import { StdioTransport } from '../../../protocol/node/stdio';
import { describeEra, eraChoiceReason } from '../../../protocol/eras/select';
import { errorMessage } from '../../../protocol/errors';
import type { ClientHost, ElicitationHandler, SamplingHandler } from '../../../protocol/host';
import type { LoggingLevel, LogMessage, Tool } from '../../../protocol/types';
import type { Transport } from '../../../protocol/transports/transport';
import { observeFetch, type WireObserver } from '../../../protocol/transports/wireObserver';
import { eraPreferenceOf } from '../../../workbench/config/mcpConfig';
import type { VariableContext } from '../../../workbench/config/variables';
import { CoalescedRefresh } from '../../../workbench/lists/coalescedRefresh';
import { configuredInputLimits, extensionHttpFetch } from '../config/hostLimits';
import { describeHttpFetch } from '../../../workbench/node/httpFetchChoice';
import {
  createTransport,
  previewServerDefinition,
  resolveServerWithSecrets,
  type ResolvedServer,
} from '../../../workbench/node/launch';
import type { SamplingRequestContext } from '../../../workbench/sampling/coordinator';
import type { SignInMode, SignInService } from '../auth/signIn';
import type { InputPrompter } from '../config/inputPrompter';
import { describeTarget, serverIdentityKeyOf, type ServerEntry } from '../config/serverEntry';
import { checkCommand } from '../shared/commandCheck';
import { protocolTrace } from '../shared/protocolTrace';
import type { LaunchConfirmation } from './launchConfirmation';
import { channelLogger } from './logChannels';
import { enableSkills } from '../../../protocol/extensions/skills';
import { enableEvents } from '../../../protocol/extensions/events';
import { openWebhookListener } from '../../../protocol/node/webhookListener';
import { maskSecrets } from '../../../workbench/secrets';
import { withDebugger, type DebugPlan } from './debugLaunch';
import { LaunchDeclinedError, LaunchFailure, toolCountSummary } from './launchOutcome';

/** A live connection to one server: what stop closes and what the controller reads (client, pid, stderr). */
export interface Connection {
  client: McpClient;
  transport: Transport;
  /** The transport when it is stdio (its pid and stderr), so the controller needs no `instanceof` of its class. */
  stdio: StdioTransport | undefined;
  subscriptions: { dispose(): void }[];
}

/** What launching needs from the extension: the same for every attempt of every server. */
export interface LaunchServices {
  host: ClientHost;
  inputs: InputPrompter;
  confirmation: LaunchConfirmation;
  auth: SignInService;
  isWorkspaceTrusted(): boolean;
  /** Where era "auto" remembers a server that was slow to answer the probe (globalState). */
  eraMemory?: MementoEraMemory;
  /** The server's wire observer (the Protocol view's tap), attached to every connection; none costs nothing. */
  wire?: (
    serverId: string,
    knownSecrets: () => readonly string[],
  ) => WireObserver & {
    console(line: string): void;
    /**
     * Where the messages of agents through the server's gateway go (labelled with the agent) while the Protocol view
     * keeps the wire; undefined while it does not.
     */
    agentMessages?():
      ((agent: { key: string; label: string }, direction: TraceDirection, message: unknown) => void) | undefined;
  };
  /**
   * Dev mode's debugger (`dev.debug`), planned on the preview before the consent: its flags are added to the command
   * line the person is asked about and to the one that runs; it attaches once the process listens.
   */
  debug?: (
    entry: ServerEntry,
    preview: ResolvedServer,
    log: vscode.LogOutputChannel,
  ) => Promise<DebugLaunch | undefined>;
}

/** A start under dev mode's debugger: the flags (withDebugger) and the attach. */
export interface DebugLaunch {
  plan: Extract<DebugPlan, { kind: 'debug' }>;
  /**
   * Called before the process is spawned, with its stderr (where node announces its inspector's port); attaches once
   * the debugger listens. What it returns is disposed with the connection.
   */
  attach(server: StderrSource): { dispose(): void };
}

/** The lines a started server writes to stderr. */
export interface StderrSource {
  onStderrLine(listener: (line: string) => void): { dispose(): void };
}

/** One attempt to start a server, as the controller hands it over. */
interface LaunchAttempt {
  entry: ServerEntry;
  /** Aborted once a stop or a newer attempt supersedes this one: after every wait the launch checks it and backs off. */
  signal: AbortSignal;
  /** The person asked to sign in (Sign In); every other start only reports that signing in is needed. */
  interactiveSignIn: boolean;
  /** The level chosen with "Set Log Level", asked once connected (it may be chosen while the server starts). */
  logLevel(): LoggingLevel | undefined;
  /** The server's masking log channel. */
  log: vscode.LogOutputChannel;
  knownSecrets(): string[];
  /** The values of this launch that came from the person's data, collected at resolution. */
  secretsResolved(secrets: string[]): void;
  /** The first-start consent is on screen; the returned function ends that wait (the start goes on or ends). */
  waitingForConsent(): () => void;
  /** The URL the launch authorizes for (undefined for stdio), so a sign-out of that server reaches the controller. */
  authorizing(url: string | undefined): void;
  /** The connection exists (before the handshake), so a stop during connect closes it. */
  connected(connection: Connection): void;
  onServerMessage(message: LogMessage): void;
  /** The tool list changed: refreshed through one CoalescedRefresh per connection. */
  reloadTools(): Promise<void>;
  onClosed(error: Error | undefined): void;
  onDiagnostic(line: string): void;
}

type LaunchResult =
  { kind: 'superseded' } | { kind: 'running'; session: ServerSession; tools: Tool[]; pid: number | undefined };

/**
 * Launches one attempt: consent, variables, command check, transport and client, handshake, log level, tool list.
 * Resolves `superseded` when the attempt's signal was aborted meanwhile (its state belongs to the newer attempt);
 * rejects with a LaunchFailure.
 */
export async function launchServer(
  attempt: LaunchAttempt,
  services: LaunchServices,
  previousClose: Promise<void> | undefined,
): Promise<LaunchResult> {
  const { entry, signal, log } = attempt;
  const superseded: LaunchResult = { kind: 'superseded' };
  log.info(`Starting ${entry.name}: ${describeTarget(entry.definition)}`);
  let launched = false;
  let signInNeeded = false;
  const preference = eraPreferenceOf(entry.definition);
  // Era "auto" opens directly in the era this server answered with at its last start in this window (WindowEras).
  const eraChoice = services.eraMemory?.window.choose(entry, preference) ?? { preference };
  try {
    // A previous connection may still be shutting down (restart); never run two processes at once.
    await previousClose;
    const context = variableContext(entry, services);
    // A workspace server is confirmed on what it would run before anything else happens on its behalf: no input
    // box opens and no envFile is read until the person agreed.
    const preview = await previewServerDefinition(entry.definition, context);
    const previewAsRun = withDefaultCwd(preview.resolved);
    // Dev mode's "debug" is planned before the consent: the person approves the command line with the debugger's
    // flags (and the port chosen for this start), and that is the command line that runs.
    const debugging = await services.debug?.(entry, previewAsRun, log);
    if (signal.aborted) return superseded;
    const consented = debugging ? withDebugger(previewAsRun, debugging.plan, 'run') : previewAsRun;
    const remembered = debugging ? withDebugger(previewAsRun, debugging.plan, 'fingerprint') : undefined;
    const allowed = await services.confirmation.confirm(
      entry,
      { ...preview, resolved: consented, fingerprinted: remembered },
      () => attempt.waitingForConsent(),
    );
    if (signal.aborted) return superseded;
    if (!allowed) {
      throw new LaunchDeclinedError(
        vscode.l10n.t('MCP server "{0}" was not started: its command line was not allowed.', entry.name),
      );
    }
    const { resolved: resolvedAsWritten, secrets } = await resolveServerWithSecrets(entry.definition, context);
    const resolvedAsRun = withDefaultCwd(resolvedAsWritten);
    if (signal.aborted) return superseded;
    const resolved = debugging ? withDebugger(resolvedAsRun, debugging.plan, 'run') : resolvedAsRun;
    attempt.secretsResolved(secrets);
    const launch = await checkCommand(resolved);
    const signInMode: SignInMode = attempt.interactiveSignIn
      ? { kind: 'interactive' }
      : { kind: 'silent', onRequired: () => (signInNeeded = true) };
    attempt.authorizing(resolved.kind === 'http' ? resolved.url : undefined);
    // One PersonWaits for the connection: while the person signs in (or answers a server's request), the deadline
    // of the request waiting on them does not run.
    const personWaits = new PersonWaits();
    const limits = configuredInputLimits();
    const httpFetch = resolved.kind === 'http' ? extensionHttpFetch() : undefined;
    if (httpFetch) log.info(describeHttpFetch(httpFetch));
    const wire = services.wire?.(entry.id, attempt.knownSecrets);
    // The Protocol view, while open, observes the same fetch the transport and the sign-in use.
    const baseFetch = httpFetch?.fetch ?? globalFetch;
    const authFetch = wire ? observeFetch(baseFetch, wire, 'auth') : httpFetch?.fetch;
    const mcpFetch = wire ? observeFetch(baseFetch, wire, 'mcp') : httpFetch?.fetch;
    const authorizer =
      resolved.kind === 'http'
        ? await services.auth.authorizerFor({
            serverName: entry.name,
            serverUrl: resolved.url,
            oauth: resolved.oauth,
            mode: signInMode,
            log: (line) => log.info(line),
            personWaits,
            signal,
            fetch: authFetch,
            maxDocumentBytes: limits.maxDocumentBytes,
          })
        : undefined;
    const transport = createTransport(resolved, { launch, authorizer, limits, fetch: mcpFetch });
    const trace = protocolTrace(log, attempt.knownSecrets, limits.maxTraceBytes);
    const client = new McpClient({
      serverName: entry.name,
      transport,
      host: hostWithIdentity(services.host, serverIdentityKeyOf(entry)),
      logger: channelLogger(log),
      trace: wire
        ? (direction, message) => {
            trace(direction, message);
            wire.message(direction, message);
          }
        : trace,
      era: eraChoice.preference,
      personWaits,
      eraMemory: services.eraMemory?.slotFor(entry),
      // MCP Apps while mcpWorkbench.apps.enabled, Tasks of both generations (the host's sampling and elicitation also run as tasks when a server asks), and
      // Skills (SEP-2640), declared; a skill's files are read only when the person opens or installs it. Events
      // (SEP-3415): nothing is sent until the person subscribes; webhooks arrive only on a loopback listener.
      extensions: [
        ...appsExtensionsFor(appsEnabled()),
        enableTasks(entry.name, {
          receiver: {
            sampling: services.host.sampling !== undefined,
            elicitation: services.host.elicitation !== undefined,
          },
          // The Tasks view shows the call behind a task: masked as History masks (known secrets, secret-looking keys).
          keepArguments: (args) => maskSecrets(args, attempt.knownSecrets()),
        }).extension,
        enableSkills(),
        enableEvents({ webhookEndpoint: openWebhookListener }),
      ],
    });
    // A flood of tools/list_changed costs at most one tools/list in flight and one after it.
    const toolRefresh = new CoalescedRefresh(attempt.reloadTools);
    const debuggerAttach = debugging && transport instanceof StdioTransport ? debugging.attach(transport) : undefined;
    attempt.connected({
      client,
      transport,
      stdio: transport instanceof StdioTransport ? transport : undefined,
      subscriptions: [
        toolRefresh,
        ...(debuggerAttach ? [debuggerAttach] : []),
        transport.onDiagnostic(attempt.onDiagnostic),
        ...(wire ? [transport.onDiagnostic((line) => wire.console(line))] : []),
        client.onViolation((reason) => log.warn(`Protocol violation: ${reason}`)),
        client.onLogMessage(attempt.onServerMessage),
        client.onToolsChanged(() => void toolRefresh.request()),
        client.onDidChangeState((clientState) => {
          if (clientState.kind === 'closed') attempt.onClosed(clientState.error);
        }),
      ],
    });
    launched = true;
    if (eraChoice.remembered)
      log.info(
        `Era: opening in the ${eraChoice.remembered === 'handshake' ? 'initialize handshake' : '2026-07-28 era'} this server answered with at its last start in this window, without the era probe`,
      );
    const session = await client.connect();
    services.eraMemory?.window.started(entry, eraChoice, session.kind);
    if (signal.aborted) return superseded;
    const { serverInfo, protocolVersion } = session;
    const pid = transport instanceof StdioTransport ? transport.pid : undefined;
    log.info(
      `Started: ${serverInfo.name} ${serverInfo.version}${serverInfo.title ? ` ("${serverInfo.title}")` : ''}, ` +
        `protocol ${protocolVersion}${pid === undefined ? '' : `, pid ${pid}`}`,
    );
    const reason = eraChoice.remembered
      ? 'era auto: the server answered in this era at its last start in this window, so it was not probed'
      : eraChoiceReason(preference, session);
    log.info(`Era: ${describeEra(session)}; ${reason}`);
    if (session.instructions) log.info(`Instructions: ${session.instructions}`);
    await applyLogLevel(client, attempt.logLevel(), log);
    const tools = await client.listTools();
    if (signal.aborted) return superseded;
    log.info(`Tools: ${toolCountSummary(tools)}`);
    return { kind: 'running', session, tools, pid };
  } catch (error) {
    // The remembered era may be what failed (the server changed under the same definition): the next start probes.
    if (launched && services.eraMemory?.window.failed(entry, eraChoice))
      log.info('Era: the start in the era remembered from the last start failed; the next start probes the era again');
    throw new LaunchFailure(error, launched, signInNeeded);
  }
}

async function applyLogLevel(
  client: McpClient,
  level: LoggingLevel | undefined,
  log: vscode.LogOutputChannel,
): Promise<void> {
  if (!level || !client.session.capabilities.logging) return;
  try {
    await client.setLoggingLevel(level);
    log.info(`Log level set to ${level}`);
  } catch (error) {
    log.warn(`Could not set the log level: ${errorMessage(error)}`);
  }
}

/**
 * `cwd` defaults to the folder (the first workspace folder for user servers). In an untrusted workspace a user
 * server gets no folder at all (so it runs in the home directory): the folder's files are not the person's to vouch
 * for, and a program started there may pick up its config, scripts or binaries.
 */
function variableContext(entry: ServerEntry, services: LaunchServices): VariableContext {
  const folder = entry.origin.folder.uri;
  const untrustedFolder = entry.origin.scope === 'user' && !services.isWorkspaceTrusted();
  return {
    workspaceFolder: folder.scheme === 'file' && !untrustedFolder ? folder.fsPath : undefined,
    userHome: os.homedir(),
    env: process.env,
    input: (id) => services.inputs.valueFor(entry, id),
  };
}

/** A stdio server with no folder to run in (none open, or an untrusted one) runs in the home directory. */
function withDefaultCwd<T extends ResolvedServer>(resolved: T): T {
  return resolved.kind === 'stdio' && resolved.cwd === undefined ? { ...resolved, cwd: os.homedir() } : resolved;
}

/**
 * The shared host with this server's identity added to every sampling and elicitation request, so policies, model
 * allow-lists and review caps are looked up by identity, not by the name the server's definition chose.
 */
function hostWithIdentity(host: ClientHost, serverKey: string): ClientHost {
  const { sampling, elicitation } = host;
  const withKey = <C extends { serverName: string; signal: AbortSignal }>(context: C): SamplingRequestContext => ({
    ...context,
    serverKey,
  });
  const identifiedSampling: SamplingHandler | undefined = sampling && {
    supportsTools: sampling.supportsTools,
    createMessage: (request, context) => sampling.createMessage(request, withKey(context)),
  };
  const identifiedElicitation: ElicitationHandler | undefined = elicitation && {
    modes: elicitation.modes,
    elicit: (request, context) => elicitation.elicit(request, withKey(context)),
    completed: elicitation.completed ? (id, serverName) => elicitation.completed?.(id, serverName) : undefined,
  };
  return { roots: host.roots, sampling: identifiedSampling, elicitation: identifiedElicitation };
}

/** The global fetch, read at each call (a test or a proxy agent may replace it). */
const globalFetch: typeof fetch = (input, init) => fetch(input, init);
