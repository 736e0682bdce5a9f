import type { ElicitRequest, ElicitResult } from '../../protocol/types';

/** One elicitation and how it ended: the person's answer, or why there was none (cancelled by the server, closed). */
export interface ElicitationExchange {
  serverName: string;
  request: ElicitRequest;
  startedAt: number;
  result?: ElicitResult;
  error?: string;
}
