import type { ServerDefinition } from '../mcpConfig';
import type { WriteResult } from './types';

/**
 * Writes a definition as another client's file holds it. Everything the target cannot express is a refusal with its
 * reason (a `${input:…}` password into `.mcp.json`, a cwd into Claude Desktop's file): a copy that quietly lost the
 * secret's prompt or the folder would start a different server than the one the person copied.
 */

export interface WriteCapabilities {
  client: string;
  /** `type` for a local server (omitted when undefined), and for remote ones (undefined: no remote servers). */
  localType?: 'stdio' | 'local';
  remoteType?: 'http' | 'streamable-http';
  sse: boolean;
  cwd: boolean;
  envFile: boolean;
  /** VS Code's `oauth.clientId`, or Cursor's `auth.CLIENT_ID`, or Copilot's `oauthClientId`. */
  oauth?: 'oauth' | 'auth' | 'oauthClientId';
  /** How the target writes variables: VS Code's own, `${VAR}` (Claude Code), or none at all. */
  variables: 'vscode' | 'vscode-no-input' | 'shell-braced' | 'none';
  /** Extra members of every entry (Copilot's `tools: ["*"]`). */
  extra?: Record<string, unknown>;
}

export function writeEntry(caps: WriteCapabilities, definition: ServerDefinition): WriteResult {
  const refused: string[] = [];
  const notes: string[] = [];
  const value = (text: string, where: string): string => {
    const converted = convertVariables(text, caps, where);
    refused.push(...converted.refused);
    return converted.value;
  };
  const entry: Record<string, unknown> = {};
  switch (definition.kind) {
    case 'stdio': {
      if (caps.localType) entry.type = caps.localType;
      entry.command = value(definition.command, 'command');
      if (definition.args.length) entry.args = definition.args.map((arg, index) => value(arg, `args[${index}]`));
      const env = Object.entries(definition.env);
      if (env.some(([, item]) => item === null))
        refused.push(`${caps.client} cannot unset an environment variable ("env" value null)`);
      if (env.length)
        entry.env = Object.fromEntries(env.map(([key, item]) => [key, item === null ? '' : value(item, `env.${key}`)]));
      if (definition.cwd !== undefined) {
        if (caps.cwd) entry.cwd = value(definition.cwd, 'cwd');
        else refused.push(`${caps.client} has no "cwd": the server would start in another folder`);
      }
      if (definition.envFile !== undefined) {
        if (caps.envFile) entry.envFile = value(definition.envFile, 'envFile');
        else refused.push(`${caps.client} has no "envFile": the variables of ${definition.envFile} would be missing`);
      }
      break;
    }
    case 'http': {
      if (!caps.remoteType) {
        refused.push(`${caps.client} reads only local (command) servers, not a URL`);
        break;
      }
      if (definition.transport === 'sse' && !caps.sse) refused.push(`${caps.client} has no SSE transport`);
      entry.type = definition.transport === 'sse' ? 'sse' : caps.remoteType;
      entry.url = value(definition.url, 'url');
      const headers = Object.entries(definition.headers);
      if (headers.length)
        entry.headers = Object.fromEntries(headers.map(([key, item]) => [key, value(item, `headers.${key}`)]));
      if (definition.oauth) {
        const { clientId, clientSecret, scopes, clientMetadataUrl } = definition.oauth;
        if (clientSecret !== undefined || clientMetadataUrl !== undefined || (scopes && caps.oauth !== 'auth'))
          refused.push(`${caps.client} cannot hold this OAuth client (secret, scopes or metadata document)`);
        else if (clientId !== undefined) {
          switch (caps.oauth) {
            case 'oauth':
              entry.oauth = { clientId };
              break;
            case 'auth':
              entry.auth = { CLIENT_ID: clientId, ...(scopes ? { scopes } : {}) };
              break;
            case 'oauthClientId':
              entry.oauthClientId = clientId;
              break;
            case undefined:
              refused.push(`${caps.client} has no static OAuth client id`);
              break;
            default: {
              const exhaustive: never = caps.oauth;
              return exhaustive;
            }
          }
        }
      }
      break;
    }
    default: {
      const exhaustive: never = definition;
      return exhaustive;
    }
  }
  if (definition.dev) notes.push(`dev mode ("dev") is not carried: ${caps.client} has none`);
  if (definition.era) notes.push(`the protocol era ("era") is not carried: ${caps.client} chooses its own`);
  if (refused.length > 0) return { refused };
  return { entry: { ...entry, ...caps.extra }, notes };
}

const VARIABLE = /\$\{([^}]*)\}/g;

function convertVariables(text: string, caps: WriteCapabilities, where: string): { value: string; refused: string[] } {
  const refused: string[] = [];
  const value = text.replace(VARIABLE, (match, name: string) => {
    if (name.startsWith('input:')) {
      if (caps.variables === 'vscode') return match;
      refused.push(`${where}: ${match} is a prompted value (an input); ${caps.client} has no inputs`);
      return match;
    }
    switch (caps.variables) {
      case 'vscode':
      case 'vscode-no-input':
        return match;
      case 'shell-braced': {
        const env = /^env:([A-Za-z_][A-Za-z0-9_]*)(:-.*)?$/.exec(name);
        if (env) return `\${${env[1]}${env[2] ?? ''}}`;
        refused.push(`${where}: ${caps.client} cannot expand ${match}`);
        return match;
      }
      case 'none':
        refused.push(`${where}: ${caps.client} expands no variables, and ${match} would be passed literally`);
        return match;
      default: {
        const exhaustive: never = caps.variables;
        return exhaustive;
      }
    }
  });
  return { value, refused };
}
