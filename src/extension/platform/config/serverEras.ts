import { ERA_NAMES, eraPreferenceFromName } from '../../../protocol/eras/names';
import type { ServerDefinition } from '../../../workbench/config/mcpConfig';
import { isObject } from '../../../protocol/guards';

/**
 * The `mcpWorkbench.serverEras` setting: the protocol era per server name, for servers of `.vscode/mcp.json`.
 * `"era"` written in mcp.json works too, but VS Code's own schema for that file allows no property it does not know
 * (`additionalProperties: false` on every server entry) and flags it "Property era is not allowed". A setting is a
 * place no schema flags. An `"era"` in the entry itself wins: it is the more specific of the two. No vscode import:
 * the caller reads the setting, so this runs in unit tests.
 */
export const SERVER_ERAS_SETTING = 'mcpWorkbench.serverEras';

interface ServerErasResult {
  definitions: ServerDefinition[];
  /** Names whose value is not an era: said once, next to the file's other problems. */
  problems: string[];
}

export function applyServerEras(definitions: readonly ServerDefinition[], setting: unknown): ServerErasResult {
  const problems: string[] = [];
  if (!isObject(setting)) return { definitions: [...definitions], problems };
  const eras = setting as Record<string, unknown>;
  const applied = definitions.map((definition) => {
    if (definition.era !== undefined || !Object.hasOwn(eras, definition.name)) return definition;
    const value = eras[definition.name];
    const era = eraPreferenceFromName(value);
    if (era === undefined) {
      problems.push(
        `${SERVER_ERAS_SETTING}["${definition.name}"] must be ${ERA_NAMES.map((name) => JSON.stringify(name)).join(', ')}, got ${JSON.stringify(value)}`,
      );
      return definition;
    }
    return { ...definition, era };
  });
  return { definitions: applied, problems };
}
