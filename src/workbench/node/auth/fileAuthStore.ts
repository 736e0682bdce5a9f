import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AuthStateStore, PersistedAuthState } from '../../../protocol/auth/types';

/** The per-user default: $XDG_CONFIG_HOME/mcp-workbench/auth, ~/Library/Application Support/… or %APPDATA%\…. */
export function defaultAuthDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32')
    return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'mcp-workbench', 'auth');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'mcp-workbench', 'auth');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'mcp-workbench', 'auth');
}

/** The CLI's token cache: the authorizer's store, plus sign-out. */
interface FileAuthStore extends AuthStateStore {
  /** Forgets everything cached for one server (tokens and client registrations); false when nothing was cached. */
  forget(serverUrl: string): Promise<boolean>;
}

/**
 * OAuth state in files: one JSON file per MCP server URL (named by its hash), mode 0600 in a 0700 folder,
 * written through a temporary file and a rename so a crash never leaves half a token file.
 */
export function fileAuthStore(dir: string): FileAuthStore {
  const fileFor = (serverUrl: string) =>
    path.join(dir, `${createHash('sha256').update(serverUrl).digest('hex').slice(0, 32)}.json`);
  return {
    load: async (serverUrl) => {
      let text: string;
      try {
        text = await fs.readFile(fileFor(serverUrl), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        const parsed = JSON.parse(text) as { serverUrl?: unknown; state?: PersistedAuthState };
        // The URL is stored too, so a hash collision can never hand one server's tokens to another.
        return parsed.serverUrl === serverUrl ? parsed.state : undefined;
      } catch {
        return undefined;
      }
    },
    save: async (serverUrl, state) => {
      // A folder this store creates is 0700; an existing one (the person's choice of --auth-dir) keeps its mode,
      // the files in it are 0600 either way.
      const created = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      if (created !== undefined) await fs.chmod(dir, 0o700);
      const file = fileFor(serverUrl);
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await fs.writeFile(temporary, `${JSON.stringify({ serverUrl, state }, null, 2)}\n`, { mode: 0o600 });
      await fs.rename(temporary, file);
    },
    forget: async (serverUrl) => {
      const file = fileFor(serverUrl);
      // Only the file of this very URL (see load: a hash collision must not delete another server's sign-in).
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
      let storedUrl: unknown;
      try {
        storedUrl = (JSON.parse(text) as { serverUrl?: unknown }).serverUrl;
      } catch {
        storedUrl = serverUrl; // an unreadable file for this URL's name holds nothing usable: remove it
      }
      if (storedUrl !== serverUrl) return false;
      await fs.rm(file, { force: true });
      return true;
    },
  };
}
