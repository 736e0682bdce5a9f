import { ErrorCodes, LocalError, McpError } from '../../errors';

/**
 * UnsupportedProtocolVersion (-32022, basic/versioning.mdx): the server names the versions it supports; the
 * client retries once with one it also speaks, or gives up with both lists in the message.
 */

type VersionVerdict =
  /** Not a -32022 error: let it through unchanged. */
  { kind: 'not-a-version-error' } | { kind: 'retry'; version: string } | { kind: 'incompatible'; error: LocalError };

function supportedVersionsOf(error: unknown): string[] | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCodes.UnsupportedProtocolVersion) return undefined;
  const data = error.data as { supported?: unknown } | undefined;
  return Array.isArray(data?.supported) ? data.supported.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * `ours` is newest first. The newest mutually supported version wins, preferring one other than the version
 * just refused; the refused one is retried only when the server lists it itself (the caller retries once,
 * so a server that keeps refusing cannot loop us).
 */
export function negotiateAfterRejection(
  serverName: string,
  error: unknown,
  requested: string,
  ours: readonly string[],
): VersionVerdict {
  const supported = supportedVersionsOf(error);
  if (supported === undefined) return { kind: 'not-a-version-error' };
  const mutual = ours.filter((version) => supported.includes(version));
  const choice = mutual.find((version) => version !== requested) ?? mutual[0];
  if (choice !== undefined) return { kind: 'retry', version: choice };
  return {
    kind: 'incompatible',
    error: new LocalError(
      'unsupported-version',
      `${serverName} does not support protocol version ${requested}: it supports ${supported.length ? supported.join(', ') : '(none listed)'}, this client speaks ${ours.join(', ')}`,
      { cause: error },
    ),
  };
}
