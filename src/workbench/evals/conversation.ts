import { maskSecrets } from '../secrets';
import { boundText } from './textBounds';

/**
 * One playground conversation as History keeps it and Export Conversation… writes it (issue 41): the model, the
 * servers, and per request the person's text, what was attached, each tool call (arguments, whether it ran, its
 * result) and the model's answer. Every text is bounded on the way in, so a conversation stays a bounded History
 * entry; masking happens at History's sink and again before an export. The provider's key is never part of it.
 */

/** Each request, answer, argument list and result is kept up to this many UTF-8 bytes. */
export const MAX_CONVERSATION_TEXT_BYTES = 16 * 1024;
/** Requests kept per conversation; older ones give way (the count of those left out is kept). */
export const MAX_CONVERSATION_TURNS = 50;
/** Calls kept per request. */
export const MAX_TURN_CALLS = 32;

export interface ConversationCall {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** ran (with a result), denied by the person, or not run (the request was stopped first). */
  state: 'ran' | 'denied' | 'not-run';
  result?: string;
  isError?: boolean;
  durationMs?: number;
  /**
   * The person withheld the result from the model (the tool's Review Result rule): `result` is what the tool answered
   * and the person saw; the model read a fixed refusal instead.
   */
  withheld?: boolean;
}

export interface ConversationTurn {
  startedAt: number;
  request: string;
  attachments: { kind: 'resource' | 'prompt'; server: string; label: string; bytes: number; cut: boolean }[];
  calls: ConversationCall[];
  answer?: string;
  /** How the request ended. */
  outcome: 'answered' | 'stopped' | 'step-cap' | 'failed';
  error?: string;
}

export interface ConversationRecord {
  format: 'mcp-workbench-conversation';
  version: 1;
  model: { id: string; name: string; provider: string };
  servers: string[];
  startedAt: number;
  turns: ConversationTurn[];
  /** Earlier requests left out to stay within MAX_CONVERSATION_TURNS. */
  turnsLeftOut?: number;
}

const bounded = (text: string) => boundText(text, MAX_CONVERSATION_TEXT_BYTES).text;

/** Arguments kept whole when their JSON fits, else as a note with the JSON's prefix (still an object). */
function boundedArguments(args: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(args) ?? '{}';
  const cut = boundText(text, MAX_CONVERSATION_TEXT_BYTES);
  return cut.cut ? { '(arguments cut)': cut.text } : args;
}

/** Builds the record as the playground runs: one turn per request, its calls and answer as they come. */
export class ConversationBuilder {
  readonly record: ConversationRecord;
  private current: ConversationTurn | undefined;

  constructor(model: ConversationRecord['model'], servers: readonly string[], startedAt: number) {
    this.record = {
      format: 'mcp-workbench-conversation',
      version: 1,
      model: { ...model },
      servers: [...servers],
      startedAt,
      turns: [],
    };
  }

  begin(request: string, attachments: ConversationTurn['attachments'], startedAt: number): ConversationTurn {
    const turn: ConversationTurn = {
      startedAt,
      request: bounded(request),
      attachments: attachments.map((item) => ({ ...item, label: bounded(item.label) })),
      calls: [],
      outcome: 'stopped',
    };
    this.record.turns.push(turn);
    if (this.record.turns.length > MAX_CONVERSATION_TURNS) {
      this.record.turns.shift();
      this.record.turnsLeftOut = (this.record.turnsLeftOut ?? 0) + 1;
    }
    this.current = turn;
    return turn;
  }

  /** A call the model made; the returned object is updated by `ended`/`denied`. */
  call(server: string, tool: string, args: Record<string, unknown>): ConversationCall | undefined {
    if (!this.current || this.current.calls.length >= MAX_TURN_CALLS) return undefined;
    const call: ConversationCall = { server, tool, arguments: boundedArguments(args), state: 'not-run' };
    this.current.calls.push(call);
    return call;
  }

