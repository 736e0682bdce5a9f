// The help text of the subcommands whose code main.ts imports only when they run (`--help` reads these, not them).

export const GATEWAY_USAGE = `  gateway [--port P] [--json]         serve the server to other MCP clients on http://127.0.0.1:P/mcp (P=0 or
                                       absent: a free port), in their era (2025 handshake with sessions, or
                                       2026-07-28), through this run's one connection; --config (any client's
                                       file) or --from-client without --server serves every server there, one
                                       endpoint each (ports P, P+1, …).
                                       Once ready it prints the URL and the header to send (Authorization:
                                       Bearer <secret>, new each run; with --json one line on stdout:
                                       {"servers":[{"name","url","headers"}]}); runs until SIGINT or SIGTERM
    --policy FILE                      per-tool rules for agents, JSON: {"tools":{"<tool>":{"enabled":false}}}
                                       or {"servers":{"<server>":{"tools":{…}}}}; "policy": "run", "ask" or
                                       "review" (no one answers here: ask refuses the call, review withholds
                                       the result); a disabled tool is not listed and its call is refused`;

export const LINT_USAGE = `  lint [--json] [--fail-on warning|error] [--call <tool> [--args <json>]]
                                       will every client accept the server's tools: the MCP revision's rules,
                                       OpenAI/Gemini/Anthropic tool schemas, VS Code's and Claude Code's limits,
                                       the list's estimated tokens (docs/lint-rules.md). --call also calls one
                                       tool and checks its result. --json prints {"findings":[{"severity","rule",
                                       "target","path","message","fix"}],"context":{…}}; exit 0 clean, 1 findings at
                                       or above --fail-on (default error), 2 usage`;

export const LOAD_USAGE = `  load --tool NAME [--args JSON] …     load test: the call mix is --tool/--args pairs (repeatable)
  load --recording F.mcptest.json      or the tool calls of a recording; sent by --concurrency N
                                       (closed loop, default 1) or --rate R (calls/s on schedule, open
                                       loop; at most --max-outstanding M waiting, default 10000) until
                                       --requests N or --duration S. Prints p50/p90/p99/max latency,
                                       throughput, errors by kind, a per-second timeline and the client's
                                       CPU (--json: {"requests","errors","throughputPerS","latencyMs",
                                       "clientCpuPercent",…}); exit 1 when a call failed; Ctrl+C stops
                                       at once and prints what was measured`;

export const DOCTOR_USAGE = `  doctor [--json]                      why a server is not working: checks the config entry (and its file),
                                       variables and inputs, the command on PATH, the process start and its
                                       stderr, the handshake, sign-in, each list and its size, and what VS Code
                                       and Claude Code would do differently; stops at the first failing step
                                       with its cause and a fix (secrets masked). --json:
                                       {"steps":[{"step","ok","detail","fix"}]}; exit 0 all passed, 1 one failed`;

/**
 * `mcp-workbench registry search|show|add`: the MCP Registry from the command line. Output is JSON on stdout;
 * warnings (deprecated entries, entries the registry sent that failed validation) go to stderr. Exit 1 names the
 * registry URL and the server; the config file is only written once the whole entry has been built.
 */
export const REGISTRY_USAGE = `  registry search [text]               every server of the registry matching text (JSON array, every page
                                       followed); --registry <url> (default $MCP_WORKBENCH_REGISTRY_URL,
                                       else the official MCP Registry)
  registry show <name> [--version v]   one server's server.json and the registry's metadata (latest unless --version)
  registry add <name> --config <mcp.json> [--as <key>] [--version v] [--via npm|pypi|oci|nuget|mcpb|remote]
                                       write the server into mcp.json (comments kept) and print the entry written;
                                       secrets and required values become "inputs" asked for at first start`;

export const RECORDINGS_USAGE = `  session --record <file.mcptest.json>   a session that also writes each step (request and answer) and the
                                       server to <file>, secrets masked: a regression test
  test <file.mcptest.json>             replay a recording: exit 0 when every step answers as recorded, 1 naming
                                       the first step that differs (expected and actual), 2 on usage errors.
                                       Without --stdio/--url/--config it starts the server the file names`;

// The count is ANNOUNCE_MODEL_CALLS_OVER of src/workbench/evals/runner.ts (a test checks they agree).
export const EVAL_USAGE = `  eval FILE.mcpeval.json --model-url URL --model ID [--runs N] [--json] [--yes]
  eval --request TEXT --expect-tool NAME [--expect-args JSON] --model-url URL --model ID
                                       does a model call the right tools? Sends each request to the model
                                       at an OpenAI-compatible endpoint (e.g. http://127.0.0.1:11434/v1)
                                       with the server's tools, runs its tool calls on the server, and
                                       grades them; --model is repeatable; the key comes from the
                                       environment variable MCP_WORKBENCH_MODEL_KEY (never printed). More
                                       than 20 model calls are announced first and need --yes (or a "y" at
                                       a terminal). --json: {"requests":[{"name","passed","runs",
                                       "failures","model","passRate"}],"passRate"}; exit 0 all runs passed, 1 a
                                       run failed`;

export const EVENTS_USAGE = `  events list                          the server's event types (SEP-3415, 2026-07-28 servers that declare
                                       io.modelcontextprotocol/events): one JSON line per type
  events poll <name> [--args JSON]     subscribe by poll (events/poll at the server's interval, never under
  events stream <name> [--args JSON]   --poll-floor-ms, default 1000), push (events/stream, reopened from the
  events subscribe <name> [--args JSON] last cursor when it falls silent) or webhook (events/subscribe to a
                                       loopback listener of this run, refreshed before its TTL); one JSON line
                                       per feed item: event (payload checked against its payloadSchema), gap,
                                       status, refused; duplicates by eventId are dropped and counted.
                                       --cursor C resumes, --max-age-ms N bounds the replay, --duration S stops
                                       after S seconds; Ctrl+C stops. Ends with {"kind":"summary",…} (counts,
                                       last cursor); exit 0, 1 when the server ended the subscription`;

export const CARD_USAGE = `  card <server-url> [--compare]        the server's Server Card (SEP-2127) at <server-url>/server-card, read
                                       before any connection (no credentials sent; --timeout bounds it, default
                                       10000; maxDocumentBytes caps it; redirects only within the origin) and
                                       checked against the card's schema: {"requested","source","card","notes"}.
                                       --compare also connects (--header, --auth-dir, … apply) and adds
                                       "differences": where the server's answer contradicts its card
  card --catalog <domain>              the domain's catalog (/.well-known/mcp/catalog.json, else
                                       /.well-known/ai-catalog.json): {"source","specVersion","entries","skipped"}
  card --card-url <url>                the card at exactly <url> (a catalog entry's "cardUrl")
                                       Exit 0 read and valid (and, with --compare, no differences), 1 no card,
                                       unreachable, refused or invalid ({"error":{"kind","url","message"}} on
                                       stdout, the reason on stderr) or differences found, 2 usage`;
