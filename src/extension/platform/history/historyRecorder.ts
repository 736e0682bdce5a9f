import * as vscode from 'vscode';
import type {
  HistoryLog,
  HistoryOutcome,
  HistoryRecord,
  HistoryRecording,
} from '../../../workbench/history/historyLog';
import type { SamplingRecord } from '../../../workbench/sampling/coordinator';
import type { ElicitationExchange } from '../../../workbench/history/elicitationExchange';
import type { ServerManager } from '../servers/serverManager';

/**
 * The one way History is recorded: tool calls, reads and prompt gets arrive as records from the features that make
 * them (`record`), sampling and elicitation exchanges as events of the review services, which know a server by name
 * only. Only this class writes the log, and the log masks each entry against its server's secrets at the sink.
 */
export class HistoryRecorder implements HistoryRecording {
  constructor(
    private readonly history: HistoryLog,
    private readonly manager: ServerManager,
  ) {}

  readonly record = (record: HistoryRecord): void => {
    this.history.record(record);
  };

  /**
   * A playground conversation: recorded once, then replaced in place after each request (one entry per conversation).
   * `secrets` are every chosen server's known secrets and the model keys; History masks with them at its sink.
   * Returns the entry's id for the next replacement.
   */
  readonly recordConversation = (
    previousId: number | undefined,
    record: HistoryRecord,
    secrets: readonly string[],
  ): number =>
    (previousId === undefined
      ? this.history.record(record, secrets)
      : this.history.replace(previousId, record, secrets)
    ).id;

  readonly recordSampling = (record: SamplingRecord): void => {
    const controller = this.manager.byName(record.serverName)[0];
    this.history.record(
      {
        server: { id: controller?.id ?? record.serverName, name: record.serverName },
        startedAt: record.time,
        operation: { kind: 'sampling', ...(record.model ? { model: record.model } : {}), request: record.requestText },
        outcome: samplingOutcome(record),
        result:
          record.responseText === undefined
            ? undefined
            : {
                response: record.responseText,
                ...(record.modelResponseText === undefined
                  ? {}
                  : { modelResponseBeforeEdit: record.modelResponseText }),
                ...(record.originalRequestText === undefined ? {} : { requestBeforeEdit: record.originalRequestText }),
                inputTokens: record.inputTokens,
                outputTokens: record.outputTokens,
              },
      },
      controller?.knownSecrets() ?? [],
    );
  };

  readonly recordElicitation = (exchange: ElicitationExchange): void => {
    const controller = this.manager.byName(exchange.serverName)[0];
    this.history.record(
      {
        server: { id: controller?.id ?? exchange.serverName, name: exchange.serverName },
        startedAt: exchange.startedAt,
        durationMs: Date.now() - exchange.startedAt,
        operation: { kind: 'elicitation', mode: exchange.request.mode ?? 'form', message: exchange.request.message },
        outcome: elicitationOutcome(exchange),
        result: exchange.result,
      },
      controller?.knownSecrets() ?? [],
    );
  };
}

function samplingOutcome(record: SamplingRecord): HistoryOutcome {
  switch (record.outcome) {
    case 'approved':
      return { kind: 'succeeded' };
    case 'auto-approved':
      return { kind: 'succeeded', note: vscode.l10n.t('approved by policy') };
    case 'rejected-request':
      return { kind: 'declined', note: vscode.l10n.t('request rejected') };
    case 'rejected-response':
      return { kind: 'declined', note: vscode.l10n.t('response rejected') };
    case 'blocked':
      return { kind: 'declined', note: vscode.l10n.t('blocked by policy') };
    case 'cancelled':
      return { kind: 'cancelled' };
    case 'failed':
      return { kind: 'failed', message: record.error ?? vscode.l10n.t('failed') };
    default: {
      const exhaustive: never = record.outcome;
      return exhaustive;
    }
  }
}

function elicitationOutcome(exchange: ElicitationExchange): HistoryOutcome {
  if (exchange.error !== undefined || !exchange.result)
    return { kind: 'failed', message: exchange.error ?? vscode.l10n.t('failed') };
  switch (exchange.result.action) {
    case 'accept':
      return { kind: 'succeeded' };
    case 'decline':
      return { kind: 'declined' };
    case 'cancel':
      return { kind: 'cancelled' };
    default: {
      const exhaustive: never = exchange.result.action;
      return exhaustive;
    }
  }
}
