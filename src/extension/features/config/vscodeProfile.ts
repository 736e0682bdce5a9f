import * as path from 'node:path';

/**
 * Where VS Code keeps the user `mcp.json` of this window's profile (vscode-free, so a unit test covers each case).
 *
 * The extension API names no profile, and `context.globalStorageUri` does not follow it: VS Code hands every extension
 * host the default profile's `User/globalStorage` whatever the window's profile (microsoft/vscode#160466, closed out of
 * scope; 1.139.1's ext host init data passes `defaultProfile.globalStorageHome`). Going two folders up from it found
 * `User/mcp.json` in every profile, so a person in a "Python" profile saw the default profile's servers. VS Code's own
 * record says which profile a workspace opens in: `User/globalStorage/storage.json` holds `userDataProfiles` (each
 * profile's folder under `User/profiles/`, and `useDefaultFlags.mcp` when it shares the default's `mcp.json`) and
 * `profileAssociations.workspaces` (workspace URI → profile id). If a later VS Code gives each profile its own
 * global storage (microsoft/vscode#329817), the path itself names the profile.
 */

export const DEFAULT_PROFILE_ID = '__default__profile__';

export interface ProfileLookup {
  /** `context.globalStorageUri.fsPath`: `<User>/globalStorage/<extension id>` (or `<User>/profiles/<id>/globalStorage/…`). */
  globalStorage: string;
  /** The text of `<User>/globalStorage/storage.json`, when it could be read. */
  storageJson?: string;
  /** This window's workspace as VS Code keys it: the `.code-workspace` file's URI, else the single folder's URI. */
  workspace?: string;
}

export interface UserMcpFile {
  file: string;
  /** The profile's id, or DEFAULT_PROFILE_ID. */
  profile: string;
}

/** `<User>/globalStorage/storage.json`, VS Code's record of profiles, next to the default profile's global storage. */
export function storageJsonOf(globalStorage: string): string {
  return path.join(userFolderOf(globalStorage).user, 'globalStorage', 'storage.json');
}

export function vscodeUserMcpFile(lookup: ProfileLookup): UserMcpFile {
  const { user, profileFolder } = userFolderOf(lookup.globalStorage);
  const record = parseRecord(lookup.storageJson);
  const id =
    profileFolder !== undefined
      ? path.basename(profileFolder)
      : lookup.workspace !== undefined
        ? associated(record.associations, lookup.workspace)
        : undefined;
  const defaultFile = { file: path.join(user, 'mcp.json'), profile: DEFAULT_PROFILE_ID };
  if (id === undefined || id === DEFAULT_PROFILE_ID) return defaultFile;
  const stored = record.profiles.find((profile) => path.basename(profile.folder(user)) === id);
  if (stored?.sharesMcp) return defaultFile;
  const folder = stored?.folder(user) ?? profileFolder;
  return folder === undefined ? defaultFile : { file: path.join(folder, 'mcp.json'), profile: id };
}

function userFolderOf(globalStorage: string): { user: string; profileFolder?: string } {
  const above = path.dirname(path.dirname(globalStorage));
  return path.basename(path.dirname(above)) === 'profiles'
    ? { user: path.dirname(path.dirname(above)), profileFolder: above }
    : { user: above };
}

interface StoredProfile {
  folder(user: string): string;
  sharesMcp: boolean;
}

function parseRecord(text: string | undefined): { profiles: StoredProfile[]; associations: Record<string, unknown> } {
  let root: unknown;
  try {
    root = text === undefined ? undefined : JSON.parse(text);
  } catch {
    root = undefined;
  }
  const record = isObject(root) ? root : {};
  const profiles = Array.isArray(record.userDataProfiles) ? record.userDataProfiles : [];
  const associations = isObject(record.profileAssociations) ? record.profileAssociations.workspaces : undefined;
  return {
    profiles: profiles.flatMap((profile): StoredProfile[] => {
      if (!isObject(profile)) return [];
      const location = locationOf(profile.location);
      if (location === undefined) return [];
      const flags = isObject(profile.useDefaultFlags) ? profile.useDefaultFlags : {};
      return [
        {
          // VS Code stores the folder relative to `<User>/profiles` (older versions: a URI).
          folder: (user) => (location.relative ? path.join(user, 'profiles', location.value) : location.value),
          sharesMcp: flags.mcp === true,
        },
      ];
    }),
    associations: isObject(associations) ? associations : {},
  };
}

function locationOf(value: unknown): { relative: boolean; value: string } | undefined {
  if (typeof value === 'string' && value !== '') {
    if (!value.startsWith('file:')) return { relative: true, value };
    try {
      return { relative: false, value: decodeURIComponent(new URL(value).pathname) };
    } catch {
      return undefined;
    }
  }
  if (!isObject(value)) return undefined;
  const fsPath = value.fsPath ?? value.path;
  return typeof fsPath === 'string' && fsPath !== '' ? { relative: false, value: fsPath } : undefined;
}

/** The profile id VS Code associated with the workspace: the same URI, else one that differs only in case. */
function associated(associations: Record<string, unknown>, workspace: string): string | undefined {
  const exact = associations[workspace];
  if (typeof exact === 'string') return exact;
  const lower = workspace.toLowerCase();
  const found = Object.entries(associations).find(([key]) => key.toLowerCase() === lower)?.[1];
  return typeof found === 'string' ? found : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
