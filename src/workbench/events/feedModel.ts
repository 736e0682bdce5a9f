import type { FeedItem } from '../../protocol/extensions/events/eventTypes';
import { escapeForDisplay } from '../urlPolicy';

/**
 * What a live feed of one Events subscription shows, host-neutral: each FeedItem becomes a row of plain text (the
 * server's strings escaped with escapeForDisplay and cut to a bound, a payload as pretty JSON capped in characters),
 * and only the last `limit` rows are kept, so a server that never stops costs a bounded amount of memory and page.
 * A row is text for `textContent`, never HTML.
 */
export interface FeedRow {
  /** Increasing per model: a page that already has row n draws only what comes after. */
  readonly seq: number;
  readonly kind: FeedItem['kind'];
  /** This client's clock, `HH:MM:SS.mmm` UTC. */
  readonly time: string;
  /** The eventId (events), else empty. */
  readonly id: string;
  /** The payload (events), or what the gap, status or refusal says. */
  readonly text: string;
  /** events: `valid`, `invalid` or `unchecked`; gaps: `truncated` or `flood`; statuses: the status; else empty. */
  readonly mark: string;
  /** The schema's errors (an invalid payload), the unchecked reason, a gap's dropped count. */
  readonly detail: string;
}

export interface FeedModelLimits {
  /** Rows kept (oldest dropped first). */
  rows: number;
  /** Characters of a payload's pretty JSON shown; the rest is cut with a marker. */
  payloadChars: number;
  /** Characters of any other server string (ids, messages, reasons). */
  textChars: number;
}

export const DEFAULT_FEED_LIMITS: FeedModelLimits = { rows: 200, payloadChars: 4_000, textChars: 300 };

/** Escaped, then cut to `max` characters with an ellipsis (escaping first, so a cut never splits an escape's meaning). */
export function boundedText(text: string, max: number): string {
  const shown = escapeForDisplay(text);
  return shown.length <= max ? shown : `${shown.slice(0, max)}…`;
}

/** A payload as the feed shows it: pretty JSON, each line escaped, capped at `max` characters. */
export function payloadText(data: unknown, max: number): string {
  let json: string;
  try {
    json = JSON.stringify(data, null, 2) ?? 'undefined';
  } catch {
    json = String(data);
  }
  // Line breaks of the pretty printer stay; every other control or bidirectional character is escaped.
  const escaped = json
    .split('\n')
    .map((line) => escapeForDisplay(line))
    .join('\n');
  return escaped.length <= max ? escaped : `${escaped.slice(0, max)}\n… (${escaped.length - max} more characters)`;
}

function clock(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(11, 23);
}

export class FeedModel {
  private readonly kept: FeedRow[] = [];
  private next = 1;
  private readonly limits: FeedModelLimits;

  constructor(limits: Partial<FeedModelLimits> = {}) {
    this.limits = { ...DEFAULT_FEED_LIMITS, ...limits };
  }

  /** Adds an item as a row (dropping the oldest past the bound) and returns the row. */
  add(item: FeedItem): FeedRow {
    const row = this.rowOf(item);
    this.kept.push(row);
    if (this.kept.length > this.limits.rows) this.kept.splice(0, this.kept.length - this.limits.rows);
    return row;
  }

  /** The rows kept, oldest first. */
  rows(): FeedRow[] {
    return [...this.kept];
  }

  private rowOf(item: FeedItem): FeedRow {
    const base = { seq: this.next++, kind: item.kind, time: clock(item.receivedAt) };
    const text = (value: string | undefined) => (value === undefined ? '' : boundedText(value, this.limits.textChars));
    switch (item.kind) {
      case 'event': {
        const verdict = item.payload;
        const detail =
          verdict.kind === 'invalid'
            ? text(verdict.errors.slice(0, 5).join('; '))
            : verdict.kind === 'unchecked'
              ? text(verdict.reason)
              : '';
        return {
          ...base,
          id: text(item.eventId),
          text: payloadText(item.data, this.limits.payloadChars),
          mark: verdict.kind,
          detail,
        };
      }
      case 'gap':
        return {
          ...base,
          id: '',
          text: item.cursor ? text(item.cursor) : '',
          mark: item.reason,
          detail: item.dropped === undefined ? '' : String(item.dropped),
        };
      case 'status':
        return { ...base, id: '', text: text(item.message), mark: item.status, detail: '' };
      case 'refused':
        return { ...base, id: text(item.eventId), text: text(item.reason), mark: '', detail: '' };
      default: {
        const unknown: never = item;
        throw new Error(`unknown feed item ${JSON.stringify(unknown)}`);
      }
    }
  }
}
