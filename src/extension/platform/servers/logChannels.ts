import * as vscode from 'vscode';
import type { Logger } from '../../../protocol/jsonrpc/rpcConnection';
import type { LogMessage } from '../../../protocol/types';
import { maskText } from '../../../workbench/secrets';
import { maskingChannel } from '../shared/maskingChannel';

/**
 * One LogOutputChannel per server ("MCP Workbench: <name>"), created on first use and kept across restarts so a
 * crash and the restart that follows read as one story. The raw channel never leaves this class: what `get` hands
 * out masks every write against that server's secrets (see maskingChannel).
 */
export class LogChannels implements vscode.Disposable {
  private readonly channels = new Map<string, { raw: vscode.LogOutputChannel; masked: vscode.LogOutputChannel }>();

  /**
   * `serverId` is the identity; `displayName` is what the channel is called in the Output view; `secrets` are the
   * values that server's log must not show (asked at every write). The first caller's `secrets` are kept.
   */
  get(serverId: string, displayName: string, secrets: () => readonly string[]): vscode.LogOutputChannel {
    let channel = this.channels.get(serverId);
    if (!channel) {
      const raw = vscode.window.createOutputChannel(`MCP Workbench: ${displayName}`, { log: true });
      channel = { raw, masked: maskingChannel(raw, secrets) };
      this.channels.set(serverId, channel);
    }
    return channel.masked;
  }

  /** Drops the channel of a server that left the configuration. */
  release(serverId: string): void {
    this.channels.get(serverId)?.raw.dispose();
    this.channels.delete(serverId);
  }

  dispose(): void {
    for (const channel of this.channels.values()) channel.raw.dispose();
    this.channels.clear();
  }
}

/** Routes the client core's own logging into the server's channel (the channel filters by level). */
export function channelLogger(
  channel: vscode.LogOutputChannel,
  mask: (text: string) => string = (text) => text,
): Logger {
  return {
    debug: (message) => channel.debug(mask(message)),
    info: (message) => channel.info(mask(message)),
    warn: (message) => channel.warn(mask(message)),
    error: (message) => channel.error(mask(message)),
  };
}

/**
 * Writes a server's notifications/message at the closest matching level. The server already filters by the level
 * chosen with "Set Log Level", so its debug messages are written at info (tagged): the channel's own default level
 * would otherwise hide exactly what the user asked for.
 */
export function logServerMessage(
  channel: vscode.LogOutputChannel,
  message: LogMessage,
  knownSecrets: readonly string[] = [],
): void {
  const data = maskText(typeof message.data === 'string' ? message.data : JSON.stringify(message.data), knownSecrets);
  const text = `[server${message.logger ? `:${message.logger}` : ''}] ${data}`;
  switch (message.level) {
    case 'debug':
      channel.info(`[debug] ${text}`);
      break;
    case 'info':
    case 'notice':
      channel.info(text);
      break;
    case 'warning':
      channel.warn(text);
      break;
    case 'error':
    case 'critical':
    case 'alert':
    case 'emergency':
      channel.error(text);
      break;
    default:
      // An unknown level from a newer revision still deserves to be seen.
      channel.info(`[${String(message.level)}] ${text}`);
  }
}
