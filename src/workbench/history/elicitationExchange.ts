import type { ElicitRequest, ElicitResult } from '../../protocol/types';

/** One elicitation a server asked for and how it ended, as the review service reports it to the History. */
export interface ElicitationExchange {
  serverName: string;
  request: ElicitRequest;
  startedAt: number;
  result?: ElicitResult;
  error?: string;
}