  static ended(call: ConversationCall | undefined, result: string, isError: boolean, durationMs: number): void {
    if (!call) return;
    call.state = 'ran';
    call.result = bounded(result);
    call.isError = isError;
    call.durationMs = durationMs;
  }

  static denied(call: ConversationCall | undefined): void {
    if (call) call.state = 'denied';
  }

  static withheld(call: ConversationCall | undefined): void {
    if (call) call.withheld = true;
  }

  finish(outcome: ConversationTurn['outcome'], answer?: string, error?: string): void {
    if (!this.current) return;
    this.current.outcome = outcome;
    if (answer !== undefined) this.current.answer = bounded(answer);
    if (error !== undefined) this.current.error = bounded(error);
    this.current = undefined;
  }

  /** The latest request that ran to its end (Save as Eval builds from it). */
  lastTurn(): ConversationTurn | undefined {
    return this.record.turns.at(-1);
  }
}

/** Reads back a record History kept (its result value); undefined when it is not one. */
export function asConversationRecord(value: unknown): ConversationRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Partial<ConversationRecord>;
  if (record.format !== 'mcp-workbench-conversation' || !Array.isArray(record.turns) || !record.model) return undefined;
  return record as ConversationRecord;
}

/** The export as JSON, masked with `secrets` (the servers' known secrets, the model keys) and secret-looking keys. */
export function conversationJson(record: ConversationRecord, secrets: readonly string[]): string {
  return `${JSON.stringify(maskSecrets(record, secrets), null, 2)}\n`;
}

/** A code fence longer than any run of backticks in the text: server text cannot close it. */
function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}${language}\n${text}\n${marker}`;
}

/** Text a server or model wrote, on one Markdown line: no heading, link or HTML it could make. */
function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

const OUTCOMES: Record<ConversationTurn['outcome'], string> = {
  answered: 'answered',
  stopped: 'stopped',
  'step-cap': 'stopped at the step cap without a final answer',
  failed: 'failed',
};

/**
 * The export as Markdown (also what History opens), masked. Everything a server or the model wrote sits in code
 * fences or is escaped inline, so the document shows it as text.
 */
export function conversationMarkdown(record: ConversationRecord, secrets: readonly string[]): string {
  const masked = maskSecrets(record, secrets);
  const lines = [
    `# Conversation with ${inline(masked.model.name)}`,
    '',
    `- Model: ${inline(masked.model.id)} (${inline(masked.model.provider)})`,
    `- Servers: ${masked.servers.map(inline).join(', ')}`,
    `- Started: ${new Date(masked.startedAt).toISOString()}`,
    `- Requests: ${masked.turns.length}${masked.turnsLeftOut ? ` (${masked.turnsLeftOut} earlier left out)` : ''}`,
    '',
  ];
  for (const [index, turn] of masked.turns.entries()) {
    lines.push(`## Request ${index + 1}`, '', fence(turn.request, 'text'), '');
    for (const item of turn.attachments)
      lines.push(
        `- Attached ${item.kind} ${inline(item.label)} from ${inline(item.server)}: ${item.bytes} bytes${item.cut ? ', cut' : ''}`,
      );
    if (turn.attachments.length > 0) lines.push('');
    for (const call of turn.calls) {
      lines.push(`### Tool call ${inline(call.tool)} on ${inline(call.server)}: ${call.state}`, '');
      lines.push(fence(JSON.stringify(call.arguments, null, 2), 'json'), '');
      if (call.result !== undefined)
        lines.push(
          `${call.isError ? 'Error' : 'Result'}${call.durationMs === undefined ? '' : ` (${call.durationMs} ms)`}:`,
          '',
          fence(call.result, 'text'),
          '',
        );
      if (call.withheld) lines.push('Withheld from the model: it read a refusal instead of this result.', '');
    }
    if (turn.answer !== undefined) lines.push('### Answer', '', fence(turn.answer, 'text'), '');
    lines.push(`Outcome: ${OUTCOMES[turn.outcome]}${turn.error ? ` (${inline(turn.error)})` : ''}`, '');
  }
  return lines.join('\n');
}
